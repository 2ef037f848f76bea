import { act, screen } from '@testing-library/react';
import type { ChatMessage } from '@/api/chat.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { realtimeStore } from '@/realtime/connection';
import { ADA, BOB, chatGroup, storedMessage } from '../../../jest/chat-fixtures';
import { renderRoutes } from '../../../jest/render';
import { MESSAGE_POLL_MS, UNREAD_POLL_MS } from './chat-logic';
import { chatStore, resetChat, threadOf, upsertGroup } from './chat.store';
import { ChatRealtime } from './ChatRealtime';
import { Conversation } from './components/Conversation';

/** The tab's socket, driven by the test: handlers by event, acknowledgements from `withAck`. */
type Handler = (payload: unknown) => void;
const mockSocket = {
  handlers: new Map<string, Set<Handler>>(),
  on(event: string, handler: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)?.add(handler);
    return this;
  },
  off(event: string, handler: Handler) {
    this.handlers.get(event)?.delete(handler);
    return this;
  },
  emit: jest.fn(),
  withAck: jest.fn<Promise<unknown>, [string, unknown]>(),
  timeout() {
    return { emitWithAck: (event: string, payload: unknown) => mockSocket.withAck(event, payload) };
  },
  fire(event: string, payload?: unknown) {
    act(() => this.handlers.get(event)?.forEach((h) => h(payload)));
  },
};
jest.mock('@/realtime/RealtimeConnection', () => ({
  realtimeConnection: () => ({ connect: () => mockSocket, socket: mockSocket }),
}));

const GROUP = chatGroup('G_one', {
  participants: [ADA, BOB].map((user) => ({ userCode: user.code, user, role: 0, readSeq: 1 })),
  lastSeq: 1,
  lastMessageAt: '2026-01-01T12:00:01.000Z',
  readSeq: 1,
});

type Route = (body: Record<string, unknown> | undefined) => [number, unknown];
let routes: Record<string, Route> = {};
const calls: { key: string; body: Record<string, unknown> | undefined }[] = [];
const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const body = init.body ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
  calls.push({ key, body });
  const [status, answer] = routes[key]?.(body) ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});
const unreadRequests = () => calls.filter((c) => c.key === 'GET /api/message/UnreadCount').length;
const messagePolls = () => calls.filter((c) => c.key === 'POST /api/message/groups/G_one/messages' && c.body?.afterSeq !== undefined).length;
const texts = () => screen.queryAllByTestId('chat-message-text').map((el) => el.textContent);

/** Lets the answered requests and the renders they cause run (no timers move). */
const settle = () =>
  act(async () => {
    for (let i = 0; i < 30; i++) await Promise.resolve();
  });
/** valtio tells React of a change a microtask later: let that render (and its effects) happen. */
const setStatus = async (status: typeof realtimeStore.status) => {
  await act(async () => void (realtimeStore.status = status));
  await settle();
};
const passes = async (ms: number) => {
  act(() => void jest.advanceTimersByTime(ms));
  await settle();
};

beforeEach(() => {
  resetChat();
  routes = { 'GET /api/message/UnreadCount': () => [200, { total: 0, groups: {} }] };
  calls.length = 0;
  mockSocket.handlers.clear();
  mockSocket.emit.mockReset();
  mockSocket.withAck.mockReset();
  sessionStore.token = 'T';
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});
afterEach(() => {
  jest.useRealTimers();
  realtimeStore.status = 'idle';
});

