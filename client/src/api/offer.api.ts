import { http } from './http';

/** Money as the server sends it: the amount is a decimal string, never a float. */
export interface Money {
  amount: string;
  currency: string;
}

/** GET /api/jobs/offers/{code} (the contract agreed with the marketplace). */
export interface JobOffer {
  code: string;
  status: number;
  deadline: string | null;
  price: Money | null;
  localPrice: Money | null;
  jobCode: string;
  groupCode: string | null;
  providerCode: string;
  customerCode: string;
  createdAt: string;
  version: number;
  job?: { code: string; title: string; description: string; lang: string; deadline: string | null };
}

export const offerApi = {
  // The chat's info bar shows a missing offer itself; the one error handler stays out. Statuses change: no cache.
  byCode: (code: string) => http.get<JobOffer>(`/api/jobs/offers/${encodeURIComponent(code)}`, { cache: false, handleErrors: false }),
};
