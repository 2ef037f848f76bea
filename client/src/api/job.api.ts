import type { JobMachineTranslationResponse } from '@contracts/translation';
import type { JobPageResponse, JobResponse, JobRoleResponse, JobVersionResponse, OfferPageResponse, PersonResponse } from '@contracts/rest/marketplace';
import { http } from './http';

/** One language version of a job's texts (spec section 3); the save body sends the same shape. */
export type JobVersion = JobVersionResponse;

/** A job as GET /api/job and /api/job/{code} answer it: title and description in the asked language, else the default. */
export type Job = JobResponse;
export type JobPage = JobPageResponse;

export interface JobListQuery {
  lang: string;
  page: number;
  mine?: boolean;
  q?: string;
}

/** POST /api/job and POST /api/job/{code}: the whole job; versions replace the stored ones. */
export interface SaveJobBody {
  /** UTC ISO; null: none; left out: unchanged. */
  deadline?: string | null;
  versions: JobVersion[];
  acceptingOffers?: boolean;
}

export type JobRoleUser = PersonResponse;
/** A job role (1 manager, 2 reviewer, 3 contributor, 4 observer); `name` is a translation key. */
export type JobRole = JobRoleResponse;
export type JobOfferPage = OfferPageResponse;

const job = (code: string) => `/api/job/${encodeURIComponent(code)}`;
const withLang = (lang: string) => `lang=${encodeURIComponent(lang)}`;

function listQuery({ lang, page, mine, q }: JobListQuery): string {
  const params = new URLSearchParams({ lang, page: String(page) });
  if (mine) params.set('mine', 'true');
  if (q?.trim()) params.set('q', q.trim());
  return params.toString();
}

// Jobs and their offers change while they are looked at (offers arrive, taking offers is switched): no cache.
export const jobApi = {
  list: (query: JobListQuery) => http.get<JobPage>(`/api/job?${listQuery(query)}`, { cache: false }),
  // The job page shows a missing job itself.
  /** The job's default version machine-translated into `lang` for this reader: never saved. */
  machineTranslation: (code: string, lang: string) => http.post<JobMachineTranslationResponse>(`${job(code)}/machine-translation?${withLang(lang)}`),
  get: (code: string, lang: string) => http.get<Job>(`${job(code)}?${withLang(lang)}`, { cache: false, handleErrors: false }),
  create: (body: SaveJobBody, lang: string) => http.post<Job>(`/api/job?${withLang(lang)}`, body),
  update: (code: string, body: SaveJobBody, lang: string) => http.post<Job>(`${job(code)}?${withLang(lang)}`, body),
  faq: (code: string) => http.get<{ code: string }>(`${job(code)}/faq`, { cache: false }),
  roles: (code: string, lang: string) => http.get<JobRole[]>(`${job(code)}/roles?${withLang(lang)}`, { cache: false }),
  setRoleUsers: (code: string, roleId: number, users: string[], lang: string) =>
    http.post<JobRole>(`${job(code)}/roles/${roleId}?${withLang(lang)}`, { users }),
  /** All of the job's offers for its customer, the caller's own for anyone else. */
  offers: (code: string, lang: string) =>
    http.get<JobOfferPage>(`/api/jobs/${encodeURIComponent(code)}/offers?${withLang(lang)}&pageSize=100`, { cache: false }),
};
