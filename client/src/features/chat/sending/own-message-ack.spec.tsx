/**
 * Real Socket.IO on both ends (the server's Node entry points, hence the export conditions).
 * @jest-environment-options {"customExportConditions": ["node", "require", "default"]}
 */
import { act, render } from '@testing-library/react';
import { createServer, type Server as HttpServer } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io } from 'socket.io-client';
import type { ChatMessage } from '@/api/chat.api';
import { clearResponseCache, configureHttp } from '@/api/http';
import { sessionStore } from '@/features/session/session.store';
import { type ParleySocket, realtimeStore } from '@/realtime/connection';
import { ADA, chatGroup, storedMessage } from '../../../../jest/chat-fixtures';
import { chatStore, messagesOf, resetChat, threadOf, upsertGroup } from '../chat.store';
import { ChatRealtime } from '../ChatRealtime';
import { ACK_TIMEOUT_MS } from '../live-socket';
import { sendMessage } from './send-message';

/** This tab's socket: the app's realtime connection hands it out. */
const mockTab: { socket: ParleySocket | null } = { socket: null };
jest.mock('@/realtime/RealtimeConnection', () => ({
  realtimeConnection: () => ({ connect: () => mockTab.socket, socket: mockTab.socket }),
}));

const PORT = 4410;

/** A send the test server received and holds: the test decides who hears of it, and when the sender is answered. */
interface HeldSend {
  stored: ChatMessage;
  sender: ServerSocket;
  answer: (res: { ok: true; message: ChatMessage }) => void;
}

/**
 * The server's side of message:send, step by step: stores a client key once (a repeat gets the stored message),
 * then `pushToOthers` (the new contract: the user's other sockets), `pushToAll` (the old one: the sender too)
 * and `acknowledge` in whatever order a case needs.
 */
function chatServer() {
  const http: HttpServer = createServer();
  const ioServer = new Server(http);
  const byKey = new Map<string, ChatMessage>();
  const held: HeldSend[] = [];
  // Every socket here is Ada's (the handshake names her), so she is the author of every message stored.
  ioServer.on('connection', (socket) => {
    const userCode = String(socket.handshake.auth.userCode);
    void socket.join(`user:${userCode}`);
    socket.on('message:send', (body: { groupCode: string; clientKey: string; message: string }, answer: HeldSend['answer']) => {
      const { groupCode, message, clientKey } = body;
      const stored = byKey.get(clientKey) ?? storedMessage(byKey.size + 1, { groupCode, message, clientKey, userCode, user: ADA });
      byKey.set(clientKey, stored);
      held.push({ stored, sender: socket, answer });
    });
  });
  return {
    listen: () => new Promise<void>((resolve) => http.listen(PORT, '127.0.0.1', resolve)),
    /** The next send the server holds (waits for it to come in). */
    nextSend: async (): Promise<HeldSend> => {
      await until(() => held.length > 0);
      return held.shift() as HeldSend;
    },
    pushToOthers: (send: HeldSend) => void send.sender.to(`user:${send.stored.userCode}`).emit('message:new', send.stored),
    pushToAll: (send: HeldSend) => void ioServer.to(`user:${send.stored.userCode}`).emit('message:new', send.stored),
    acknowledge: (send: HeldSend) => send.answer({ ok: true, message: send.stored }),
    reset: () => {
      byKey.clear();
      held.length = 0;
    },
    close: () => new Promise<void>((resolve) => void ioServer.close(() => resolve())),
  };
}

/** Lets sockets and promises run until `done` holds (real I/O: Node's own turns, which no fake clock moves). */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !done(); turn++) await act(() => new Promise<void>((resolve) => nextTurn(resolve)));
  if (!done()) throw new Error('never happened');
}

/** Counts the message:new events a socket received, for waiting on one that must change nothing. */
function countPushes(socket: ParleySocket) {
  const seen: ChatMessage[] = [];
  socket.on('message:new', (m) => void seen.push(m));
  return seen;
}

const server = chatServer();
const sockets: ParleySocket[] = [];
async function connectAs(userCode: string): Promise<ParleySocket> {
  const socket = io(`http://127.0.0.1:${PORT}`, { transports: ['websocket'], auth: { userCode }, forceNew: true }) as ParleySocket;
  sockets.push(socket);
  await until(() => socket.connected);
  return socket;
}

const shown = () => messagesOf(chatStore.threads.G_one).map((m) => [m.code, m.message]);
const fetchMock = jest.fn(async (url: string) => {
  const path = new URL(url, 'http://x').pathname;
  const answer = path === '/api/translation' ? { enabled: false, pairs: [] } : { total: 0, groups: {} };
  return { status: 200, ok: true, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(answer) };
});

let thisTab: ParleySocket;
let otherTab: ParleySocket;
let pushesHere: ChatMessage[];
let pushesThere: ChatMessage[];
let unmount: () => void;

beforeAll(() => server.listen());
afterAll(() => server.close());

