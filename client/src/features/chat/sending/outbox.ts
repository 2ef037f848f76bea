import { subscribe } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { sessionStore } from '@/features/session/session.store';
import { realtimeStore } from '@/realtime/connection';
import { failedCode, messageState } from '../chat-logic';
import { type OutgoingMessage, deliver, pendingMessage, resendFailed } from './send-message';
import { markRejected, wasRejected } from './send-refusals';
import { type Thread, addPending, chatStore } from '../chat.store';

/**
 * Unsent messages survive a reload: every optimistic message of the signed-in user is kept in local
 * storage (per user) until the stored one arrives, and sent again with its ORIGINAL client key after a
 * reload and whenever the socket (re)connects. The server stores a client key once, so a message whose
 * first attempt did arrive is not stored twice.
 */
export const OUTBOX_PREFIX = 'chat.outbox.';
export const outboxKey = (userCode: string): string => `${OUTBOX_PREFIX}${userCode}`;

export interface OutboxEntry extends OutgoingMessage {
  /** The server refused it: restored as failed, not re-sent by itself. */
  rejected?: boolean;
}

const isText = (v: unknown): v is string => typeof v === 'string';

function isEntry(v: unknown): v is OutboxEntry {
  const e = v as Partial<OutboxEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    isText(e.clientKey) &&
    e.clientKey.length > 1 &&
    isText(e.groupCode) &&
    isText(e.message) &&
    (e.language === null || isText(e.language)) &&
    Array.isArray(e.files) &&
    e.files.every(isText) &&
    isText(e.createdAt) &&
    (e.replyTo == null || (typeof e.replyTo === 'object' && isText(e.replyTo.code)))
  );
}

/** The user's unsent messages, oldest first; anything unreadable is dropped. */
export function readOutbox(userCode: string, storage: Storage = window.localStorage): OutboxEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(storage.getItem(outboxKey(userCode)) ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(isEntry).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Writes the list (the key goes away when it is empty); returns the text written, '' for none. */
export function writeOutbox(userCode: string, entries: readonly OutboxEntry[], storage: Storage = window.localStorage): string {
  try {
    if (!entries.length) {
      storage.removeItem(outboxKey(userCode));
      return '';
    }
    const text = JSON.stringify(entries);
    storage.setItem(outboxKey(userCode), text);
    return text;
  } catch {
    // Storage full or disabled: the messages are still in memory and still being sent.
    return '';
  }
}

/** The user's optimistic messages across the threads, oldest first. */
export function collectOutbox(threads: Readonly<Record<string, Thread>>, userCode: string, isRejected: (key: string) => boolean = () => false): OutboxEntry[] {
  return Object.values(threads)
    .flatMap((t) => Object.values(t.pending))
    .filter((m) => m.userCode === userCode && m.clientKey)
    .map((m) => {
      const entry: OutboxEntry = {
        clientKey: m.clientKey as string,
        groupCode: m.groupCode,
        message: m.message,
        language: m.language,
        files: [...(m.files ?? [])],
        createdAt: m.createdAt,
      };
      if (m.replyTo) entry.replyTo = m.replyTo;
      if (messageState(m.code) === 'failed' && isRejected(entry.clientKey)) entry.rejected = true;
      return entry;
    })
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/**
 * Puts the stored messages back as optimistic ones (unless already held) and returns the keys to send
 * again: all but the ones the server refused, which come back as failed.
 */
export function restoreOutbox(entries: readonly OutboxEntry[]): OutboxEntry[] {
  const toSend: OutboxEntry[] = [];
  for (const entry of entries) {
    const thread = chatStore.threads[entry.groupCode];
    if (
      thread?.pending[entry.clientKey] ||
      (thread && Object.values(thread.bySeq).some((m) => m.clientKey === entry.clientKey && m.userCode === sessionStore.user?.code))
    )
      continue;
    addPending(pendingMessage(entry, entry.rejected ? failedCode(entry.clientKey) : entry.clientKey));
    if (entry.rejected) markRejected(entry.clientKey);
    else toSend.push(entry);
  }
  return toSend;
}

/**
 * For the signed-in user: restores and re-sends the stored outbox, keeps it in step with the store, and
 * re-sends failed messages whenever the socket connects. Returns the stop function.
 */
export function startOutbox(userCode: string): () => void {
  const toSend = restoreOutbox(readOutbox(userCode));
  let written = '';
  const persist = () => {
    if (sessionStore.user?.code !== userCode) return;
    const text = JSON.stringify(collectOutbox(chatStore.threads, userCode, wasRejected));
    if (text === written) return;
    written = text;
    writeOutbox(userCode, JSON.parse(text) as OutboxEntry[]);
  };
  persist();
  // The whole store: its threads object is replaced as a whole on reset.
  const stopStore = subscribe(chatStore, persist);
  const stopSocket = subscribeKey(realtimeStore, 'status', (status) => {
    if (status === 'connected') void resendFailed();
  });
  void (async () => {
    for (const entry of toSend) await deliver(entry.groupCode, entry.clientKey);
  })();
  return () => {
    stopStore();
    stopSocket();
  };
}
