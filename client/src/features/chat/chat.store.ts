import { proxy } from 'valtio';
import type { ChatGroup, ChatMessage, ChatUser, UnreadCount } from '@/api/chat.api';
import { byActivity } from './chat-logic';

export interface Thread {
  /** Stored messages by seq: a push, an ack, a page and a sync all land on the same key, so nothing shows twice. */
  bySeq: Record<number, ChatMessage>;
  /** Optimistic messages by clientKey until the stored one arrives. */
  pending: Record<string, ChatMessage>;
  /** The newest page was loaded: the thread is complete from its oldest loaded seq up. */
  loaded: boolean;
  mayLoadOlder: boolean;
}

export interface ChatState {
  groups: Record<string, ChatGroup>;
  listLoaded: boolean;
  threads: Record<string, Thread>;
  unread: UnreadCount;
  /** Who is typing where, until when (epoch ms). */
  typing: Record<string, { userCode: string; until: number }>;
  /** Codes of translated messages the reader switched back to their original text. */
  original: Record<string, true>;
}

export const chatStore = proxy<ChatState>({ groups: {}, listLoaded: false, threads: {}, unread: { total: 0, groups: {} }, typing: {}, original: {} });

export function resetChat(): void {
  chatStore.groups = {};
  chatStore.listLoaded = false;
  chatStore.threads = {};
  chatStore.unread = { total: 0, groups: {} };
  chatStore.typing = {};
  chatStore.original = {};
}

export function toggleOriginal(code: string): void {
  if (chatStore.original[code]) delete chatStore.original[code];
  else chatStore.original[code] = true;
}

export function threadOf(groupCode: string): Thread {
  chatStore.threads[groupCode] ??= { bySeq: {}, pending: {}, loaded: false, mayLoadOlder: false };
  return chatStore.threads[groupCode];
}

/** A group snapshot from REST or group:updated; the unread count the client holds wins over an older snapshot's. */
export function upsertGroup(group: ChatGroup): void {
  const known = chatStore.groups[group.code];
  const unread = chatStore.unread.groups[group.code];
  chatStore.groups[group.code] = {
    ...group,
    lastMessage: group.lastMessage ?? known?.lastMessage ?? null,
    unread: unread ?? group.unread,
  };
}

export function upsertGroups(groups: readonly ChatGroup[]): void {
  groups.forEach(upsertGroup);
}

/** A chat the user is no longer in (they left it): out of the list, its thread and its unread count. */
export function forgetGroup(code: string): void {
  delete chatStore.groups[code];
  delete chatStore.threads[code];
  delete chatStore.typing[code];
  const unread = chatStore.unread.groups[code];
  if (unread === undefined) return;
  // The chat's count comes off the total only while the counts held add up: a push may already have sent a
  // total without it (coalesced pushes name only some groups), and the server's next push sets it anyway.
  if (unread && sumOf(chatStore.unread.groups) === chatStore.unread.total) chatStore.unread.total -= unread;
  delete chatStore.unread.groups[code];
}

const sumOf = (counts: Record<string, number>): number => Object.values(counts).reduce((sum, n) => sum + n, 0);

/**
 * group:updated: a chat the user was in whose people no longer include them was left (from another tab or
 * device) and is forgotten; anything else is upserted. A moderator's watched chat never had them in it.
 */
export function applyGroupUpdate(group: ChatGroup, me: string | null): void {
  const wasIn = chatStore.groups[group.code]?.participants.some((p) => p.userCode === me);
  if (me && wasIn && !group.participants.some((p) => p.userCode === me)) forgetGroup(group.code);
  else upsertGroup(group);
}

/** The author of a message: its own user, else the group's participant with that code. */
export function authorOf(message: Pick<ChatMessage, 'userCode' | 'user' | 'groupCode'>): ChatUser | null {
  if (message.user) return message.user;
  return chatStore.groups[message.groupCode]?.participants.find((p) => p.userCode === message.userCode)?.user ?? null;
}

