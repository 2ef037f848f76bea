import { Socket } from 'socket.io-client';
import { createGroup, createUser, TestUser } from '../factories';
import { PausableProxy } from '../utils/pausable-proxy';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';
import { testEnv } from '../utils/test-env';

const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

/** Every chat event a socket receives, in arrival order, as `event code` (or `event` alone for group changes). */
function chatEvents(socket: Socket): string[] {
  const seen: string[] = [];
  socket.onAny((event: string, payload: { code?: string }) => {
    if (event.startsWith('message:') || event === 'group:updated') seen.push(payload.code && event !== 'group:updated' ? `${event} ${payload.code}` : event);
  });
  return seen;
}

describe('one ordered path for everything about a chat (two server nodes)', () => {
  let proxy: PausableProxy;
  let slow: ListeningApp;
  let fast: ListeningApp;

  beforeAll(async () => {
    // `slow` reaches Redis through a proxy that can stall, as on a network hiccup: what it publishes waits on the wire.
    proxy = await PausableProxy.start(Number(new URL(testEnv().REDIS_URL!).port || 6379));
    [slow, fast] = await Promise.all([listenTestApp({ REDIS_URL: proxy.url }), listenTestApp()]);
  }, 30_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    proxy?.resume();
    await Promise.all([slow?.close(), fast?.close()]);
    await proxy?.close();
  });

  it('never lets an edit, a delete or a group change made right behind a message overtake it', async () => {
    const [author, reader, other] = await Promise.all([createUser(fast), createUser(fast), createUser(fast)]);
    const group = await createGroup(fast, [author, reader, other]);
    const [onSlow, onFast, readerOnFast, otherOnSlow] = await Promise.all([
      connect(slow.url, author.token),
      connect(fast.url, author.token),
      connect(fast.url, reader.token),
      connect(slow.url, other.token),
    ]);
    const readerSaw = chatEvents(readerOnFast);
    const otherSaw = chatEvents(otherOnSlow);

    proxy.pause();
    try {
      // Committed and acknowledged by the slow node; its fan-out waits for Redis.
      const { message } = await call(onSlow, 'message:send', { groupCode: group, clientKey: 'k1', message: 'first' });
      // Right behind it, through the other node: an edit, a rename and a delete.
      expect((await call(onFast, 'message:edit', { groupCode: group, code: message.code, message: 'first, edited' })).ok).toBe(true);
      await fast.http().patch(`/api/message/groups/${group}`).set(auth(author)).send({ name: 'Renamed' }).expect(200);
      await fast.http().delete(`/api/message/groups/${group}/messages/${message.code}`).set(auth(author)).expect(204);
      // Long enough for anything sent another way to have arrived.
      await pause(500);
    } finally {
      proxy.resume();
    }

    const expected = ['message:new', 'message:updated', 'group:updated', 'message:deleted'];
    for (const seen of [readerSaw, otherSaw]) {
      await waitFor(() => seen.length >= expected.length, { timeoutMs: 10_000 });
      expect(seen.map((e) => e.split(' ')[0])).toEqual(expected);
    }
  }, 30_000);
});
