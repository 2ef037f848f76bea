import { AuthUser } from '#shared/contracts/auth';
import { OfferActor } from '#shared/contracts/offers';
import { isGlobalRole } from '#shared/contracts/roles';
import { moderatesInstance } from '../../common/moderator-scope';

/** Jobs are seen by every user of their instance, and by global roles everywhere. */
export function seesJob(user: AuthUser, job: { instance_id: string }): boolean {
  return job.instance_id === user.instanceId || isGlobalRole(user.role);
}

/** The caller's side of an offer, or null for a moderator who only watches. */
export function partyOf(user: AuthUser, offer: { provider_id: string; customer_id: string }): Exclude<OfferActor, 'system'> | null {
  if (user.id === offer.provider_id) return 'provider';
  if (user.id === offer.customer_id) return 'customer';
  return null;
}

/** An offer is seen by its provider, the job's customer and moderators in scope; others get 404. */
export function seesOffer(user: AuthUser, offer: { provider_id: string; customer_id: string; instance_id: string }): boolean {
  return partyOf(user, offer) !== null || moderatesInstance(user, offer.instance_id);
}
