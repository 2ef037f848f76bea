import type { JobUpdatedPayload } from '@contracts/socket-events';
import type { Job } from '@/api/job.api';
import { jobsStore, upsertJob } from './jobs.store';

/** A pushed job (in its default language, every version beside it) with title and description in `lang`, if it has it. */
export function jobInLanguage(job: JobUpdatedPayload, lang: string): Job {
  const chosen = job.versions.find((v) => v.lang === lang) ?? job.versions.find((v) => v.isDefault) ?? job.versions[0];
  return chosen ? { ...job, lang: chosen.lang, title: chosen.title, description: chosen.description } : job;
}

/** An older push never undoes a newer save the tab already holds. */
export const isNewer = (pushed: Pick<Job, 'updatedAt'>, held: Pick<Job, 'updatedAt'> | undefined): boolean =>
  !held || Date.parse(pushed.updatedAt) >= Date.parse(held.updatedAt);

/**
 * `job:updated`: the list's row and the job view take the saved job at once, in the reader's language. A job
 * this tab never loaded is left alone (it is read when it is opened). Answers whether it was applied.
 */
export function applyJobUpdate(pushed: JobUpdatedPayload, lang: string): boolean {
  const held = jobsStore.byCode[pushed.code];
  if (!held || !isNewer(pushed, held)) return false;
  upsertJob(jobInLanguage(pushed, lang));
  return true;
}
