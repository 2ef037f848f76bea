import type { ChatReplyPreview } from '@contracts/events';
import { proxy } from 'valtio';
import type { ChatMessage } from '@/api/chat.api';
import { MESSAGE_TYPE } from '@/api/chat-types';

/** Besides writing a new message, a group's composer can be answering one message or editing one of mine. */
export type ComposerMode = { kind: 'reply'; replyTo: ChatReplyPreview } | { kind: 'edit'; code: string; text: string };

export interface ReplyEditState {
  /** By group code. */
  modes: Record<string, ComposerMode>;
  /** The original a quote jumped to, highlighted for a moment; `id` tells one jump from the next. */
  highlighted: { groupCode: string; seq: number; id: number } | null;
}

export const replyEditStore = proxy<ReplyEditState>({ modes: {}, highlighted: null });

/** Characters of the quoted text a reply keeps (the server's REPLY_SNIPPET_LENGTH). */
export const REPLY_SNIPPET_LENGTH = 200;

export function resetReplyEdit(): void {
  replyEditStore.modes = {};
  replyEditStore.highlighted = null;
}

/** What a reply shows of the message it quotes, as the server will store it. */
export function replyPreviewOf(message: ChatMessage): ChatReplyPreview {
  return {
    code: message.code,
    seq: message.seq,
    type: message.type,
    userCode: message.userCode,
    message: message.deleted ? '' : Array.from(message.message).slice(0, REPLY_SNIPPET_LENGTH).join(''),
    files: message.deleted ? 0 : (message.files?.length ?? 0),
    deleted: message.deleted,
    ...(message.offerNote && !message.deleted ? { offerNote: true as const } : {}),
  };
}

/**
 * Any stored message that is not deleted can be answered. Stored means a seq: a stored code is base64url and
 * may start with '-', as the code of a message still sending does.
 */
export const canReplyTo = (message: Pick<ChatMessage, 'seq' | 'code' | 'deleted'>): boolean => message.seq > 0 && !message.deleted;

/** My own stored, live text messages (not the marketplace's offer notes, which record what happened). */
export function canEditMessage(message: Pick<ChatMessage, 'seq' | 'code' | 'deleted' | 'type' | 'userCode' | 'offerNote'>, meCode: string | null): boolean {
  return canReplyTo(message) && message.type === MESSAGE_TYPE.Text && meCode !== null && message.userCode === meCode && message.offerNote !== true;
}

export function startReply(message: ChatMessage): void {
  replyEditStore.modes[message.groupCode] = { kind: 'reply', replyTo: replyPreviewOf(message) };
}

export function startEdit(message: ChatMessage): void {
  replyEditStore.modes[message.groupCode] = { kind: 'edit', code: message.code, text: message.message };
}

export function cancelComposerMode(groupCode: string): void {
  delete replyEditStore.modes[groupCode];
}

/** The quoted message for the message being sent now, and the composer back to plain writing. */
export function takeReply(groupCode: string): ChatReplyPreview | null {
  const mode = replyEditStore.modes[groupCode];
  if (mode?.kind !== 'reply') return null;
  delete replyEditStore.modes[groupCode];
  return { ...mode.replyTo };
}

let jumps = 0;

export function highlightMessage(groupCode: string, seq: number): number {
  const id = ++jumps;
  replyEditStore.highlighted = { groupCode, seq, id };
  return id;
}

export function clearHighlight(id: number): void {
  if (replyEditStore.highlighted?.id === id) replyEditStore.highlighted = null;
}
