import type { ChatGroup, ChatMessage } from '@/api/chat.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { notify } from '@/components/notifications/notify';
import { deleteMessage, deliver, sendMessage } from './chat.actions';
import { applyTranslation, applyUnread, chatStore, markDeleted, messagesOf, receiveMessage, resetChat, sortedGroups, toggleOriginal, upsertGroup } from './chat.store';

const ADA = { code: 'U_ada', name: 'Ada', surname: 'Lovelace', avatar: null };
const BOB = { code: 'U_bob', name: 'Bob', surname: 'Builder', avatar: null };

function group(code: string, extra: Partial<ChatGroup> = {}): ChatGroup {
  return {
    code,
    name: null,
    subtitle: null,
    type: 1,
    targetId: null,
    participants: [ADA, BOB].map((user) => ({ userCode: user.code, user, role: 0, readSeq: 0 })),
    participantCount: 2,
    lastSeq: 0,
    lastMessageAt: null,
    readSeq: 0,
    unread: 0,
    muted: false,
    watched: false,
    lastMessage: null,
    ...extra,
  };
}

function stored(seq: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return {
    code: `M${seq}`,
    groupCode: 'G_one',
    seq,
    type: 1,
    message: `message ${seq}`,
    language: 'eng',
    translation: null,
    userCode: BOB.code,
    createdAt: new Date(2026, 0, 1, 12, 0, seq).toISOString(),
    files: [],
    clientKey: null,
    deleted: false,
    ...extra,
  };
}

const codes = () => messagesOf(chatStore.threads.G_one).map((m) => m.code);
const fetchMock = jest.fn();
const answer = (status: number, body: unknown) => ({
  status,
  ok: status < 400,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify(body),
});

