import type { Job, JobPage } from '@/api/job.api';
import { failPage, initialJobsList, listView, receivePage, startListing, startNextPage } from './jobs-list';

const job = (code: string): Job => ({
  code,
  deadline: null,
  customerCode: 'U_c',
  acceptingOffers: true,
  lang: 'eng',
  title: `Job ${code}`,
  description: 'A long enough description.',
  versions: [],
  offerCount: 0,
  createdAt: '2030-01-01T00:00:00Z',
  updatedAt: '2030-01-01T00:00:00Z',
});
const page = (n: number, codes: string[], hasMore: boolean): JobPage => ({ jobs: codes.map(job), page: n, pageSize: 20, hasMore });

describe('the jobs list state', () => {
  it('loads a first page, then next pages on request, without showing a job twice', () => {
    const list = initialJobsList();
    expect(listView(list)).toBe('loading');
    const gen = startListing(list, { mine: false, q: '' });
    expect(startNextPage(list)).toBeNull();
    expect(receivePage(list, gen, page(1, ['c', 'b'], true))).toBe(true);
    expect(listView(list)).toBe('jobs');
    expect(startNextPage(list)).toBe(2);
    // Only one next page at a time.
    expect(startNextPage(list)).toBeNull();
    // A job posted meanwhile pushed 'b' onto page 2: it stays once.
    receivePage(list, gen, page(2, ['b', 'a'], false));
    expect(list.codes).toEqual(['c', 'b', 'a']);
    expect(list.hasMore).toBe(false);
    expect(startNextPage(list)).toBeNull();
  });

  it('drops the answer of an older filter', () => {
    const list = initialJobsList();
    const old = startListing(list, { mine: false, q: 'fen' });
    const now = startListing(list, { mine: false, q: 'fence' });
    expect(receivePage(list, old, page(1, ['x'], false))).toBe(false);
    expect(list.status).toBe('loading');
    failPage(list, old);
    expect(list.status).toBe('loading');
    receivePage(list, now, page(1, ['y'], false));
    expect(list.codes).toEqual(['y']);
  });

  it('shows a failed first page, and keeps the shown jobs when a next page fails', () => {
    const list = initialJobsList();
    let gen = startListing(list, { mine: false, q: '' });
    failPage(list, gen);
    expect(listView(list)).toBe('failed');
    gen = startListing(list, { mine: false, q: '' });
    receivePage(list, gen, page(1, ['a'], true));
    startNextPage(list);
    failPage(list, gen);
    expect(listView(list)).toBe('jobs');
    expect(list.loadingMore).toBe(false);
    expect(startNextPage(list)).toBe(2);
  });

  it('invites the first job only when the instance has none; an empty search or "mine" says nothing matches', () => {
    const list = initialJobsList();
    let gen = startListing(list, { mine: false, q: '' });
    receivePage(list, gen, page(1, [], false));
    expect(listView(list)).toBe('empty');
    gen = startListing(list, { mine: false, q: 'roof' });
    receivePage(list, gen, page(1, [], false));
    expect(listView(list)).toBe('no-match');
    gen = startListing(list, { mine: true, q: '' });
    receivePage(list, gen, page(1, [], false));
    expect(listView(list)).toBe('no-match');
  });
});
