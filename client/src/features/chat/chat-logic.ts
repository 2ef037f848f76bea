import type { ChatGroup, ChatMessage, ChatUser } from '@/api/chat.api';
import { GROUP_TYPE, PARTICIPANT_ROLE } from '@/api/chat-types';

/** Spec section 9: the group name shows 2 names; section 4: a group id needs at least 5 characters. */
export const GROUP_NAME_SHOWS = 2;
export const GROUP_ID_MIN_LENGTH = 5;
export const MESSAGE_POLL_MS = 5_000;
export const UNREAD_POLL_MS = 10_000;
export const CHAT_SIDEBAR_WIDTH = 325;

export const fullName = (user: Pick<ChatUser, 'name' | 'surname'>): string => `${user.name} ${user.surname}`.trim();

export interface GroupTitle {
  /** The name, or up to 2 other participants' names. */
  title: string;
  /** Participants beyond the ones named; the '+N' tag. */
  more: number;
  /** Everyone the '+N' tag's tooltip lists. */
  everyone: string[];
  /** No other users: show 'No users'. */
  empty: boolean;
  /** Chats about a job are named after it; the other people are then the subtitle. */
  subtitle?: string;
}

/** Spec section 2: the name if set; else the other participants' names (at most 2) and '+N'; 'No users' when none. */
export function groupTitle(group: Pick<ChatGroup, 'name' | 'participants' | 'participantCount' | 'jobTitle'>, meCode: string | null): GroupTitle {
  const others = group.participants.filter((p) => p.userCode !== meCode);
  const everyone = others.map((p) => fullName(p.user));
  if (group.name?.trim()) return { title: group.name.trim(), more: 0, everyone, empty: false };
  // Job FAQ, job and offer chats: two offers with the same provider would otherwise share that provider's name.
  if (group.jobTitle?.trim()) {
    const hidden = Math.max(0, group.participantCount - (group.participants.some((p) => p.userCode === meCode) ? 1 : 0) - GROUP_NAME_SHOWS);
    const people = everyone.slice(0, GROUP_NAME_SHOWS).join(', ') + (hidden > 0 ? ` +${hidden}` : '');
    return { title: group.jobTitle.trim(), more: 0, everyone, empty: false, subtitle: people };
  }
  const iAmIn = group.participants.some((p) => p.userCode === meCode);
  // Lists hold at most 20 participants; participantCount has them all.
  const otherCount = Math.max(others.length, group.participantCount - (iAmIn ? 1 : 0));
  if (otherCount === 0) return { title: '', more: 0, everyone: [], empty: true };
  const named = everyone.slice(0, GROUP_NAME_SHOWS);
  return { title: named.join(', '), more: Math.max(0, otherCount - named.length), everyone, empty: false };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** yyyy.MM.dd HH:mm:ss in local time (spec section 9). */
export function formatMessageTime(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A temporary code starting with '-' (spec section 4), also sent as the clientKey so a retry is not stored twice. */
export function newClientKey(random: () => number = Math.random): string {
  const part = () =>
    Math.floor(random() * 36 ** 8)
      .toString(36)
      .padStart(8, '0');
  return `-${Date.now().toString(36)}${part()}${part()}`;
}

export type MessageState = 'sent' | 'sending' | 'failed';

/** Of a message without a seq: '-…' is sending, '!…' failed. A stored code is base64url and may start with '-' too: check the seq first. */
export function messageState(code: string): MessageState {
  if (code.startsWith('!')) return 'failed';
  if (code.startsWith('-')) return 'sending';
  return 'sent';
}

export const failedCode = (clientKey: string): string => `!${clientKey}`;

export interface ListedMessage extends ChatMessage {
  hasPrevious: boolean;
  hasNext: boolean;
  state: MessageState;
}

export const sameAuthor = (a: ChatMessage | undefined, b: ChatMessage | undefined): boolean =>
  Boolean(a && b && a.userCode && a.userCode === b.userCode && a.type === b.type && !a.deleted && !b.deleted);

/** Consecutive messages by the same author are grouped: hasPrevious / hasNext link them. */
export function withGroupingFlags(messages: readonly ChatMessage[]): ListedMessage[] {
  return messages.map((m, i) => ({
    ...m,
    hasPrevious: sameAuthor(messages[i - 1], m),
    hasNext: sameAuthor(m, messages[i + 1]),
    // A stored message (seq > 0) is sent, whatever its code looks like: server codes may start with '-' too.
    state: m.seq > 0 ? 'sent' : messageState(m.code),
  }));
}

/** The field is enabled for a group id of 5+ characters or more than one participant (spec section 4). */
export const canWrite = (groupCode: string | null | undefined, participantCount: number): boolean =>
  (groupCode?.length ?? 0) >= GROUP_ID_MIN_LENGTH || participantCount > 1;

/** Messages load only for a group id of 5+ characters (spec section 4). */
export const canLoadMessages = (groupCode: string): boolean => groupCode.length >= GROUP_ID_MIN_LENGTH;

/** Sending needs text or a file (spec section 5). */
export const canSend = (text: string, fileCount: number): boolean => text.trim().length > 0 || fileCount > 0;

/**
 * Whether the user may leave the chat, as the server decides: not an offer's chat nor a chat of two (both parties
 * stay), nor a job's chats for the job's customer (their owner); and only a chat they are in.
 */
export function canLeave(group: Pick<ChatGroup, 'type' | 'participants' | 'participantCount'>, meCode: string | null): boolean {
  const me = group.participants.find((p) => p.userCode === meCode);
  if (!me || group.type === GROUP_TYPE.JobOffer) return false;
  if (group.type === GROUP_TYPE.User) return group.participantCount > 2;
  return !((group.type === GROUP_TYPE.Job || group.type === GROUP_TYPE.JobFaq) && me.role === PARTICIPANT_ROLE.Owner);
}

/** Spec section 3: instance admins (50) and global admins (100) moderate chats. */
export const MODERATOR_ROLES: readonly number[] = [50, 100];

/** A stored, not yet deleted message may be deleted by its author and by moderators. */
export function canDeleteMessage(message: Pick<ChatMessage, 'code' | 'userCode' | 'deleted'> & { seq?: number }, meCode: string | null, role: number): boolean {
  if (message.deleted || ((message.seq ?? 0) <= 0 && messageState(message.code) !== 'sent')) return false;
  return MODERATOR_ROLES.includes(role) || (meCode !== null && message.userCode === meCode);
}

/** The translation is shown when there is one, unless the reader asked for the original. */
export function shownText(message: Pick<ChatMessage, 'message' | 'translation'>, showOriginal: boolean): string {
  return message.translation && !showOriginal ? message.translation : message.message;
}

/** Newest activity first; groups without messages last. */
export function byActivity(a: Pick<ChatGroup, 'lastMessageAt' | 'code'>, b: Pick<ChatGroup, 'lastMessageAt' | 'code'>): number {
  const at = (g: Pick<ChatGroup, 'lastMessageAt'>) => (g.lastMessageAt ? Date.parse(g.lastMessageAt) : 0);
  return at(b) - at(a) || a.code.localeCompare(b.code);
}
