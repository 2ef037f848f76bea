import type { ChatGroup, ChatMessage } from '@/api/chat.api';

/** The two people of the chat specs' conversations. */
export const ADA = { code: 'U_ada', name: 'Ada', surname: 'Lovelace', avatar: null };
export const BOB = { code: 'U_bob', name: 'Bob', surname: 'Builder', avatar: null };
export const CY = { code: 'U_cy', name: 'Cy', surname: 'Young', avatar: null };

type Person = typeof ADA;

/** A chat of these people (a direct one between Ada and Bob by default), nothing sent yet unless `extra` says so. */
export function chatGroup(code: string, extra: Partial<ChatGroup> = {}, people: Person[] = [ADA, BOB]): ChatGroup {
  return {
    code,
    name: null,
    subtitle: null,
    type: 1,
    targetId: null,
    participants: people.map((user) => ({ userCode: user.code, user, role: 0, readSeq: 0 })),
    participantCount: people.length,
    lastSeq: 0,
    lastMessageAt: null,
    readSeq: 0,
    unread: 0,
    muted: false,
    mutedUntil: null,
    watched: false,
    lastMessage: null,
    ...extra,
  };
}

/** Bob's message number `seq` in G_one as the server stores it, sent `seq` seconds after noon on 1 January 2026. */
export function storedMessage(seq: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    code: `M${seq}`,
    groupCode: 'G_one',
    seq,
    type: 1,
    message: `message ${seq}`,
    language: 'eng',
    translation: null,
    userCode: BOB.code,
    createdAt: new Date(Date.UTC(2026, 0, 1, 12, 0, seq)).toISOString(),
    files: [],
    clientKey: null,
    deleted: false,
    ...extra,
  };
}
