import type { OfferStatusPayload } from '@contracts/socket-events';
import { proxy } from 'valtio';
import { ApiError } from '@/api/api-error';
import { type JobOffer, offerApi } from '@/api/offer.api';

export type OfferEntry = { state: 'loading' } | { state: 'loaded'; offer: JobOffer; statusAt?: string } | { state: 'missing' } | { state: 'failed' };

/** Offers the chat screens show, by code; `offer:status` pushes move their status on. */
export const offerStore = proxy<{ byCode: Record<string, OfferEntry> }>({ byCode: {} });

/** Loads an offer once (again with force); a 404 or 403 is 'missing', anything else 'failed'. */
export async function loadOffer(code: string, force = false): Promise<void> {
  const held = offerStore.byCode[code];
  if (held && !force && held.state !== 'failed') return;
  if (!held || held.state !== 'loaded') offerStore.byCode[code] = { state: 'loading' };
  try {
    offerStore.byCode[code] = { state: 'loaded', offer: await offerApi.byCode(code) };
  } catch (err) {
    const missing = err instanceof ApiError && (err.status === 404 || err.status === 403);
    offerStore.byCode[code] = { state: missing ? 'missing' : 'failed' };
  }
}

/** A pushed transition: the held offer takes the new status (an older push never undoes a newer one). */
export function applyOfferStatus(payload: OfferStatusPayload): void {
  const held = offerStore.byCode[payload.offerCode];
  if (held?.state !== 'loaded') {
    // Not shown yet, or shown as missing (created after it was asked for): fetched fresh when next needed.
    if (held) delete offerStore.byCode[payload.offerCode];
    return;
  }
  if (held.statusAt && held.statusAt > payload.at) return;
  held.offer.status = payload.status;
  held.statusAt = payload.at;
}

export function resetOffers(): void {
  offerStore.byCode = {};
}
