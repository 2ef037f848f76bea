import type { OfferStatus } from '../offers';

/** REST answers of the marketplace: jobs, offers and payments (server/src/modules/marketplace); the response DTOs implement these. */

/** One page of a list: more may follow. */
export interface PageInfo {
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** Money in a response: the amount as a decimal string, never a float. */
export interface MoneyResponse {
  amount: string;
  currency: string;
}

/** One language version of a job's texts (spec section 3). */
export interface JobVersionResponse {
  lang: string;
  title: string;
  description: string;
  isDefault: boolean;
}

/** A job: title and description in the asked language, else the default. */
export interface JobResponse {
  code: string;
  /** UTC ISO 8601, or null for none. */
  deadline: string | null;
  customerCode: string;
  acceptingOffers: boolean;
  /** The language of title and description. */
  lang: string;
  title: string;
  description: string;
  versions: JobVersionResponse[];
  /** Offers made on the job, in any status. */
  offerCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface JobPageResponse extends PageInfo {
  jobs: JobResponse[];
}

/** A person named in a marketplace answer: a job role's user, a move's actor, a payment's other party. */
export interface PersonResponse {
  code: string;
  name: string;
  surname: string;
}

/** A job role (1 manager, 2 reviewer, 3 contributor, 4 observer); `name` is a translation key. */
export interface JobRoleResponse {
  id: number;
  name: string;
  users: PersonResponse[];
}

/** The job an offer is made on, as offer answers carry it. */
export interface OfferJobResponse {
  code: string;
  title: string;
  description: string;
  lang: string;
  deadline: string | null;
}

/** A job offer (the contract agreed with the marketplace). */
export interface OfferResponse {
  code: string;
  status: OfferStatus;
  deadline: string | null;
  price: MoneyResponse | null;
  localPrice: MoneyResponse | null;
  jobCode: string;
  /** The offer's chat. */
  groupCode: string | null;
  providerCode: string;
  customerCode: string;
  createdAt: string;
  /** Optimistic-lock version, bumped by every change. */
  version: number;
  /** When the current waiting status lapses (expiry, or a finalisation request accepted for the customer); null: never. */
  lapsesAt: string | null;
  job?: OfferJobResponse;
}

export interface OfferPageResponse extends PageInfo {
  offers: OfferResponse[];
}

/** One row of an offer's history: its creation (from null) or a move. */
export interface OfferEventResponse {
  from: OfferStatus | null;
  to: OfferStatus;
  /** create, or the call that moved the offer (closeOthers: the customer chose another offer). */
  call: string;
  at: string;
  /** null when the user is gone. */
  actor: PersonResponse | null;
}

export interface PaymentResponse {
  code: string;
  amount: MoneyResponse;
  status: string;
  provider: string;
  reference: string | null;
  createdAt: string;
}

/** A payment on the payments screen: made by the caller (as customer) or received (as provider). */
export interface PartyPaymentResponse extends PaymentResponse {
  offerCode: string;
  jobCode: string;
  jobTitle: string;
  direction: 'made' | 'received';
  otherParty: PersonResponse | null;
}

export interface PartyPaymentPageResponse extends PageInfo {
  payments: PartyPaymentResponse[];
}
