import { ChatGroupType, ChatMessageType } from '#shared/contracts/chat';

/** The text of a note the marketplace posts in an offer chat: a JOB_OFFER.* translation key. */
export const OFFER_NOTE_TEXT = /^JOB_OFFER\.[A-Z0-9_.]+$/;

/** What tells a system message apart; the recipients query applies the same test in SQL. */
export interface MessageKind {
  author_id: string | null;
  type: number;
  group_type: number;
  text: string;
}

/**
 * Offer chats carry notes about transitions (types 2 and 3, or text notes whose text is a JOB_OFFER.* translation
 * key, posted by the marketplace); messages without an author are system messages too. They are never pushed.
 */
export function isSystemMessage(m: MessageKind): boolean {
  if (m.author_id === null || m.type !== ChatMessageType.Text) return true;
  return m.group_type === ChatGroupType.JobOffer && OFFER_NOTE_TEXT.test(m.text);
}
