import { useEffect, useState } from 'react';
import { canLoadMessages } from '../chat-logic';
import { openConversation } from '../chat.actions';
import { chatStore } from '../chat.store';
import { openChat } from '../open-chat';
import type { ReadMark } from '../reading/reading-position';

/** What the client knew was read before opening: the server marks the chat read as it hands out the page. */
function readMarkNow(code: string): ReadMark {
  const group = chatStore.groups[code];
  return { readSeq: group ? group.readSeq : null, unread: chatStore.unread.groups[code] ?? group?.unread ?? null };
}

/**
 * Loads a chat (its group and newest page at once) and marks it as the open one. Answers whether it cannot
 * be shown, and the read mark taken before it was opened (for the 'new messages' divider).
 */
export function useOpenConversation(code: string): { failed: boolean; mark: ReadMark } {
  const [mark] = useState(() => readMarkNow(code));
  // Spec section 4: messages load only for a group id of 5+ characters.
  const [failed, setFailed] = useState(() => !canLoadMessages(code));

  useEffect(() => {
    openChat.code = code;
    if (canLoadMessages(code)) openConversation(code).catch(() => setFailed(true));
    return () => {
      if (openChat.code === code) openChat.code = null;
    };
  }, [code]);

  return { failed, mark };
}
