import type { JobOffer } from '@/api/offer.api';
import { waitsFor } from './offer-actions';

/** The offers list's order: those waiting for my move first, each part keeping the server's latest-change-first order. */
export function waitingFirst<T extends Pick<JobOffer, 'status' | 'providerCode' | 'customerCode'>>(offers: readonly T[], me: string | null): T[] {
  const mine = offers.filter((o) => waitsFor(o, me));
  return [...mine, ...offers.filter((o) => !waitsFor(o, me))];
}

/** 'all', 'waiting' (my move) or one status number as text. */
export type OfferFilter = 'all' | 'waiting' | `${number}`;

export function filterOffers<T extends Pick<JobOffer, 'status' | 'providerCode' | 'customerCode'>>(
  offers: readonly T[],
  filter: OfferFilter,
  me: string | null,
): T[] {
  if (filter === 'all') return [...offers];
  if (filter === 'waiting') return offers.filter((o) => waitsFor(o, me));
  return offers.filter((o) => String(o.status) === filter);
}
