import type { JobOffer } from '@/api/offer.api';
import { OfferStatus } from '@/features/offers/offer-status';
import { MODERATOR_ROLES, Role } from '@/features/session/roles';

export type OfferEntry = { kind: 'customer' } | { kind: 'loading' } | { kind: 'view-mine'; offerCode: string } | { kind: 'make' } | { kind: 'closed' };

/** Who sees all of a job's offers on its view: its customer and the moderators (as the server answers them). */
export const seesAllOffers = (isCustomer: boolean, role: number): boolean => isCustomer || MODERATOR_ROLES.includes(role as Role);

/**
 * What the job view offers the reader about offers: the customer manages them; anyone else views their open
 * offer, else makes one while the job takes offers (a closed offer frees the provider to offer again). The
 * offers are those the reader may see: a moderator sees everyone's, so only the reader's own count here.
 */
export function offerEntry(
  job: { acceptingOffers: boolean },
  isCustomer: boolean,
  offers: readonly Pick<JobOffer, 'code' | 'status' | 'providerCode'>[] | undefined,
  me: string | null,
): OfferEntry {
  if (isCustomer) return { kind: 'customer' };
  if (offers === undefined) return { kind: 'loading' };
  const open = offers.find((o) => o.providerCode === me && o.status !== OfferStatus.Closed);
  if (open) return { kind: 'view-mine', offerCode: open.code };
  return job.acceptingOffers ? { kind: 'make' } : { kind: 'closed' };
}
