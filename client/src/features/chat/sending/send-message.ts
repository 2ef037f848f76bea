import type { ChatMessage } from '@/api/chat.api';
import { MESSAGE_TYPE } from '@/api/chat-types';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import type { ChatReplyPreview } from '@contracts/events';
import { failedCode, messageState, newClientKey } from '../chat-logic';
import { addPending, chatStore, receiveMessage } from '../chat.store';
import { forgetRejection, markRejected, OverloadedError, overloadRetryDelay, RejectedError, wasRejected } from './send-refusals';
import { transmitMessage } from './transmit-message';

export interface OutgoingMessage {
  clientKey: string;
  groupCode: string;
  message: string;
  language: string | null;
  files: string[];
  createdAt: string;
  /** The quoted message of a reply. */
  replyTo?: ChatReplyPreview | null;
}

/** The optimistic message as shown until the stored one replaces it. */
export function pendingMessage(out: OutgoingMessage, code: string = out.clientKey): ChatMessage & { clientKey: string } {
  const me = sessionStore.user;
  return {
    code,
    clientKey: out.clientKey,
    groupCode: out.groupCode,
    seq: 0,
    type: MESSAGE_TYPE.Text,
    message: out.message,
    language: out.language,
    translation: null,
    userCode: me?.code ?? null,
    user: me ? { code: me.code, name: me.name, surname: me.surname, avatar: me.avatar } : null,
    createdAt: out.createdAt,
    files: [...out.files],
    deleted: false,
    replyTo: out.replyTo ?? null,
    editedAt: null,
  };
}

/** Shows the message at once with a temporary '-' code, then sends it with that code as its clientKey. */
export function sendMessage(
  groupCode: string,
  text: string,
  files: string[] = [],
  language: string = preferencesStore.language,
  replyTo: ChatReplyPreview | null = null,
): Promise<void> {
  const clientKey = newClientKey();
  addPending(pendingMessage({ clientKey, groupCode, message: text, language, files, createdAt: new Date().toISOString(), replyTo }));
  return deliver(groupCode, clientKey);
}

/** Refused under load: sent again this many times, each wait doubling up to the cap; then shown as failed (re-sent on reconnect). */
const OVERLOAD_ATTEMPTS = 8;
const overloadRefusals = new Map<string, number>();

/** Sends (again) the optimistic message with this clientKey: '-' while sending, '!' when it failed. */
export async function deliver(groupCode: string, clientKey: string): Promise<void> {
  const pending = chatStore.threads[groupCode]?.pending[clientKey];
  if (!pending) return;
  pending.code = clientKey;
  forgetRejection(clientKey);
  try {
    // An acknowledgement too late for the wait still brings the stored message: it replaces the failed one.
    receiveMessage(await transmitMessage(groupCode, { ...pending, clientKey }, receiveMessage));
    overloadRefusals.delete(clientKey);
  } catch (err) {
    // The stored message may still have arrived by push; only a message still pending is marked failed.
    const still = chatStore.threads[groupCode]?.pending[clientKey];
    if (still && err instanceof OverloadedError) {
      const refusals = (overloadRefusals.get(clientKey) ?? 0) + 1;
      if (refusals < OVERLOAD_ATTEMPTS) {
        // Nothing was stored: it stays pending ('-') and goes again with the same key, not shown as failed.
        overloadRefusals.set(clientKey, refusals);
        setTimeout(() => void deliver(groupCode, clientKey), overloadRetryDelay(err.retryAfterMs, refusals));
        return;
      }
      overloadRefusals.delete(clientKey);
    }
    if (still) {
      still.code = failedCode(clientKey);
      if (err instanceof RejectedError) markRejected(clientKey);
    }
  }
}

/**
 * Sends again, oldest first, every message of mine that failed for want of a connection (not those the
 * server refused). Each keeps its clientKey, so one that did reach the server is not stored twice.
 */
export async function resendFailed(): Promise<number> {
  const me = sessionStore.user?.code;
  if (!me) return 0;
  const failed = Object.values(chatStore.threads)
    .flatMap((thread) => Object.values(thread.pending))
    .filter((m) => m.userCode === me && m.clientKey && messageState(m.code) === 'failed' && !wasRejected(m.clientKey))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const m of failed) await deliver(m.groupCode, m.clientKey as string);
  return failed.length;
}
