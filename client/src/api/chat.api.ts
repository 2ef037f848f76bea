import type { ChatMessagePayload } from '@contracts/events';
import type { UnreadCountPayload } from '@contracts/socket-events';
import { http } from './http';

/** Shapes of server/src/modules/chat/dto/chat-response.dto.ts. */
export interface ChatUser {
  code: string;
  name: string;
  surname: string;
  avatar: { code: string | null; url: string | null } | null;
}

export interface ChatParticipant {
  userCode: string;
  user: ChatUser;
  /** 0 member, 1 owner. */
  role: number;
  readSeq: number;
}

export interface ChatMessage extends ChatMessagePayload {
  /** REST answers carry the author; socket pushes don't (look it up among the participants). */
  user?: ChatUser | null;
}

export interface ChatGroup {
  code: string;
  name: string | null;
  subtitle: string | null;
  /** 0 Unknown, 1 user, 2 job faq, 3 Job, 4 JobOffer, 5 project item. */
  type: number;
  targetId: string | null;
  participants: ChatParticipant[];
  participantCount: number;
  lastSeq: number;
  lastMessageAt: string | null;
  readSeq: number;
  unread: number;
  muted: boolean;
  watched: boolean;
  lastMessage?: ChatMessage | null;
  /** Job FAQ, job and job-offer chats: the job's title (the chat is named after it). */
  jobTitle?: string | null;
}

export interface ChatGroupPage {
  groups: ChatGroup[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

export interface MessagePage {
  /** Oldest first. */
  messages: ChatMessage[];
  mayLoadOlder: boolean;
  mayLoadNewer: boolean;
  /** The group's newest edit seq when the page was read: `sync` asks for edits after it. */
  editSeq?: number;
}

export interface SendMessageBody {
  message: string;
  lang?: string;
  files?: string[];
  clientKey?: string;
  /** Code of the quoted message. */
  replyToId?: string;
}

export type UnreadCount = UnreadCountPayload;

const group = (code: string) => `/api/message/groups/${encodeURIComponent(code)}`;

// Chat data changes all the time: nothing here goes through the 10 s lookup cache.
export const chatApi = {
  groups: (page = 1, pageSize = 50, lang?: string) =>
    http.get<ChatGroupPage>(`/api/message/groups?page=${page}&pageSize=${pageSize}${lang ? `&lang=${encodeURIComponent(lang)}` : ''}`, { cache: false }),
  group: (code: string) => http.get<ChatGroup>(group(code), { cache: false }),
  messages: (code: string, query: { beforeSeq?: number; afterSeq?: number; time?: string } = {}, handleErrors = true) =>
    http.post<MessagePage>(`${group(code)}/messages`, query, { cache: false, handleErrors }),
  send: (code: string, body: SendMessageBody) => http.post<ChatMessage>(group(code), body, { handleErrors: false }),
  start: (body: { userList: string[]; message?: string; lang?: string; createNewGroup?: boolean }) =>
    http.put<{ group: ChatGroup; message: ChatMessage | null }>('/api/message/groups', body),
  rename: (code: string, body: { name?: string | null; subtitle?: string | null }) => http.patch<ChatGroup>(group(code), body),
  addParticipants: (code: string, participants: string[]) =>
    http.post<ChatGroup>(`/api/message/group/${encodeURIComponent(code)}/participants`, { participants }),
  editMessage: (code: string, messageCode: string, message: string) =>
    http.patch<ChatMessage>(`${group(code)}/messages/${encodeURIComponent(messageCode)}`, { message }, { handleErrors: false }),
  deleteMessage: (code: string, messageCode: string) => http.delete<void>(`${group(code)}/messages/${encodeURIComponent(messageCode)}`),
  read: (code: string, seq: number) => http.post<{ readSeq: number; unread: UnreadCount }>(`${group(code)}/read`, { seq }, { handleErrors: false }),
  unreadCount: () => http.get<UnreadCount>('/api/message/UnreadCount', { cache: false, handleErrors: false }),
};
