import { ChatGroupType, ChatMessageType } from '#shared/contracts/chat';
import { isOfferNote, OFFER_NOTE_TEXTS } from '#shared/contracts/offers';

/** The texts of the notes the marketplace posts in an offer chat (the contract's one list); the recipients query uses it too. */
export const OFFER_NOTE_TEXT_LIST: readonly string[] = OFFER_NOTE_TEXTS;

/** What tells a system message apart; the recipients query applies the same test in SQL. */
export interface MessageKind {
  author_id: string | null;
  type: number;
  group_type: number;
  text: string;
}

/**
 * Offer chats carry notes about transitions (the contract's offer notes, posted by the marketplace); messages
 * without an author and non-text messages are system messages too. They are never pushed.
 */
export function isSystemMessage(m: MessageKind): boolean {
  if (m.author_id === null || m.type !== ChatMessageType.Text) return true;
  return m.group_type === ChatGroupType.JobOffer && isOfferNote({ type: m.type, text: m.text });
}
