import type { ChatMessage } from '@/api/chat.api';
import { type ListedMessage, messageState, sameAuthor } from './chat-logic';

/**
 * withGroupingFlags that hands back the SAME object for a message whose stored snapshot and flags did not
 * change, so memoised rows are not rendered again (and thousands of objects are not copied) when a page of
 * older messages or one new message arrives in a long thread.
 */
export function createListedCache(): (messages: readonly ChatMessage[]) => ListedMessage[] {
  let cache = new WeakMap<ChatMessage, ListedMessage>();
  return (messages) => {
    const next = new WeakMap<ChatMessage, ListedMessage>();
    const listed = messages.map((m, i) => {
      const hasPrevious = sameAuthor(messages[i - 1], m);
      const hasNext = sameAuthor(m, messages[i + 1]);
      // As withGroupingFlags: a stored message (seq > 0) is sent whatever its code looks like.
      const state = m.seq > 0 ? 'sent' : messageState(m.code);
      const held = cache.get(m);
      const result =
        held && held.hasPrevious === hasPrevious && held.hasNext === hasNext && held.state === state ? held : { ...m, hasPrevious, hasNext, state };
      next.set(m, result);
      return result;
    });
    cache = next;
    return listed;
  };
}
