import type { ChatMessagePayload } from '@contracts/events';
import type { ChatGroupPageResponse, ChatGroupResponse, ChatParticipantResponse, ChatUserResponse, MessagePageResponse } from '@contracts/rest/chat';
import type { UnreadCountPayload } from '@contracts/socket-events';
import { http } from './http';

/** Shapes of shared/contracts/rest/chat.ts, which the chat's response DTOs implement. */
export type ChatUser = Omit<ChatUserResponse, 'avatar'> & { avatar: ChatUserResponse['avatar'] | null };

export type ChatParticipant = Omit<ChatParticipantResponse, 'user'> & { user: ChatUser };

export interface ChatMessage extends Omit<ChatMessagePayload, 'user'> {
  /** REST answers and socket pushes carry the author; a message drafted here may not yet (look it up among the participants). */
  user?: ChatUser | null;
}

/** A group as the client holds it: lastMessage and jobTitle may be missing from a push or a placeholder. */
export type ChatGroup = Omit<ChatGroupResponse, 'participants' | 'lastMessage' | 'jobTitle'> & {
  participants: ChatParticipant[];
  lastMessage?: ChatMessage | null;
  jobTitle?: string | null;
};

export type ChatGroupPage = Omit<ChatGroupPageResponse, 'groups'> & { groups: ChatGroup[] };

export type MessagePage = Omit<MessagePageResponse, 'messages'> & { messages: ChatMessage[] };

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
  /** One chat; `lang` is the reader's language for its words (an offer chat's job title). */
  group: (code: string, lang?: string) => http.get<ChatGroup>(`${group(code)}${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`, { cache: false }),
  messages: (code: string, query: { beforeSeq?: number; afterSeq?: number; time?: string } = {}, handleErrors = true) =>
    http.post<MessagePage>(`${group(code)}/messages`, query, { cache: false, handleErrors }),
  send: (code: string, body: SendMessageBody) => http.post<ChatMessage>(group(code), body, { handleErrors: false }),
  start: (body: { userList: string[]; message?: string; lang?: string; createNewGroup?: boolean }) =>
    http.put<{ group: ChatGroup; message: ChatMessage | null }>('/api/message/groups', body),
  rename: (code: string, body: { name?: string | null; subtitle?: string | null }) => http.patch<ChatGroup>(group(code), body),
  addParticipants: (code: string, participants: string[]) =>
    http.post<ChatGroup>(`/api/message/group/${encodeURIComponent(code)}/participants`, { participants }),
  leave: (code: string) => http.delete<void>(`/api/message/group/${encodeURIComponent(code)}/participants/me`),
  editMessage: (code: string, messageCode: string, message: string) =>
    http.patch<ChatMessage>(`${group(code)}/messages/${encodeURIComponent(messageCode)}`, { message }, { handleErrors: false }),
  deleteMessage: (code: string, messageCode: string) => http.delete<void>(`${group(code)}/messages/${encodeURIComponent(messageCode)}`),
  read: (code: string, seq: number) => http.post<{ readSeq: number; unread: UnreadCount }>(`${group(code)}/read`, { seq }, { handleErrors: false }),
  unreadCount: () => http.get<UnreadCount>('/api/message/UnreadCount', { cache: false, handleErrors: false }),
};
