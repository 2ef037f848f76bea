import type { JobOffer } from '@/api/offer.api';
import { OfferStatus } from '@/features/offers/offer-status';

export type OfferEntry =
  | { kind: 'customer' }
  | { kind: 'loading' }
  | { kind: 'view-mine'; offerCode: string }
  | { kind: 'make' }
  | { kind: 'closed' };

/**
 * What the job view offers the reader about offers: the customer manages them; anyone else views their open
 * offer, else makes one while the job takes offers (a closed offer frees the provider to offer again).
 */
export function offerEntry(job: { acceptingOffers: boolean }, isCustomer: boolean, myOffers: readonly Pick<JobOffer, 'code' | 'status'>[] | undefined): OfferEntry {
  if (isCustomer) return { kind: 'customer' };
  if (myOffers === undefined) return { kind: 'loading' };
  const open = myOffers.find((o) => o.status !== OfferStatus.Closed);
  if (open) return { kind: 'view-mine', offerCode: open.code };
  return job.acceptingOffers ? { kind: 'make' } : { kind: 'closed' };
}
