import { canLoadMessages } from '../chat-logic';
import { loadUnread, unreadKnown } from '../unread.actions';
import { openConversation } from '../message-pages.actions';
import { subscribe } from 'valtio';
import { sessionStore } from '@/features/session/session.store';
import { chatStore } from '../chat.store';
import type { ReadMark } from '../reading/reading-position';

export interface Opening {
  /** What was read before the chat opened (the 'new messages' divider goes after it). */
  mark: Promise<ReadMark>;
  /** The group and the newest page are in the store and the chat is marked read. */
  done: Promise<void>;
  startedAt: number;
  settled: boolean;
}

/** An opening started this recently (by the route, as navigation began) is taken over by the screen. */
const FRESH_MS = 10_000;
const openings = new Map<string, Opening>();

function knownMark(code: string): ReadMark | null {
  const group = chatStore.groups[code];
  if (group) return { readSeq: group.readSeq, unread: null };
  if (unreadKnown()) return { readSeq: null, unread: chatStore.unread.groups[code] ?? 0 };
  return null;
}

/**
 * Starts loading a chat, or joins the load already under way: the route starts it as navigation begins,
 * while the screen's code is still downloading, and the screen takes it over. The newest page waits only
 * when nothing tells what was read (a chat opened by its address before the unread count came).
 */
export function startOpening(code: string): Opening {
  const held = openings.get(code);
  // A store emptied since (logout) has nothing left of what a settled opening loaded.
  if (held && Date.now() - held.startedAt < FRESH_MS && (!held.settled || chatStore.threads[code]?.loaded)) return held;
  const known = knownMark(code);
  const mark = known
    ? Promise.resolve(known)
    : loadUnread()
        .catch(() => undefined)
        .then(() => knownMark(code) ?? { readSeq: null, unread: null });
  const done = canLoadMessages(code) ? openConversation(code, mark) : Promise.reject(new Error('group id too short'));
  const opening: Opening = { mark, done, startedAt: Date.now(), settled: false };
  done.then(
    () => {
      opening.settled = true;
    },
    () => {
      if (openings.get(code) === opening) openings.delete(code);
    },
  );
  openings.set(code, opening);
  return opening;
}

/**
 * For the route: a logged-in user's chat starts loading as navigation begins, never holding it up. The
 * router is made (and its first loaders run) while the session is still being checked: wait for that.
 */
export function prefetchConversation(code: string | undefined): null {
  if (!code || !canLoadMessages(code)) return null;
  const start = () => {
    if (sessionStore.user) startOpening(code);
  };
  if (sessionStore.status !== 'unchecked') start();
  else {
    const stop = subscribe(sessionStore, () => {
      if (sessionStore.status === 'unchecked') return;
      stop();
      start();
    });
  }
  return null;
}