beforeEach(async () => {
  server.reset();
  resetChat();
  upsertGroup(chatGroup('G_one'));
  threadOf('G_one').loaded = true;
  sessionStore.token = 'T';
  sessionStore.user = { ...ADA, type: 1, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
  thisTab = await connectAs(ADA.code);
  otherTab = await connectAs(ADA.code);
  mockTab.socket = thisTab;
  realtimeStore.status = 'connected';
  ({ unmount } = render(<ChatRealtime />));
  // Counted after the app's own listener: when a push is counted here, the app has handled it.
  pushesHere = countPushes(thisTab);
  pushesThere = countPushes(otherTab);
});

afterEach(() => {
  jest.useRealTimers();
  unmount();
  sockets.splice(0).forEach((s) => s.close());
  realtimeStore.status = 'idle';
});

describe('my own message, when the server sends it to the sending socket only in the acknowledgement', () => {
  it('takes the stored message from the acknowledgement in place of the optimistic one', async () => {
    const sending = sendMessage('G_one', 'hello');
    const send = await server.nextSend();
    expect(shown()).toEqual([[send.stored.clientKey, 'hello']]);
    server.pushToOthers(send);
    await until(() => pushesThere.length === 1);
    server.acknowledge(send);
    await act(() => sending);
    expect(pushesHere).toEqual([]);
    expect(shown()).toEqual([['M1', 'hello']]);
    expect(chatStore.threads.G_one.pending).toEqual({});
    expect(chatStore.groups.G_one.lastMessage?.code).toBe('M1');
  });

  it('shows each message once when the old server also pushes it back, before or after the acknowledgement', async () => {
    const first = sendMessage('G_one', 'push first');
    const one = await server.nextSend();
    server.pushToAll(one);
    await until(() => pushesHere.length === 1);
    server.acknowledge(one);
    await act(() => first);

    const second = sendMessage('G_one', 'ack first');
    const two = await server.nextSend();
    server.acknowledge(two);
    await act(() => second);
    server.pushToAll(two);
    await until(() => pushesHere.length === 2);

    expect(shown()).toEqual([
      ['M1', 'push first'],
      ['M2', 'ack first'],
    ]);
    expect(chatStore.threads.G_one.pending).toEqual({});
  });

  it('shows what my other tab sent once, whether its push comes before or after my own acknowledgement', async () => {
    const mine = sendMessage('G_one', 'from here');
    const held = await server.nextSend();
    otherTab.emit('message:send', { groupCode: 'G_one', clientKey: '-othertab1', message: 'from there' }, () => undefined);
    const theirs = await server.nextSend();
    server.pushToOthers(theirs);
    await until(() => pushesHere.length === 1);
    server.acknowledge(held);
    await act(() => mine);

    const again = sendMessage('G_one', 'here again');
    const heldAgain = await server.nextSend();
    server.acknowledge(heldAgain);
    await act(() => again);
    otherTab.emit('message:send', { groupCode: 'G_one', clientKey: '-othertab2', message: 'there again' }, () => undefined);
    server.pushToOthers(await server.nextSend());
    await until(() => pushesHere.length === 2);

    expect(shown()).toEqual([
      ['M1', 'from here'],
      ['M2', 'from there'],
      ['M3', 'here again'],
      ['M4', 'there again'],
    ]);
  });

  it('keeps one copy when my other tab sends the same message again (the shared outbox) and its push overtakes my acknowledgement', async () => {
    const sending = sendMessage('G_one', 'hello');
    const held = await server.nextSend();
    const { clientKey } = held.stored;
    otherTab.emit('message:send', { groupCode: 'G_one', clientKey: clientKey as string, message: 'hello' }, () => undefined);
    server.pushToOthers(await server.nextSend());
    await until(() => pushesHere.length === 1);
    expect(shown()).toEqual([['M1', 'hello']]);
    server.acknowledge(held);
    await act(() => sending);
    expect(shown()).toEqual([['M1', 'hello']]);
    expect(chatStore.threads.G_one.pending).toEqual({});
  });

  it('puts the message in place when its acknowledgement comes after the wait, though the send was shown failed', async () => {
    // The app's wait runs on the fake clock; the sockets' I/O stays real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
    const sending = sendMessage('G_one', 'slow');
    const send = await server.nextSend();
    const { clientKey } = send.stored;
    expect(shown()).toEqual([[clientKey, 'slow']]);
    await act(async () => void (await jest.advanceTimersByTimeAsync(ACK_TIMEOUT_MS)));
    await act(() => sending);
    expect(shown()).toEqual([[`!${clientKey}`, 'slow']]);

    server.pushToOthers(send);
    server.acknowledge(send);
    await until(() => shown()[0]?.[0] === 'M1');
    expect(shown()).toEqual([['M1', 'slow']]);
    expect(chatStore.threads.G_one.pending).toEqual({});
  });

  it('shows the send failed at once when the socket drops before the acknowledgement', async () => {
    const sending = sendMessage('G_one', 'cut off');
    const send = await server.nextSend();
    send.sender.disconnect(true);
    await act(() => sending);
    expect(shown()).toEqual([[`!${send.stored.clientKey}`, 'cut off']]);
  });
});
