import { proxy } from 'valtio';
import type { Job, JobRole } from '@/api/job.api';
import type { JobOffer } from '@/api/offer.api';
import { type JobsListState, initialJobsList } from './jobs-list';

export type JobEntry = { state: 'loading' } | { state: 'loaded'; job: Job } | { state: 'missing' } | { state: 'failed' };

export interface JobsState {
  /** Jobs by code, as last read (the list's rows and the job view). */
  byCode: Record<string, Job>;
  /** The job view's load state per code. */
  entries: Record<string, JobEntry>;
  list: JobsListState;
  /** A job's offers as the caller may see them (all for its customer, their own for anyone else). */
  offers: Record<string, JobOffer[] | undefined>;
  roles: Record<string, JobRole[] | undefined>;
}

export const jobsStore = proxy<JobsState>({ byCode: {}, entries: {}, list: initialJobsList(), offers: {}, roles: {} });

export function resetJobs(): void {
  jobsStore.byCode = {};
  jobsStore.entries = {};
  jobsStore.list = initialJobsList();
  jobsStore.offers = {};
  jobsStore.roles = {};
}

export function upsertJob(job: Job): void {
  jobsStore.byCode[job.code] = job;
  if (jobsStore.entries[job.code]) jobsStore.entries[job.code] = { state: 'loaded', job };
}
