import type { ChatGroupType } from '../chat';
import type { ChatMessagePayload } from '../events';
import type { UnreadCountPayload } from '../socket-events';
import type { UserAvatar } from './users';

/** REST answers of the chat (server/src/modules/chat); the response DTOs implement these. */

export interface ChatUserResponse {
  code: string;
  name: string;
  surname: string;
  avatar: UserAvatar;
}

export interface ChatParticipantResponse {
  userCode: string;
  user: ChatUserResponse;
  /** 0 member, 1 owner. */
  role: number;
  /** Seq of the newest message this participant has read. */
  readSeq: number;
}

/** A message as REST answers it: the same shape sockets carry. */
export type ChatMessageResponse = ChatMessagePayload;

export interface ChatGroupResponse {
  code: string;
  name: string | null;
  subtitle: string | null;
  type: ChatGroupType;
  targetId: string | null;
  /** In lists at most 20; see participantCount. */
  participants: ChatParticipantResponse[];
  participantCount: number;
  lastSeq: number;
  lastMessageAt: string | null;
  /** The caller's read marker; 0 for a moderator who is not a participant. */
  readSeq: number;
  unread: number;
  /** Muted now, for good or snoozed. */
  muted: boolean;
  /** The end of a snooze; null while not snoozed. */
  mutedUntil: string | null;
  /** A moderator is watching this chat live. */
  watched: boolean;
  lastMessage?: ChatMessageResponse | null;
  /** Job FAQ, job and job-offer chats: the job's title; null for other chats. */
  jobTitle: string | null;
}

export interface ChatGroupPageResponse {
  groups: ChatGroupResponse[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

export interface StartChatResponse {
  group: ChatGroupResponse;
  message: ChatMessageResponse | null;
}

export interface MessagePageResponse {
  /** Oldest first. */
  messages: ChatMessageResponse[];
  mayLoadOlder: boolean;
  /** Only for afterSeq pages: more messages follow. */
  mayLoadNewer: boolean;
  /** The group's newest edit seq when the page was read: `sync` asks for edits after it. */
  editSeq: number;
  /** The newest translation seq in the reader's language when the page was read: `sync` asks for translations after it. */
  translationSeq: number;
}

export interface ReadResultResponse {
  readSeq: number;
  unread: UnreadCountPayload;
}
