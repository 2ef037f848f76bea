import { useEffect, useState } from 'react';
import { canLoadMessages } from '../chat-logic';
import { openChat } from '../open-chat';
import type { ReadMark } from '../reading/reading-position';
import { startOpening } from './opening';

/**
 * Loads a chat (its group and newest page at once, or takes over the load the route started) and marks it
 * as the open one. Answers whether it cannot be shown, and the read mark from before it was opened (for
 * the 'new messages' divider; null until known).
 */
export function useOpenConversation(code: string): { failed: boolean; mark: ReadMark | null } {
  // Spec section 4: messages load only for a group id of 5+ characters.
  const [failed, setFailed] = useState(() => !canLoadMessages(code));
  const [mark, setMark] = useState<ReadMark | null>(null);

  useEffect(() => {
    openChat.code = code;
    let live = true;
    if (canLoadMessages(code)) {
      const opening = startOpening(code);
      void opening.mark.then((m) => live && setMark(m));
      opening.done.catch(() => live && setFailed(true));
    }
    return () => {
      live = false;
      if (openChat.code === code) openChat.code = null;
    };
  }, [code]);

  return { failed, mark };
}
