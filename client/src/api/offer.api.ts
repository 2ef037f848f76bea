import type {
  JobResponse,
  MoneyResponse,
  OfferEventResponse,
  OfferPageResponse,
  OfferResponse,
  PartyPaymentPageResponse,
  PartyPaymentResponse,
  PaymentResponse,
  PersonResponse,
} from '@contracts/rest/marketplace';
import { http } from './http';

/** Money as the server sends it: the amount is a decimal string, never a float. */
export type Money = MoneyResponse;

/** GET /api/jobs/offers/{code} (the contract agreed with the marketplace). */
export type JobOffer = OfferResponse;
export type OfferPage = OfferPageResponse;
export type PersonRef = PersonResponse;
/** One row of an offer's history: its creation (from null) or a move. */
export type OfferEvent = OfferEventResponse;
export type Payment = PaymentResponse;
/** A payment on the payments screen: made by me (as customer) or received (as provider). */
export type PartyPayment = PartyPaymentResponse;
export type PaymentPage = PartyPaymentPageResponse;

/** The job as the offer screens show it (GET /api/job/{code}). */
export type JobSummary = Pick<JobResponse, 'code' | 'title' | 'description' | 'lang' | 'deadline' | 'customerCode' | 'acceptingOffers'>;

/** Price and deadline of an offer, as the form sends them. */
export interface OfferTermsInput {
  price: Money;
  localPrice?: Money;
  /** UTC ISO */
  deadline: string;
}

/** The calls that move an offer (shared/contracts/offers.ts), by their HTTP form. */
export type OfferMoveCall =
  'final' | 'choose' | 'reapprove' | 'finalizeRequest' | 'approveFinalizeRequest' | 'pay' | 'confirmPayment' | 'disputePayment' | 'withdraw' | 'reject';

const MOVE_HTTP: Record<OfferMoveCall, { method: 'post' | 'put'; path: string }> = {
  final: { method: 'post', path: 'final' },
  choose: { method: 'post', path: 'choose' },
  reapprove: { method: 'post', path: 'reapprove' },
  finalizeRequest: { method: 'post', path: 'finalizeRequest' },
  approveFinalizeRequest: { method: 'put', path: 'ApproveFinalizeRequest' },
  pay: { method: 'post', path: 'pay' },
  confirmPayment: { method: 'post', path: 'confirmPayment' },
  disputePayment: { method: 'post', path: 'disputePayment' },
  withdraw: { method: 'post', path: 'withdraw' },
  reject: { method: 'post', path: 'reject' },
};

const enc = encodeURIComponent;
const offerUrl = (jobCode: string, offerCode: string) => `/api/jobs/${enc(jobCode)}/offers/${enc(offerCode)}`;
const langQuery = (lang?: string) => (lang ? `?lang=${enc(lang)}` : '');
const keyed = (key: string) => ({ headers: { 'Idempotency-Key': key }, handleErrors: false });

export const offerApi = {
  // The chat's info bar shows a missing offer itself; the one error handler stays out. Statuses change: no cache.
  byCode: (code: string, lang?: string) => http.get<JobOffer>(`/api/jobs/offers/${enc(code)}${langQuery(lang)}`, { cache: false, handleErrors: false }),
  get: (jobCode: string, offerCode: string, lang?: string) =>
    http.get<JobOffer>(`${offerUrl(jobCode, offerCode)}${langQuery(lang)}`, { cache: false, handleErrors: false }),
  events: (jobCode: string, offerCode: string) => http.get<OfferEvent[]>(`${offerUrl(jobCode, offerCode)}/events`, { cache: false, handleErrors: false }),
  job: (jobCode: string, lang?: string) => http.get<JobSummary>(`/api/job/${enc(jobCode)}${langQuery(lang)}`, { cache: false, handleErrors: false }),
  /** Makes the offer and prices it in one call (it starts as a Proposal); 422 rules go to the one error handler. */
  create: (jobCode: string, body: OfferTermsInput & { message?: string; lang?: string }, lang?: string) =>
    http.post<JobOffer>(`/api/jobs/${enc(jobCode)}/offers${langQuery(lang)}`, body),
  /** A revision of price and deadline (Proposal), sent with an Idempotency-Key. */
  revise: (jobCode: string, offerCode: string, body: OfferTermsInput, key: string, lang?: string) =>
    http.put<JobOffer>(`${offerUrl(jobCode, offerCode)}${langQuery(lang)}`, body, keyed(key)),
  /** One move with its Idempotency-Key: a repeated key answers the first result, so a double click acts once. */
  move: (jobCode: string, offerCode: string, call: OfferMoveCall, body: object, key: string, lang?: string) => {
    const { method, path } = MOVE_HTTP[call];
    const url = `${offerUrl(jobCode, offerCode)}/${path}${langQuery(lang)}`;
    return method === 'put' ? http.put<unknown>(url, body, keyed(key)) : http.post<unknown>(url, body, keyed(key));
  },
  /** A job's offers as the caller may see them: all for its customer, their own for a provider. */
  ofJob: (jobCode: string, lang?: string) =>
    http.get<OfferPage>(`/api/jobs/${enc(jobCode)}/offers?pageSize=100${lang ? `&lang=${enc(lang)}` : ''}`, { cache: false, handleErrors: false }),
  mine: (lang?: string, page = 1) => http.get<OfferPage>(`/api/job-offers?page=${page}&pageSize=100${lang ? `&lang=${enc(lang)}` : ''}`, { cache: false }),
  forPayment: (lang?: string) => http.get<OfferPage>(`/api/job-offers/for-payment?pageSize=100${lang ? `&lang=${enc(lang)}` : ''}`, { cache: false }),
  payments: (lang?: string) => http.get<PaymentPage>(`/api/job-offers/payments?pageSize=100${lang ? `&lang=${enc(lang)}` : ''}`, { cache: false }),
};
