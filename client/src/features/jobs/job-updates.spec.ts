import type { JobUpdatedPayload } from '@contracts/socket-events';
import { applyJobUpdate, jobInLanguage } from './job-updates';
import { jobsStore, resetJobs, upsertJob } from './jobs.store';

const pushed = (over: Partial<JobUpdatedPayload> = {}): JobUpdatedPayload => ({
  code: 'J_one',
  deadline: null,
  customerCode: 'U_c',
  acceptingOffers: false,
  lang: 'eng',
  title: 'Paint the fence',
  description: 'The whole fence.',
  versions: [
    { lang: 'eng', title: 'Paint the fence', description: 'The whole fence.', isDefault: true },
    { lang: 'pol', title: 'Pomaluj płot', description: 'Cały płot.', isDefault: false },
  ],
  offerCount: 0,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-02T10:00:00.000Z',
  ...over,
});

beforeEach(() => resetJobs());

describe('job:updated', () => {
  it("shows the pushed job's texts in the reader's language, else in its default one", () => {
    expect(jobInLanguage(pushed(), 'pol')).toMatchObject({ lang: 'pol', title: 'Pomaluj płot', description: 'Cały płot.' });
    expect(jobInLanguage(pushed(), 'deu')).toMatchObject({ lang: 'eng', title: 'Paint the fence' });
  });

  it("moves a held job's row and view (taking offers, texts) at once, and leaves jobs this tab never loaded alone", () => {
    upsertJob(jobInLanguage(pushed({ acceptingOffers: true, updatedAt: '2026-11-01T10:00:00.000Z' }), 'pol'));
    jobsStore.entries.J_one = { state: 'loaded', job: jobsStore.byCode.J_one };
    expect(applyJobUpdate(pushed(), 'pol')).toBe(true);
    expect(jobsStore.byCode.J_one).toMatchObject({ acceptingOffers: false, title: 'Pomaluj płot' });
    expect(jobsStore.entries.J_one).toMatchObject({ state: 'loaded', job: { acceptingOffers: false } });

    expect(applyJobUpdate(pushed({ code: 'J_other' }), 'pol')).toBe(false);
    expect(jobsStore.byCode.J_other).toBeUndefined();
  });

  it('never lets an older push undo a newer save', () => {
    upsertJob(pushed({ acceptingOffers: true, updatedAt: '2026-11-03T10:00:00.000Z' }));
    expect(applyJobUpdate(pushed({ acceptingOffers: false }), 'eng')).toBe(false);
    expect(jobsStore.byCode.J_one.acceptingOffers).toBe(true);
  });
});