describe('the fallback switch between the socket and polling', () => {
  it('polls the open chat every 5 s and the unread count every 10 s only while the socket is down, and syncs the gap when it is back', async () => {
    jest.useFakeTimers();
    realtimeStore.status = 'disconnected';
    let newer: ChatMessage[] = [];
    routes['GET /api/message/groups/G_one'] = () => [200, GROUP];
    routes['POST /api/message/groups/G_one/messages'] = (body) =>
      body?.afterSeq === undefined
        ? [200, { messages: [storedMessage(1)], mayLoadOlder: false, mayLoadNewer: false }]
        : [200, { messages: newer.filter((m) => m.seq > Number(body.afterSeq)), mayLoadOlder: false, mayLoadNewer: false }];
    routes['POST /api/message/groups/G_one/read'] = (body) => [200, { readSeq: body?.seq, unread: { total: 0, groups: {} } }];
    renderRoutes(
      [
        {
          path: '/messages/:groupId',
          element: (
            <>
              <ChatRealtime />
              <Conversation code="G_one" />
            </>
          ),
        },
      ],
      '/messages/G_one',
    );
    await settle();
    expect(screen.getByTestId('chat-conversation')).toBeInTheDocument();
    expect(texts()).toEqual(['message 1']);
    const unreadAtStart = unreadRequests();
    expect(messagePolls()).toBe(0);

    // Down: the chat is asked every 5 s, the unread count every 10 s.
    await passes(MESSAGE_POLL_MS);
    expect([messagePolls(), unreadRequests() - unreadAtStart]).toEqual([1, 0]);
    newer = [storedMessage(2)];
    await passes(MESSAGE_POLL_MS);
    expect(UNREAD_POLL_MS).toBe(2 * MESSAGE_POLL_MS);
    expect([messagePolls(), unreadRequests() - unreadAtStart]).toEqual([2, 1]);
    expect(texts()).toEqual(['message 1', 'message 2']);
    // What arrived by polling is read (over REST: no socket).
    expect(calls.filter((c) => c.key === 'POST /api/message/groups/G_one/read').map((c) => c.body)).toEqual([{ seq: 2 }]);

    // Back: one sync for the groups held, from the newest seq held; what it repeats is not shown twice.
    mockSocket.withAck.mockImplementation(async (event) =>
      event === 'sync'
        ? { ok: true, messages: [storedMessage(2), storedMessage(3)], more: [] }
        : { ok: false, error: { code: 500, message: 'SHARED.ERROR.INTERNAL' } },
    );
    await setStatus('connected');
    mockSocket.fire('connect');
    await settle();
    expect(mockSocket.withAck).toHaveBeenCalledWith('sync', { groups: [{ groupCode: 'G_one', afterSeq: 2 }] });
    expect(texts()).toEqual(['message 1', 'message 2', 'message 3']);

    // Live: no polling at all, however long.
    const polls = messagePolls();
    const unread = unreadRequests();
    await passes(6 * UNREAD_POLL_MS);
    expect([messagePolls(), unreadRequests()]).toEqual([polls, unread]);

    // Down again: polling comes back by itself.
    await setStatus('disconnected');
    await passes(UNREAD_POLL_MS);
    expect([messagePolls() - polls, unreadRequests() - unread]).toEqual([2, 1]);
  });

  it('loads nothing for a group id shorter than 5 characters', async () => {
    realtimeStore.status = 'connected';
    renderRoutes([{ path: '/messages/:groupId', element: <Conversation code="new" /> }], '/messages/new');
    await settle();
    expect(screen.getByText('This chat cannot be shown')).toBeInTheDocument();
    expect(calls.filter((c) => c.key.includes('/api/message/groups'))).toEqual([]);
  });
});

describe('pushes over the socket', () => {
  function renderLive() {
    realtimeStore.status = 'connected';
    upsertGroup(GROUP);
    threadOf('G_one').loaded = true;
    renderRoutes([{ path: '/', element: <ChatRealtime /> }], '/');
  }

  it('takes typing, message:updated and message:deleted', async () => {
    renderLive();
    mockSocket.fire('typing', { groupCode: 'G_one', userCode: BOB.code });
    expect(chatStore.typing.G_one?.userCode).toBe(BOB.code);
    mockSocket.fire('message:new', storedMessage(2, { message: 'Cześć', language: 'pol' }));
    expect(chatStore.typing.G_one).toBeUndefined();
    mockSocket.fire('message:updated', { groupCode: 'G_one', code: 'M2', translation: 'Hi' });
    expect(chatStore.threads.G_one.bySeq[2].translation).toBe('Hi');
    mockSocket.fire('message:deleted', { groupCode: 'G_one', code: 'M2' });
    expect(chatStore.threads.G_one.bySeq[2]).toMatchObject({ deleted: true, translation: null });
  });
});
