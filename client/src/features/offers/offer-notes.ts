import { OFFER_MESSAGES, OFFER_REVISED_MESSAGE, OFFER_TRANSITIONS, type OfferCall } from '@contracts/offers';
import type { OfferNoteData } from '@contracts/events';

/** The move each note text stands for (a revision is an update). */
const CALL_OF_NOTE = new Map<string, OfferCall>([
  ...Object.entries(OFFER_MESSAGES).map(([call, note]) => [note.text, call as OfferCall] as const),
  [OFFER_REVISED_MESSAGE.text, 'update'],
]);

/**
 * The status an offer note's move took the offer to: the one the server wrote with the note, else (a note
 * posted before notes carried it) the status its move always leads to in the transition table. Only for
 * messages the server marked as offer notes; null for any other.
 */
export function noteStatus(message: { message: string; offerNote?: true; offerNoteData?: OfferNoteData }): number | null {
  if (!message.offerNote) return null;
  if (message.offerNoteData) return message.offerNoteData.status;
  const call = CALL_OF_NOTE.get(message.message.trim());
  return OFFER_TRANSITIONS.find((t) => t.call === call)?.to ?? null;
}
