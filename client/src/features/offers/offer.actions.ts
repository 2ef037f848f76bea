import { proxy } from 'valtio';
import { ApiError } from '@/api/api-error';
import { type JobOffer, type OfferMoveCall, type OfferTermsInput, offerApi } from '@/api/offer.api';
import { translateMessage, translateRule } from '@/i18n/messages';
import { preferencesStore } from '@/features/preferences/preferences.store';
import type { OfferCall } from './offer-actions';
import { loadOffer, storeOffer } from './offer.store';

/** What a move answered: done, refused because the offer moved on (409, the view reloads), or failed otherwise. */
export type MoveOutcome = { ok: true } | { ok: false; conflict: boolean; messages: string[] };

/** The move under way per offer (buttons are disabled meanwhile) and the last 409 explanation per offer. */
export const offerUi = proxy<{ busy: Record<string, OfferCall | null>; conflict: Record<string, string | null> }>({ busy: {}, conflict: {} });

// One per tab: two tabs making the same move race (one gets 409); one tab repeating itself is answered the first result.
const TAB_ID = Math.random().toString(36).slice(2, 10).padEnd(8, '0');

/**
 * The Idempotency-Key of one intended move: the tab, the offer, the call and the version it was made from. A
 * double click (or a retry after a lost answer) sends the same key, so the server acts once.
 */
export const moveKey = (offer: Pick<JobOffer, 'code' | 'version'>, call: OfferCall): string => `${TAB_ID}:${offer.code}:${call}:v${offer.version}`;

/** The texts an API failure shows: the 422 rules one by one, else the server's key translated. */
export function explainFailure(err: unknown): string[] {
  if (!(err instanceof ApiError)) return [translateMessage(null)];
  if (err.status === 0) return [translateMessage('SHARED.ERROR.NETWORK')];
  const rules = err.body?.data?.brokenRules;
  if (err.status === 422 && Array.isArray(rules) && rules.length) return rules.map((r) => translateRule(r));
  return [translateMessage(err.key)];
}

const isConflict = (err: unknown) => err instanceof ApiError && err.status === 409;

async function run(offer: JobOffer, call: OfferCall, send: () => Promise<unknown>): Promise<MoveOutcome> {
  if (offerUi.busy[offer.code]) return { ok: false, conflict: false, messages: [] };
  offerUi.busy[offer.code] = call;
  offerUi.conflict[offer.code] = null;
  try {
    const answer = await send();
    const moved = (answer as { offer?: JobOffer }).offer ?? (answer as JobOffer);
    if (moved?.code) storeOffer(moved);
    return { ok: true };
  } catch (err) {
    const messages = explainFailure(err);
    if (isConflict(err)) {
      offerUi.conflict[offer.code] = messages[0];
      // What changed meanwhile is shown at once.
      await loadOffer(offer.code, true);
      return { ok: false, conflict: true, messages };
    }
    return { ok: false, conflict: false, messages };
  } finally {
    offerUi.busy[offer.code] = null;
  }
}

/** One move of the offer (not a revision), with its Idempotency-Key. */
export function moveOffer(offer: JobOffer, call: OfferMoveCall, body: object = {}): Promise<MoveOutcome> {
  return run(offer, call, () => offerApi.move(offer.jobCode, offer.code, call, body, moveKey(offer, call), preferencesStore.language));
}

/** The provider's revision of price and deadline while the offer is a Proposal. */
export function reviseOffer(offer: JobOffer, terms: OfferTermsInput): Promise<MoveOutcome> {
  return run(offer, 'update', () => offerApi.revise(offer.jobCode, offer.code, terms, moveKey(offer, 'update'), preferencesStore.language));
}

/** Makes an offer priced in one call; answers the stored offer, or the failure's texts (422 rules are shown by the one handler). */
export async function makeOffer(
  jobCode: string,
  input: OfferTermsInput & { message?: string },
): Promise<{ offer: JobOffer } | { messages: string[]; shown: boolean }> {
  try {
    // The first message is written in the interface language, as a chat message with the composer left as it starts.
    const body = input.message ? { ...input, lang: preferencesStore.language } : input;
    const offer = await offerApi.create(jobCode, body, preferencesStore.language);
    storeOffer(offer);
    return { offer };
  } catch (err) {
    return { messages: explainFailure(err), shown: err instanceof ApiError && err.status === 422 };
  }
}

export function clearConflict(offerCode: string): void {
  offerUi.conflict[offerCode] = null;
}
