import { useSnapshot } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import { GROUP_TYPE } from '@/api/chat-types';
import { OfferStatus } from '@/features/offers/offer-status';
import { offerStore } from '@/features/offers/offer.store';

/**
 * Whether the composer warns before sending contact details or a request to pay outside Parley: in an offer's
 * chat until the offer is Agreed (the server marks such messages by the same rule). While the offer is still
 * loading it warns, since a warning too many costs a click and one too few may cost the deal.
 */
export function useOffPlatformGuard(group: Pick<ChatGroup, 'type' | 'targetId'>): boolean {
  const offers = useSnapshot(offerStore).byCode;
  if (group.type !== GROUP_TYPE.JobOffer || !group.targetId) return false;
  const entry = offers[group.targetId];
  if (!entry || entry.state === 'loading' || entry.state === 'failed') return true;
  return entry.state === 'loaded' && entry.offer.status < OfferStatus.Agreed;
}
