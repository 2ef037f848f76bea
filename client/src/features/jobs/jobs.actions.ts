import type { OfferStatusPayload } from '@contracts/socket-events';
import { ApiError } from '@/api/api-error';
import { type Job, jobApi } from '@/api/job.api';
import { type JobFormValues, type RoleUsers, changedRoles, formToBody } from './job-form';
import { type JobsFilter, failPage, receivePage, startListing, startNextPage } from './jobs-list';
import { jobsStore, upsertJob } from './jobs.store';

/** The first page of the jobs list for a filter; an older listing's answer is dropped. */
export async function listJobs(filter: JobsFilter, lang: string): Promise<void> {
  const list = jobsStore.list;
  const generation = startListing(list, filter);
  try {
    const page = await jobApi.list({ lang, page: 1, mine: filter.mine, q: filter.q });
    if (generation === list.generation) page.jobs.forEach(upsertJob);
    receivePage(list, generation, page);
  } catch {
    failPage(list, generation);
  }
}

/** The next page of the list, if there is one. */
export async function loadMoreJobs(lang: string): Promise<void> {
  const list = jobsStore.list;
  const next = startNextPage(list);
  if (next === null) return;
  const generation = list.generation;
  try {
    const page = await jobApi.list({ lang, page: next, mine: list.filter.mine, q: list.filter.q });
    if (generation === list.generation) page.jobs.forEach(upsertJob);
    receivePage(list, generation, page);
  } catch {
    failPage(list, generation);
  }
}

/** One job for the job view; a 404 (or 403) is 'missing', anything else 'failed'. */
export async function loadJob(code: string, lang: string): Promise<void> {
  if (jobsStore.entries[code]?.state !== 'loaded') jobsStore.entries[code] = { state: 'loading' };
  try {
    const job = await jobApi.get(code, lang);
    jobsStore.entries[code] = { state: 'loaded', job };
    upsertJob(job);
  } catch (err) {
    const missing = err instanceof ApiError && (err.status === 404 || err.status === 403);
    if (jobsStore.entries[code]?.state !== 'loaded' || missing) jobsStore.entries[code] = { state: missing ? 'missing' : 'failed' };
  }
}

export async function loadJobRoles(code: string, lang: string): Promise<void> {
  jobsStore.roles[code] = await jobApi.roles(code, lang);
}

export async function loadJobOffers(code: string, lang: string): Promise<void> {
  jobsStore.offers[code] = (await jobApi.offers(code, lang)).offers;
}

/**
 * Posts a new job (code null) or saves the customer's changes, then puts the users on the roles that
 * changed. A failed save reaches the one error handler (422 broken rules as notifications) and the caller;
 * once the job is saved, failed roles only make `rolesSaved` false (the job exists: saving it again would
 * post a second one).
 */
export async function saveJob(
  code: string | null,
  values: JobFormValues,
  roles: { stored: RoleUsers; edited: RoleUsers },
  lang: string,
  storedDeadline?: string,
): Promise<{ job: Job; rolesSaved: boolean }> {
  const body = formToBody(values, storedDeadline);
  const job = code ? await jobApi.update(code, body, lang) : await jobApi.create(body, lang);
  upsertJob(job);
  jobsStore.entries[job.code] = { state: 'loaded', job };
  const changed = changedRoles(roles.stored, roles.edited);
  if (changed.length === 0) return { job, rolesSaved: true };
  const results = await Promise.allSettled(
    changed.map((id) =>
      jobApi.setRoleUsers(
        job.code,
        id,
        (roles.edited[id] ?? []).map((u) => u.code),
        lang,
      ),
    ),
  );
  await loadJobRoles(job.code, lang).catch(() => undefined);
  return { job, rolesSaved: results.every((r) => r.status === 'fulfilled') };
}

/** The customer stops or resumes taking offers; the rest of the job is sent as it is stored. */
export async function setAcceptingOffers(job: Job, acceptingOffers: boolean, lang: string): Promise<Job> {
  const versions = job.versions.map(({ lang: l, title, description, isDefault }) => ({ lang: l, title, description, isDefault }));
  const saved = await jobApi.update(job.code, { versions, acceptingOffers }, lang);
  upsertJob(saved);
  jobsStore.entries[saved.code] = { state: 'loaded', job: saved };
  return saved;
}

/** The job's FAQ chat (joined on the way); answers its group code. */
export async function openJobFaq(code: string): Promise<string> {
  return (await jobApi.faq(code)).code;
}

/** A pushed transition moves the offer's row on the job view at once. Answers whether the job's offers are held. */
export function applyJobOfferStatus(payload: OfferStatusPayload): boolean {
  const offers = jobsStore.offers[payload.jobCode];
  const offer = offers?.find((o) => o.code === payload.offerCode);
  if (offer) offer.status = payload.status;
  return offers !== undefined;
}
