import { ApiError } from '@/api/api-error';
import { type ChatMessage, chatApi } from '@/api/chat.api';
import { MESSAGE_TYPE } from '@/api/chat-types';
import { notify } from '@/components/notifications/notify';
import { t } from '@/i18n/i18n';
import { sessionStore } from '@/features/session/session.store';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { isRealtimeConnected, type ParleySocket } from '@/realtime/connection';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import type { ChatReplyPreview } from '@contracts/events';
import { failedCode, messageState, newClientKey } from './chat-logic';
import { applySyncedEdits, applySyncedTranslations, editCursorOf, startEditCursor, startTranslationCursor, translationCursorOf } from './message-edits';
import {
  addPending,
  applyUnread,
  chatStore,
  forgetGroup,
  highestSeq,
  lowestSeq,
  markDeleted,
  receiveMessage,
  receiveMessages,
  threadOf,
  upsertGroup,
  upsertGroups,
} from './chat.store';

const ACK_TIMEOUT_MS = 10_000;
const SYNC_ROUNDS = 20;

/** The live socket, or null while it is down (then REST and polling take over). */
function liveSocket(): ParleySocket | null {
  const socket = realtimeConnection().socket;
  return socket && isRealtimeConnected() ? socket : null;
}

export async function loadGroups(): Promise<void> {
  const page = await chatApi.groups(1, 50, preferencesStore.language);
  upsertGroups(page.groups);
  chatStore.listLoaded = true;
}

export async function ensureGroup(code: string): Promise<void> {
  if (!chatStore.groups[code]) upsertGroup(await chatApi.group(code, preferencesStore.language));
}

let unreadRequest: Promise<void> | null = null;
let unreadHeard = false;

/** The unread counts; callers at the same moment (app start, a chat being opened) share one request. */
export function loadUnread(): Promise<void> {
  unreadRequest ??= chatApi
    .unreadCount()
    .then((count) => {
      applyUnread(count, true);
      unreadHeard = true;
    })
    .finally(() => {
      unreadRequest = null;
    });
  return unreadRequest;
}

/** Whether an unread count arrived since the page loaded: a group missing from it has none unread. */
export const unreadKnown = (): boolean => unreadHeard;

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
  for (let round = 0; round < SYNC_ROUNDS; round++) {
    const page = await chatApi.messages(code, { afterSeq: highestSeq(chatStore.threads[code]) }, false);
    received += receiveMessages(page.messages);
    if (!page.mayLoadNewer || !page.messages.length) break;
  }
  return received;
}

/** The server's limits on one sync: at most this many groups per event (each at most once). */
export const SYNC_MAX_GROUPS = 100;
/** How long to wait before asking again when the server says sync came too fast (429). */
export const SYNC_RETRY_MS = 1000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * After a (re)connect: every message after the last seq held, for each loaded thread, until none is left.
 * Each answer is capped, so the groups it names in `more` are asked again, from the newest seq now held;
 * a 429 (sync is rate limited) waits a moment and asks again; at most SYNC_ROUNDS answers in all.
 */
export async function syncThreads(socket: ParleySocket): Promise<void> {
  let codes = Object.entries(chatStore.threads)
    .filter(([, t]) => t.loaded)
    .map(([code]) => code);
  for (let round = 0; round < SYNC_ROUNDS && codes.length; round++) {
    const batch = codes.slice(0, SYNC_MAX_GROUPS);
    const groups = batch.map((groupCode) => ({
      groupCode,
      afterSeq: highestSeq(chatStore.threads[groupCode]),
      afterEditSeq: editCursorOf(groupCode),
      afterTranslationSeq: translationCursorOf(groupCode),
    }));
    const res = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('sync', { groups });
    if (!res.ok) {
      if (res.error.code !== 429) return;
      await wait(SYNC_RETRY_MS);
      continue;
    }
    receiveMessages(res.messages);
    applySyncedEdits(res.edited ?? [], res.editSeqs ?? {});
    applySyncedTranslations(res.translated ?? [], res.translationSeqs ?? {});
    codes = [...new Set([...res.more, ...codes.slice(SYNC_MAX_GROUPS)])];
  }
}

/** Moves the read marker to the newest message held, when there is anything unread. */
export async function markRead(code: string): Promise<void> {
  const group = chatStore.groups[code];
  const seq = highestSeq(chatStore.threads[code]);
  if (!group || seq === 0 || (group.unread === 0 && group.readSeq >= seq)) return;
  group.readSeq = Math.max(group.readSeq, seq);
  const socket = liveSocket();
  if (socket) {
    const res = await socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('group:read', { groupCode: code, seq })
      .catch(() => null);
    if (res?.ok) return applyUnread(res.unread, true);
  }
  const res = await chatApi.read(code, seq).catch(() => null);
  if (res) applyUnread(res.unread, true);
}

/** The server answered no (a 4xx other than timeout or rate limit): sending the same again would fail again. */
class RejectedError extends Error {}

const isRejection = (status: number): boolean => status >= 400 && status < 500 && status !== 408 && status !== 429;

export const OVERLOADED_KEY = 'SHARED.ERROR.OVERLOADED';

