import type { ChatMessage } from '@/api/chat.api';

/** What was known to be read when the chat opened: the read marker, else the unread count. */
export interface ReadMark {
  readSeq: number | null;
  unread: number | null;
}

type Row = Pick<ChatMessage, 'seq' | 'userCode'>;

const fromOthers = (m: Row, me: string | null) => m.seq > 0 && m.userCode !== me;

/**
 * Where the 'new messages' divider goes: the first message by someone else after the read marker. Without
 * a marker, the unread count is counted back from the newest message. -1 when nothing was unread.
 */
export function firstUnreadIndex(messages: readonly Row[], mark: ReadMark, me: string | null): number {
  if (mark.readSeq !== null) return messages.findIndex((m) => fromOthers(m, me) && m.seq > mark.readSeq!);
  if (!mark.unread) return -1;
  let left = mark.unread;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (fromOthers(messages[i], me) && --left === 0) return i;
  }
  // More unread than loaded: the divider sits on the oldest loaded message by someone else.
  return messages.findIndex((m) => fromOthers(m, me));
}

/** The messages below the last one the reader saw at the bottom: what the 'N new messages' button counts. */
export function newBelow(keys: readonly string[], lastSeenKey: string | null): number {
  if (lastSeenKey === null) return 0;
  const at = keys.lastIndexOf(lastSeenKey);
  return at < 0 ? 0 : keys.length - 1 - at;
}

/** The browser tab's title: the unread total in brackets before the name, when there is any. */
export function titleWithUnread(name: string, unread: number): string {
  return unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${name}` : name;
}
