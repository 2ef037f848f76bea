import type { ChatMessage } from '@/api/chat.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { realtimeStore } from '@/realtime/connection';
import { ADA, BOB, chatGroup } from '../../../../jest/chat-fixtures';
import { collectOutbox, outboxKey, readOutbox, startOutbox, writeOutbox } from './outbox';
import { resendFailed, sendMessage } from './send-message';
import { chatStore, messagesOf, resetChat, upsertGroup } from '../chat.store';

const answer = (status: number, body: unknown) => ({
  status,
  ok: status < 400,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify(body),
});
const fetchMock = jest.fn();
/** The message bodies the client POSTed, in order. */
const sent = () =>
  fetchMock.mock.calls.map(([, init]) => JSON.parse((init as { body: string }).body) as { clientKey: string; message: string; files: string[]; lang: string });
const storedFor = (body: { clientKey: string; message: string; files: string[] }, seq: number): ChatMessage => ({
  code: `M${seq}`,
  groupCode: 'G_one',
  seq,
  type: 1,
  message: body.message,
  language: 'eng',
  translation: null,
  userCode: ADA.code,
  clientKey: body.clientKey,
  createdAt: new Date().toISOString(),
  files: body.files ?? [],
  deleted: false,
});
const offline = () => Promise.reject(new TypeError('Failed to fetch'));
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};
/** A reload: the store is empty again and the outbox starts from local storage. */
function reload(): () => void {
  resetChat();
  upsertGroup(chatGroup('G_one'));
  return startOutbox(ADA.code);
}

let stop: (() => void) | null = null;
beforeEach(() => {
  resetChat();
  upsertGroup(chatGroup('G_one'));
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  realtimeStore.status = 'disconnected';
  fetchMock.mockReset();
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});
afterEach(() => {
  stop?.();
  stop = null;
});

describe('the persisted outbox', () => {
  it('keeps an unsent message per user and sends it after a reload with its original client key, once', async () => {
    stop = startOutbox(ADA.code);
    fetchMock.mockImplementation(offline);
    await sendMessage('G_one', 'written offline', ['F_1'], 'pol');
    await flush();
    const [first] = sent();
    expect(first).toMatchObject({ message: 'written offline', files: ['F_1'], lang: 'pol' });
    const saved = readOutbox(ADA.code);
    expect(saved).toEqual([
      expect.objectContaining({ clientKey: first.clientKey, groupCode: 'G_one', message: 'written offline', language: 'pol', files: ['F_1'] }),
    ]);
    expect(readOutbox(BOB.code)).toEqual([]);
    stop();

    // Reload, still offline: it shows again (failed) and stays stored.
    stop = reload();
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.code)).toEqual([first.clientKey]);
    await flush();
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.code)).toEqual([`!${first.clientKey}`]);
    expect(sent().map((b) => b.clientKey)).toEqual([first.clientKey, first.clientKey]);
    stop();

    // Reload online: sent once more with the same key; stored; the outbox is empty.
    fetchMock.mockImplementation(async (_url: string, init: { body: string }) => answer(201, storedFor(JSON.parse(init.body), 1)));
    stop = reload();
    await flush();
    expect(sent().map((b) => b.clientKey)).toEqual([first.clientKey, first.clientKey, first.clientKey]);
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.code)).toEqual(['M1']);
    expect(window.localStorage.getItem(outboxKey(ADA.code))).toBeNull();
  });

  it('sends the failed messages again, oldest first, when the socket connects; not those the server refused', async () => {
    stop = startOutbox(ADA.code);
    fetchMock.mockImplementation(offline);
    await sendMessage('G_one', 'one');
    await sendMessage('G_one', 'two');
    fetchMock.mockImplementationOnce(async () => answer(422, { code: 422, message: 'VALIDATION.FILES.UNKNOWN_FILE' }));
    await sendMessage('G_one', 'refused', ['F_x']);
    await flush();
    expect(readOutbox(ADA.code).map((e) => [e.message, Boolean(e.rejected)])).toEqual([
      ['one', false],
      ['two', false],
      ['refused', true],
    ]);

    let seq = 0;
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (_url: string, init: { body: string }) => answer(201, storedFor(JSON.parse(init.body), ++seq)));
    // The socket is back (no live socket in jsdom, so the resend goes over REST).
    realtimeStore.status = 'connected';
    await flush();
    await flush();
    expect(sent().map((b) => b.message)).toEqual(['one', 'two']);
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.message)).toEqual(['one', 'two', 'refused']);
    expect(readOutbox(ADA.code).map((e) => e.message)).toEqual(['refused']);
    expect(await resendFailed()).toBe(0);

    // After a reload the refused one comes back failed and is not sent by itself.
    stop();
    fetchMock.mockClear();
    stop = reload();
    await flush();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(messagesOf(chatStore.threads.G_one).map((m) => m.code)).toEqual([expect.stringMatching(/^!-/)]);
  });

  it('drops unreadable storage and keeps only well-formed entries', () => {
    window.localStorage.setItem(outboxKey(ADA.code), '{not json');
    expect(readOutbox(ADA.code)).toEqual([]);
    window.localStorage.setItem(
      outboxKey(ADA.code),
      JSON.stringify([{ clientKey: '-k1', groupCode: 'G', message: 'x', language: null, files: [], createdAt: '2026-01-02' }, { clientKey: 5 }, null]),
    );
    expect(readOutbox(ADA.code).map((e) => e.clientKey)).toEqual(['-k1']);
    writeOutbox(ADA.code, []);
    expect(window.localStorage.getItem(outboxKey(ADA.code))).toBeNull();
  });

  it("collects only the user's own optimistic messages", () => {
    const base = {
      groupCode: 'G_one',
      seq: 0,
      type: 1,
      message: 'm',
      language: 'eng',
      translation: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      files: [],
      deleted: false,
    };
    const threads = {
      G_one: {
        bySeq: {},
        loaded: true,
        mayLoadOlder: false,
        pending: { '-a': { ...base, code: '-a', clientKey: '-a', userCode: ADA.code }, '-b': { ...base, code: '-b', clientKey: '-b', userCode: BOB.code } },
      },
    };
    expect(collectOutbox(threads, ADA.code).map((e) => e.clientKey)).toEqual(['-a']);
  });
});
