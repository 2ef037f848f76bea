import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { listedGroups } from './components/ChatSidebar';
import { groupTitle } from './chat-logic';
import { announcementText } from './live-announcements';

/** Longer texts are cut in the toast; the chat has them whole. */
export const TOAST_TEXT_MAX = 140;

export interface ToastContext {
  me: string | null;
  /** the chat on screen, whose messages are read there */
  openCode: string | null;
  /** the message's group, once known */
  group: ChatGroup | undefined;
}

/**
 * Whether a pushed message is worth a toast: someone else's live message in a chat the reader is in, not the
 * chat on screen, not a muted one, and not a room a moderator only watches.
 */
export function shouldToast(message: Pick<ChatMessage, 'userCode' | 'groupCode' | 'deleted'>, { me, openCode, group }: ToastContext): boolean {
  if (!message.userCode || message.userCode === me || message.deleted) return false;
  if (message.groupCode === openCode || !group || group.muted) return false;
  return listedGroups([group], me).length === 1;
}

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The toast's title (the chat's name, else the author's) and text ("Ada Lovelace: hello", cut); where the chat
 * is named after the author (a direct chat), the text leaves the name out.
 */
export function toastContent(message: ChatMessage, group: ChatGroup, me: string | null, t: (key: string, options?: Record<string, unknown>) => string) {
  const announced = announcementText(message, t);
  const author = announced.slice(0, Math.max(0, announced.indexOf(': ')));
  const title = groupTitle(group, me).title || author;
  const text = author && title === author ? announced.slice(author.length + 2) : announced;
  return { title, text: cut(text, TOAST_TEXT_MAX) };
}
