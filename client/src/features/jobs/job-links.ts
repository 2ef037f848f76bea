import { toJob } from '@/routes/paths';

/**
 * The job form lives on the job route: /jobs/new posts a job (job codes are never 'new', as offer codes are
 * never 'new' for the make-an-offer page), /jobs/{jobId}?edit=1 edits one. No route of its own is needed.
 */
export const NEW_JOB_CODE = 'new';
export const EDIT_PARAM = 'edit';
export const toNewJob = (): string => toJob(NEW_JOB_CODE);
export const toEditJob = (jobId: string): string => `${toJob(jobId)}?${EDIT_PARAM}=1`;
