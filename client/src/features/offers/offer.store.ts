import type { OfferStatusPayload } from '@contracts/socket-events';
import { proxy } from 'valtio';
import { ApiError } from '@/api/api-error';
import { type JobOffer, offerApi } from '@/api/offer.api';
import { preferencesStore } from '@/features/preferences/preferences.store';

export type OfferEntry = { state: 'loading' } | { state: 'loaded'; offer: JobOffer; statusAt?: string } | { state: 'missing' } | { state: 'failed' };

/**
 * Offers the screens show, by code; `offer:status` pushes move their status and terms on. `pushes` counts the
 * pushes heard, so lists and the dashboard know when to look again.
 */
export const offerStore = proxy<{ byCode: Record<string, OfferEntry>; pushes: number; lastPush: OfferStatusPayload | null }>({
  byCode: {},
  pushes: 0,
  lastPush: null,
});

/** Loads an offer once (again with force); a 404 or 403 is 'missing', anything else 'failed'. */
export async function loadOffer(code: string, force = false): Promise<void> {
  const held = offerStore.byCode[code];
  if (held && !force && held.state !== 'failed') return;
  if (!held || held.state !== 'loaded') offerStore.byCode[code] = { state: 'loading' };
  try {
    storeOffer(await offerApi.byCode(code, preferencesStore.language));
  } catch (err) {
    const missing = err instanceof ApiError && (err.status === 404 || err.status === 403);
    // A reload that fails keeps what is shown; only a first load shows the failure.
    if (offerStore.byCode[code]?.state !== 'loaded' || missing) offerStore.byCode[code] = { state: missing ? 'missing' : 'failed' };
  }
}

/** An offer the server just answered with (a move's result, a list row): kept unless the store holds a newer version. */
export function storeOffer(offer: JobOffer): void {
  const held = offerStore.byCode[offer.code];
  if (held?.state === 'loaded' && held.offer.version > offer.version) return;
  offerStore.byCode[offer.code] = { state: 'loaded', offer: { ...offer, job: offer.job ?? (held?.state === 'loaded' ? held.offer.job : undefined) } };
}

/** A pushed transition: the held offer takes the new status and terms (an older push never undoes a newer one). */
export function applyOfferStatus(payload: OfferStatusPayload): void {
  offerStore.pushes += 1;
  offerStore.lastPush = payload;
  const held = offerStore.byCode[payload.offerCode];
  if (held?.state !== 'loaded') {
    // Not shown yet, or shown as missing (created after it was asked for): fetched fresh when next needed.
    if (held) delete offerStore.byCode[payload.offerCode];
    return;
  }
  if (payload.version !== undefined ? held.offer.version >= payload.version : held.statusAt && held.statusAt > payload.at) return;
  held.offer.status = payload.status;
  held.statusAt = payload.at;
  if (payload.version !== undefined) held.offer.version = payload.version;
  if (payload.price !== undefined) held.offer.price = payload.price;
  if (payload.localPrice !== undefined) held.offer.localPrice = payload.localPrice;
  if (payload.deadline !== undefined) held.offer.deadline = payload.deadline;
  if (payload.lapsesAt !== undefined) held.offer.lapsesAt = payload.lapsesAt;
}

export function resetOffers(): void {
  offerStore.byCode = {};
  offerStore.pushes = 0;
  offerStore.lastPush = null;
}
