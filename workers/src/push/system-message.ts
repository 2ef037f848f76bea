import { ChatMessageType } from '#shared/contracts/chat';

/** What tells a system message apart; the recipients query applies the same test in SQL. */
export interface MessageKind {
  author_id: string | null;
  type: number;
  /** one of the marketplace's offer notes, as marked when it was posted (never told by its text) */
  offer_note: boolean;
}

/**
 * Offer chats carry notes about transitions (marked offer_note by the marketplace when it posts them); messages
 * without an author and non-text messages are system messages too. They are never pushed.
 */
export function isSystemMessage(m: MessageKind): boolean {
  return m.author_id === null || m.type !== ChatMessageType.Text || m.offer_note;
}