beforeEach(() => {
  resetChat();
  upsertGroup(group('G_one'));
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  fetchMock.mockReset();
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('chat store', () => {
  it('orders messages by seq whatever order they arrive in, and keeps each once', () => {
    expect(receiveMessage(stored(3))).toBe(true);
    receiveMessage(stored(1));
    receiveMessage(stored(2));
    expect(receiveMessage(stored(2))).toBe(false);
    expect(codes()).toEqual(['M1', 'M2', 'M3']);
  });

  it('looks the author of a pushed message up among the participants', () => {
    receiveMessage(stored(1));
    expect(chatStore.threads.G_one.bySeq[1].user).toEqual(BOB);
  });

  it('moves the group to the top of the list as a message arrives', () => {
    upsertGroup(group('G_two', { lastMessageAt: new Date(2026, 0, 1, 13).toISOString() }));
    expect(sortedGroups(chatStore.groups).map((g) => g.code)).toEqual(['G_two', 'G_one']);
    receiveMessage(stored(1, { createdAt: new Date(2026, 0, 1, 14).toISOString() }));
    expect(sortedGroups(chatStore.groups).map((g) => g.code)).toEqual(['G_one', 'G_two']);
    expect(chatStore.groups.G_one.lastMessage?.code).toBe('M1');
  });

  it('turns a deleted message into a marker', () => {
    receiveMessage(stored(1));
    markDeleted('G_one', 'M1');
    expect(chatStore.threads.G_one.bySeq[1]).toMatchObject({ deleted: true, message: '' });
    expect(chatStore.groups.G_one.lastMessage?.deleted).toBe(true);
  });

  it('takes a translation that arrives later (message:updated) into the message and the list line', () => {
    receiveMessage(stored(1, { message: 'Cześć', language: 'pol' }));
    applyTranslation({ groupCode: 'G_one', code: 'M1', translation: 'Hello' });
    expect(chatStore.threads.G_one.bySeq[1].translation).toBe('Hello');
    expect(chatStore.groups.G_one.lastMessage?.translation).toBe('Hello');
    // Unknown messages and groups are ignored; a deleted message gets no translation back.
    applyTranslation({ groupCode: 'G_none', code: 'M1', translation: 'x' });
    markDeleted('G_one', 'M1');
    applyTranslation({ groupCode: 'G_one', code: 'M1', translation: 'Hello again' });
    expect(chatStore.threads.G_one.bySeq[1].translation).toBeNull();
  });

  it("ends the author's 'is typing' once their message arrives, not someone else's", () => {
    chatStore.typing.G_one = { userCode: BOB.code, until: Date.now() + 3_000 };
    receiveMessage(stored(1, { userCode: ADA.code }));
    expect(chatStore.typing.G_one?.userCode).toBe(BOB.code);
    receiveMessage(stored(2, { userCode: BOB.code }));
    expect(chatStore.typing.G_one).toBeUndefined();
  });

  it('applies full unread counts to every group and pushed ones only to the groups they name', () => {
    upsertGroup(group('G_two'));
    applyUnread({ total: 5, groups: { G_one: 2, G_two: 3 } }, true);
    applyUnread({ total: 3, groups: { G_one: 0 } }, false);
    expect([chatStore.unread.total, chatStore.groups.G_one.unread, chatStore.groups.G_two.unread]).toEqual([3, 0, 3]);
    applyUnread({ total: 0, groups: {} }, true);
    expect(chatStore.groups.G_two.unread).toBe(0);
  });
});

describe('optimistic sending (REST while the socket is down)', () => {
  it("shows the message at once with a '-' code, then replaces it in place with the stored one; a push of it adds nothing", async () => {
    let clientKey = '';
    fetchMock.mockImplementation(async (_url: string, init: { body: string }) => {
      clientKey = JSON.parse(init.body).clientKey;
      expect(codes()).toEqual(['M1', clientKey]);
      expect(clientKey.startsWith('-')).toBe(true);
      return answer(201, stored(2, { userCode: ADA.code, clientKey, message: 'hello' }));
    });
    receiveMessage(stored(1));
    await sendMessage('G_one', 'hello');
    expect(codes()).toEqual(['M1', 'M2']);
    expect(receiveMessage(stored(2, { userCode: ADA.code, clientKey, message: 'hello' }))).toBe(false);
    expect(codes()).toEqual(['M1', 'M2']);
  });

  it('drops the optimistic copy when the push overtakes the answer', async () => {
    fetchMock.mockImplementation(async (_url: string, init: { body: string }) => {
      const { clientKey } = JSON.parse(init.body);
      receiveMessage(stored(1, { userCode: ADA.code, clientKey }));
      return answer(201, stored(1, { userCode: ADA.code, clientKey }));
    });
    await sendMessage('G_one', 'hello');
    expect(codes()).toEqual(['M1']);
  });

  it("marks a failed send with '!' and retries with the same client key", async () => {
    fetchMock.mockResolvedValueOnce(answer(500, { code: 500, message: 'SHARED.ERROR.INTERNAL' }));
    await sendMessage('G_one', 'hello');
    const [failed] = messagesOf(chatStore.threads.G_one);
    const clientKey = failed.clientKey as string;
    expect(failed.code).toBe(`!${clientKey}`);

    fetchMock.mockImplementationOnce(async (_url: string, init: { body: string }) => {
      expect(JSON.parse(init.body).clientKey).toBe(clientKey);
      return answer(201, stored(1, { userCode: ADA.code, clientKey }));
    });
    await deliver('G_one', clientKey);
    expect(codes()).toEqual(['M1']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('deleting a message', () => {
  afterEach(() => jest.restoreAllMocks());

  it('asks first, then DELETEs it and shows the deleted marker', async () => {
    const confirm = jest.spyOn(notify, 'confirm').mockResolvedValue(true);
    fetchMock.mockResolvedValueOnce({ ...answer(204, null), text: async () => '' });
    receiveMessage(stored(1, { translation: 'translated' }));
    await expect(deleteMessage('G_one', 'M1')).resolves.toBe(true);
    expect(confirm).toHaveBeenCalledWith('Delete this message? Everyone will see it as deleted.');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toMatch(/\/api\/message\/groups\/G_one\/messages\/M1$/);
    expect(init.method).toBe('DELETE');
    expect(chatStore.threads.G_one.bySeq[1]).toMatchObject({ deleted: true, message: '', translation: null });
  });

  it('changes nothing when the confirm is declined', async () => {
    jest.spyOn(notify, 'confirm').mockResolvedValue(false);
    receiveMessage(stored(1));
    await expect(deleteMessage('G_one', 'M1')).resolves.toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(chatStore.threads.G_one.bySeq[1].deleted).toBe(false);
  });

  it('keeps the message when the server refuses', async () => {
    jest.spyOn(notify, 'confirm').mockResolvedValue(true);
    fetchMock.mockResolvedValueOnce(answer(403, { code: 403, message: 'SHARED.ERROR.FORBIDDEN' }));
    receiveMessage(stored(1));
    await expect(deleteMessage('G_one', 'M1')).rejects.toBeTruthy();
    expect(chatStore.threads.G_one.bySeq[1].deleted).toBe(false);
  });

  it('toggles the show-original flag per message', () => {
    toggleOriginal('M1');
    expect(chatStore.original).toEqual({ M1: true });
    toggleOriginal('M1');
    expect(chatStore.original).toEqual({});
  });
});