/**
 * A stored message from any source (ack, push, page, sync, poll). Returns false for one already held.
 * It replaces the optimistic message with the same clientKey of the same author.
 */
export function receiveMessage(message: ChatMessage): boolean {
  const thread = threadOf(message.groupCode);
  const held = thread.bySeq[message.seq];
  if (message.clientKey && thread.pending[message.clientKey]?.userCode === message.userCode) delete thread.pending[message.clientKey];
  if (held && held.code === message.code) {
    if (message.deleted && !held.deleted) Object.assign(held, { deleted: true, message: '', translation: null });
    return false;
  }
  thread.bySeq[message.seq] = { ...message, user: message.user ?? held?.user ?? authorOf(message) };
  // The author has stopped typing: their message is here.
  if (message.userCode && chatStore.typing[message.groupCode]?.userCode === message.userCode) delete chatStore.typing[message.groupCode];
  const group = chatStore.groups[message.groupCode];
  if (group && message.seq >= group.lastSeq) {
    group.lastSeq = message.seq;
    group.lastMessageAt = message.createdAt;
    group.lastMessage = thread.bySeq[message.seq];
  }
  return true;
}

export function receiveMessages(messages: readonly ChatMessage[]): number {
  return messages.filter(receiveMessage).length;
}

export function markDeleted(groupCode: string, code: string): void {
  const thread = chatStore.threads[groupCode];
  const message = thread && Object.values(thread.bySeq).find((m) => m.code === code);
  if (message) Object.assign(message, { deleted: true, message: '', translation: null });
  const last = chatStore.groups[groupCode]?.lastMessage;
  if (last?.code === code) Object.assign(last, { deleted: true, message: '', translation: null });
}

/** A translation that arrived after the message (message:updated); a deleted message stays without one. */
export function applyTranslation({ groupCode, code, translation }: { groupCode: string; code: string; translation: string | null }): void {
  const thread = chatStore.threads[groupCode];
  const message = thread && Object.values(thread.bySeq).find((m) => m.code === code);
  if (message && !message.deleted) message.translation = translation;
  const last = chatStore.groups[groupCode]?.lastMessage;
  if (last?.code === code && !last.deleted) last.translation = translation;
}

export function addPending(message: ChatMessage & { clientKey: string }): void {
  threadOf(message.groupCode).pending[message.clientKey] = message;
}

/** Stored messages by seq, then the optimistic ones in the order they were written. */
export function messagesOf(thread: Thread | undefined): ChatMessage[] {
  if (!thread) return [];
  const stored = Object.values(thread.bySeq).sort((a, b) => a.seq - b.seq);
  const pending = Object.values(thread.pending).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return [...stored, ...pending];
}

export const lowestSeq = (thread: Thread | undefined): number | null => {
  const seqs = thread ? Object.keys(thread.bySeq).map(Number) : [];
  return seqs.length ? Math.min(...seqs) : null;
};

export const highestSeq = (thread: Thread | undefined): number => {
  const seqs = thread ? Object.keys(thread.bySeq).map(Number) : [];
  return seqs.length ? Math.max(...seqs) : 0;
};

/**
 * Unread counts: a full count (REST, read acks) sets every group; a push names only the groups that
 * changed (unread:count), and the others keep theirs. Every number is the server's count, never a change
 * to one, so the latest push wins however many the server coalesced into it.
 */
export function applyUnread(count: UnreadCount, full: boolean): void {
  chatStore.unread.total = count.total;
  if (full) {
    chatStore.unread.groups = { ...count.groups };
    for (const group of Object.values(chatStore.groups)) group.unread = count.groups[group.code] ?? 0;
    return;
  }
  for (const [code, n] of Object.entries(count.groups)) {
    chatStore.unread.groups[code] = n;
    const group = chatStore.groups[code];
    if (group) group.unread = n;
  }
}

export const sortedGroups = (groups: Record<string, ChatGroup>): ChatGroup[] => Object.values(groups).sort(byActivity);
