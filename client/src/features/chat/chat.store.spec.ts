import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { notify } from '@/components/notifications/notify';
import { ADA, BOB, chatGroup, CY, storedMessage } from '../../../jest/chat-fixtures';
import { deleteMessage } from './message-changes.actions';
import { deliver, sendMessage } from './sending/send-message';
import {
  applyGroupUpdate,
  applyTranslation,
  applyUnread,
  chatStore,
  markDeleted,
  messagesOf,
  receiveMessage,
  resetChat,
  sortedGroups,
  toggleOriginal,
  upsertGroup,
} from './chat.store';

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
  upsertGroup(chatGroup('G_one'));
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  fetchMock.mockReset();
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('chat store', () => {
  it('orders messages by seq whatever order they arrive in, and keeps each once', () => {
    expect(receiveMessage(storedMessage(3))).toBe(true);
    receiveMessage(storedMessage(1));
    receiveMessage(storedMessage(2));
    expect(receiveMessage(storedMessage(2))).toBe(false);
    expect(codes()).toEqual(['M1', 'M2', 'M3']);
  });

  it('looks the author of a pushed message up among the participants', () => {
    receiveMessage(storedMessage(1));
    expect(chatStore.threads.G_one.bySeq[1].user).toEqual(BOB);
  });

  it('moves the group to the top of the list as a message arrives', () => {
    upsertGroup(chatGroup('G_two', { lastMessageAt: new Date(2026, 0, 1, 13).toISOString() }));
    expect(sortedGroups(chatStore.groups).map((g) => g.code)).toEqual(['G_two', 'G_one']);
    receiveMessage(storedMessage(1, { createdAt: new Date(2026, 0, 1, 14).toISOString() }));
    expect(sortedGroups(chatStore.groups).map((g) => g.code)).toEqual(['G_one', 'G_two']);
    expect(chatStore.groups.G_one.lastMessage?.code).toBe('M1');
  });

  it('turns a deleted message into a marker', () => {
    receiveMessage(storedMessage(1));
    markDeleted('G_one', 'M1');
    expect(chatStore.threads.G_one.bySeq[1]).toMatchObject({ deleted: true, message: '' });
    expect(chatStore.groups.G_one.lastMessage?.deleted).toBe(true);
  });

  it('takes a translation that arrives later (message:updated) into the message and the list line', () => {
    receiveMessage(storedMessage(1, { message: 'Cześć', language: 'pol' }));
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
    receiveMessage(storedMessage(1, { userCode: ADA.code }));
    expect(chatStore.typing.G_one?.userCode).toBe(BOB.code);
    receiveMessage(storedMessage(2, { userCode: BOB.code }));
    expect(chatStore.typing.G_one).toBeUndefined();
  });

  it('forgets a chat whose update no longer has the user in it (left from another tab), with its unread count', () => {
    upsertGroup(chatGroup('G_one', {}, [ADA, BOB, CY]));
    receiveMessage(storedMessage(1));
    applyUnread({ total: 3, groups: { G_one: 1, G_two: 2 } }, true);
    applyGroupUpdate(chatGroup('G_one', {}, [BOB, CY]), ADA.code);
    expect(chatStore.groups.G_one).toBeUndefined();
    expect(chatStore.threads.G_one).toBeUndefined();
    expect(chatStore.unread).toEqual({ total: 2, groups: { G_two: 2 } });
    // A moderator's watched chat never had them in it: it is kept up to date.
    upsertGroup(chatGroup('G_watched', {}, [BOB, CY]));
    applyGroupUpdate(chatGroup('G_watched', { name: 'Renamed' }, [BOB, CY]), ADA.code);
    expect(chatStore.groups.G_watched.name).toBe('Renamed');
  });

  it('takes a coalesced push as it is: the total it says and every group it names, whatever came before', () => {
    upsertGroup(chatGroup('G_two'));
    applyUnread({ total: 1, groups: { G_one: 1 } }, true);
    // One push for a window in which both groups changed several times: only the counts at its end matter.
    applyUnread({ total: 7, groups: { G_one: 3, G_two: 4 } }, false);
    expect([chatStore.unread.total, chatStore.groups.G_one.unread, chatStore.groups.G_two.unread]).toEqual([7, 3, 4]);
    applyUnread({ total: 4, groups: { G_one: 0 } }, false);
    expect([chatStore.unread.total, chatStore.groups.G_one.unread, chatStore.groups.G_two.unread]).toEqual([4, 0, 4]);
  });

  it('does not take a left chat off a total that a push already counted without it', () => {
    upsertGroup(chatGroup('G_one', {}, [ADA, BOB, CY]));
    upsertGroup(chatGroup('G_two'));
    applyUnread({ total: 3, groups: { G_one: 1, G_two: 2 } }, true);
    // Left from another tab: the server's push (coalesced, naming only the group that changed last) says 3 for
    // G_two's new message without G_one's 1, before the group update that tells this tab it left.
    applyUnread({ total: 3, groups: { G_two: 3 } }, false);
    applyGroupUpdate(chatGroup('G_one', {}, [BOB, CY]), ADA.code);
    expect(chatStore.unread).toEqual({ total: 3, groups: { G_two: 3 } });
  });

  it('applies full unread counts to every group and pushed ones only to the groups they name', () => {
    upsertGroup(chatGroup('G_two'));
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
      return answer(201, storedMessage(2, { userCode: ADA.code, clientKey, message: 'hello' }));
    });
    receiveMessage(storedMessage(1));
    await sendMessage('G_one', 'hello');
    expect(codes()).toEqual(['M1', 'M2']);
    expect(receiveMessage(storedMessage(2, { userCode: ADA.code, clientKey, message: 'hello' }))).toBe(false);
    expect(codes()).toEqual(['M1', 'M2']);
  });

  it('drops the optimistic copy when the push overtakes the answer', async () => {
    fetchMock.mockImplementation(async (_url: string, init: { body: string }) => {
      const { clientKey } = JSON.parse(init.body);
      receiveMessage(storedMessage(1, { userCode: ADA.code, clientKey }));
      return answer(201, storedMessage(1, { userCode: ADA.code, clientKey }));
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
      return answer(201, storedMessage(1, { userCode: ADA.code, clientKey }));
    });
    await deliver('G_one', clientKey);
    expect(codes()).toEqual(['M1']);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('a send refused under load (503 SHARED.ERROR.OVERLOADED)', () => {
  afterEach(() => jest.useRealTimers());

  it('stays pending, not failed, and goes again with the same client key after the delay the server asked for', async () => {
    jest.useFakeTimers();
    const overloaded = answer(503, { code: 503, message: 'SHARED.ERROR.OVERLOADED', data: { retryAfterMs: 1000 } });
    const keys: string[] = [];
    fetchMock
      .mockImplementationOnce(async (_url: string, init: { body: string }) => {
        keys.push(JSON.parse(init.body).clientKey);
        return overloaded;
      })
      .mockImplementationOnce(async (_url: string, init: { body: string }) => {
        keys.push(JSON.parse(init.body).clientKey);
        return overloaded;
      })
      .mockImplementationOnce(async (_url: string, init: { body: string }) => {
        const { clientKey } = JSON.parse(init.body);
        keys.push(clientKey);
        return answer(201, storedMessage(1, { userCode: ADA.code, clientKey }));
      });
    await sendMessage('G_one', 'hello');
    const [pending] = messagesOf(chatStore.threads.G_one);
    expect(pending.code).toBe(pending.clientKey);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    // Not before half the delay asked for (the jitter's floor), then once; the second wait doubles.
    await jest.advanceTimersByTimeAsync(499);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(501);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(codes()).toEqual([pending.clientKey]);
    await jest.advanceTimersByTimeAsync(2000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(codes()).toEqual(['M1']);
    expect(new Set(keys)).toEqual(new Set([pending.clientKey]));
  });
});

describe('deleting a message', () => {
  afterEach(() => jest.restoreAllMocks());

  it('asks first, then DELETEs it and shows the deleted marker', async () => {
    const confirm = jest.spyOn(notify, 'confirm').mockResolvedValue(true);
    fetchMock.mockResolvedValueOnce({ ...answer(204, null), text: async () => '' });
    receiveMessage(storedMessage(1, { translation: 'translated' }));
    await expect(deleteMessage('G_one', 'M1')).resolves.toBe(true);
    expect(confirm).toHaveBeenCalledWith('Delete this message? Everyone will see it as deleted.');
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toMatch(/\/api\/message\/groups\/G_one\/messages\/M1$/);
    expect(init.method).toBe('DELETE');
    expect(chatStore.threads.G_one.bySeq[1]).toMatchObject({ deleted: true, message: '', translation: null });
  });

  it('changes nothing when the confirm is declined', async () => {
    jest.spyOn(notify, 'confirm').mockResolvedValue(false);
    receiveMessage(storedMessage(1));
    await expect(deleteMessage('G_one', 'M1')).resolves.toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(chatStore.threads.G_one.bySeq[1].deleted).toBe(false);
  });

  it('keeps the message when the server refuses', async () => {
    jest.spyOn(notify, 'confirm').mockResolvedValue(true);
    fetchMock.mockResolvedValueOnce(answer(403, { code: 403, message: 'SHARED.ERROR.FORBIDDEN' }));
    receiveMessage(storedMessage(1));
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
