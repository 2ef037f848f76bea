import { chatApi } from '@/api/chat.api';
import { chatStore, highestSeq, lowestSeq, receiveMessages, threadOf } from './chat.store';
import { ensureGroup } from './chat-groups.actions';
import { startEditCursor, startTranslationCursor } from './message-edits';
import { markRead } from './unread.actions';

/** At most this many pages per poll. */
const POLL_ROUNDS = 20;

/** The newest page; the server marks the group read when it hands it out. */
async function loadNewestPage(code: string): Promise<void> {
  const page = await chatApi.messages(code);
  receiveMessages(page.messages);
  startEditCursor(code, page.editSeq);
  startTranslationCursor(code, page.translationSeq);
  const thread = threadOf(code);
  if (!thread.loaded) thread.mayLoadOlder = page.mayLoadOlder;
  thread.loaded = true;
}

export async function openThread(code: string): Promise<void> {
  await loadNewestPage(code);
  await markRead(code);
}

/**
 * Opens a chat: its group (unless held) and its newest page side by side, then the read marker. The page
 * waits for `before` (taking the read mark: the server marks the chat read as it hands the page out).
 */
export async function openConversation(code: string, before: Promise<unknown> = Promise.resolve()): Promise<void> {
  await Promise.all([ensureGroup(code), before.then(() => loadNewestPage(code))]);
  await markRead(code);
}

/** The page before the oldest message held. */
export async function loadOlder(code: string): Promise<void> {
  const before = lowestSeq(chatStore.threads[code]);
  if (before === null) return;
  const page = await chatApi.messages(code, { beforeSeq: before });
  receiveMessages(page.messages);
  threadOf(code).mayLoadOlder = page.mayLoadOlder;
}

/** The polling fallback: everything after the newest seq held, page by page. */
export async function pollNewer(code: string): Promise<number> {
  let received = 0;
  for (let round = 0; round < POLL_ROUNDS; round++) {
    const page = await chatApi.messages(code, { afterSeq: highestSeq(chatStore.threads[code]) }, false);
    received += receiveMessages(page.messages);
    if (!page.mayLoadNewer || !page.messages.length) break;
  }
  return received;
}
