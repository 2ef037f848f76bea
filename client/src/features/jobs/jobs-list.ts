import type { JobPage } from '@/api/job.api';

/** What the jobs list shows: everyone's or my jobs, optionally only titles containing a text. */
export interface JobsFilter {
  mine: boolean;
  q: string;
}

export const SEARCH_MAX = 100;
/** Spec section 9: searches are debounced 300 ms. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface JobsListState {
  filter: JobsFilter;
  /** Job codes in list order (newest first), each once. */
  codes: string[];
  /** The last page loaded (0: none yet). */
  page: number;
  hasMore: boolean;
  status: 'idle' | 'loading' | 'loaded' | 'failed';
  /** A next page is being loaded (the shown ones stay). */
  loadingMore: boolean;
  /** Bumped by every new listing, so an answer to an older filter is dropped. */
  generation: number;
}

export const initialJobsList = (): JobsListState => ({
  filter: { mine: false, q: '' },
  codes: [],
  page: 0,
  hasMore: false,
  status: 'idle',
  loadingMore: false,
  generation: 0,
});

export const sameFilter = (a: JobsFilter, b: JobsFilter): boolean => a.mine === b.mine && a.q.trim() === b.q.trim();

/** A fresh listing for a filter: nothing shown, the first page on its way. Answers the generation to expect. */
export function startListing(list: JobsListState, filter: JobsFilter): number {
  list.filter = { mine: filter.mine, q: filter.q };
  list.codes = [];
  list.page = 0;
  list.hasMore = false;
  list.status = 'loading';
  list.loadingMore = false;
  list.generation += 1;
  return list.generation;
}

/** The next page is on its way; answers its number, or null when there is nothing more (or a load is running). */
export function startNextPage(list: JobsListState): number | null {
  if (list.status !== 'loaded' || !list.hasMore || list.loadingMore) return null;
  list.loadingMore = true;
  return list.page + 1;
}

/**
 * A page arrived. Answers false (and changes nothing) for an answer of an older listing. Jobs posted
 * meanwhile shift the pages, so a job already shown is not added twice.
 */
export function receivePage(list: JobsListState, generation: number, page: JobPage): boolean {
  if (generation !== list.generation) return false;
  const shown = new Set(list.codes);
  list.codes = [...list.codes, ...page.jobs.map((j) => j.code).filter((code) => !shown.has(code))];
  list.page = page.page;
  list.hasMore = page.hasMore;
  list.status = 'loaded';
  list.loadingMore = false;
  return true;
}

/** A page failed: a first page shows the failure, a next page leaves the shown ones and may be tried again. */
export function failPage(list: JobsListState, generation: number): void {
  if (generation !== list.generation) return;
  if (list.loadingMore) list.loadingMore = false;
  else list.status = 'failed';
}

export type JobsListView = 'loading' | 'failed' | 'empty' | 'no-match' | 'jobs';

/** Which of the list's states to show: an empty instance invites the first job; an empty search says so. */
export function listView(list: { status: JobsListState['status']; codes: readonly string[]; filter: Readonly<JobsFilter> }): JobsListView {
  if (list.status === 'failed') return 'failed';
  if (list.status !== 'loaded') return 'loading';
  if (list.codes.length > 0) return 'jobs';
  return list.filter.q.trim() || list.filter.mine ? 'no-match' : 'empty';
}