/** The server refused it under load and stored nothing (503 SHARED.ERROR.OVERLOADED): send the same again after retryAfterMs. */
class OverloadedError extends Error {
  constructor(readonly retryAfterMs: number) {
    super(OVERLOADED_KEY);
  }
}

function overloadedRetryAfter(status: number, key: string | null | undefined, data: Record<string, unknown> | undefined): number | null {
  if (status !== 503 || key !== OVERLOADED_KEY) return null;
  const ms = Number(data?.retryAfterMs);
  return Number.isFinite(ms) && ms > 0 ? ms : 1000;
}

/** Refused under load: sent again this many times, each wait doubling up to the cap; then shown as failed (re-sent on reconnect). */
const OVERLOAD_ATTEMPTS = 8;
const OVERLOAD_RETRY_CAP_MS = 30_000;
const overloadRefusals = new Map<string, number>();

/** The server's delay doubled per refusal, with jitter (half to all of it), so refused senders don't all come back together. */
export const overloadRetryDelay = (retryAfterMs: number, refusals: number): number =>
  Math.min(OVERLOAD_RETRY_CAP_MS, retryAfterMs * 2 ** (refusals - 1)) * (0.5 + Math.random() / 2);

async function transmit(groupCode: string, pending: ChatMessage & { clientKey: string }): Promise<ChatMessage> {
  const body = {
    message: pending.message,
    lang: pending.language ?? undefined,
    files: pending.files,
    clientKey: pending.clientKey,
    replyToId: pending.replyTo?.code,
  };
  const socket = liveSocket();
  if (socket) {
    const res = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('message:send', { groupCode, ...body });
    if (!res.ok) {
      const retryAfterMs = overloadedRetryAfter(res.error.code, res.error.message, res.error.data);
      if (retryAfterMs !== null) throw new OverloadedError(retryAfterMs);
      throw isRejection(res.error.code) ? new RejectedError(res.error.message) : new Error(res.error.message);
    }
    return res.message;
  }
  try {
    return await chatApi.send(groupCode, body);
  } catch (err) {
    const retryAfterMs = err instanceof ApiError ? overloadedRetryAfter(err.status, err.key, err.body?.data) : null;
    if (retryAfterMs !== null) throw new OverloadedError(retryAfterMs);
    throw err instanceof ApiError && isRejection(err.status) ? new RejectedError(err.message) : err;
  }
}

/** Client keys of messages the server refused: shown as failed, never re-sent by themselves (the retry button still can). */
const rejected = new Set<string>();
export const wasRejected = (clientKey: string): boolean => rejected.has(clientKey);
export const markRejected = (clientKey: string): void => void rejected.add(clientKey);

/** Sends (again) the optimistic message with this clientKey: '-' while sending, '!' when it failed. */
export async function deliver(groupCode: string, clientKey: string): Promise<void> {
  const pending = chatStore.threads[groupCode]?.pending[clientKey];
  if (!pending) return;
  pending.code = clientKey;
  rejected.delete(clientKey);
  try {
    receiveMessage(await transmit(groupCode, { ...pending, clientKey }));
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
      if (err instanceof RejectedError) rejected.add(clientKey);
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
    .filter((m) => m.userCode === me && m.clientKey && messageState(m.code) === 'failed' && !rejected.has(m.clientKey))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  for (const m of failed) await deliver(m.groupCode, m.clientKey as string);
  return failed.length;
}

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

export function sendTyping(groupCode: string): void {
  liveSocket()?.emit('typing', { groupCode });
}

/** Asks first; on yes the server deletes it and the message becomes the deleted marker. Resolves whether it was deleted. */
export async function deleteMessage(groupCode: string, code: string): Promise<boolean> {
  if (!(await notify.confirm(t('CHAT.DELETE_CONFIRM')))) return false;
  await chatApi.deleteMessage(groupCode, code);
  markDeleted(groupCode, code);
  return true;
}

/** Starts the chat with these people (the server reuses one of exactly them) and sends the first message if given; returns its code. */
export async function startChat(userCodes: string[], text: string): Promise<string> {
  const message = text.trim();
  const res = await chatApi.start({ userList: userCodes, ...(message ? { message, lang: preferencesStore.language } : {}) });
  upsertGroup(res.group);
  if (res.message) receiveMessage(res.message);
  return res.group.code;
}

/** The group with all its participants, fresh from the server (lists carry at most 20 of them). */
export async function refreshGroup(code: string): Promise<void> {
  upsertGroup(await chatApi.group(code, preferencesStore.language));
}

export async function addParticipants(code: string, userCodes: string[]): Promise<void> {
  upsertGroup(await chatApi.addParticipants(code, userCodes));
}

/** Leaves the chat (the server refuses where both parties must stay); it is forgotten here at once. */
export async function leaveGroup(code: string): Promise<void> {
  await chatApi.leave(code);
  forgetGroup(code);
}

/** Empty texts clear the name or subtitle (sent as null). */
export async function saveGroupSettings(code: string, name: string, subtitle: string): Promise<void> {
  upsertGroup(await chatApi.rename(code, { name: name.trim() || null, subtitle: subtitle.trim() || null }));
}
