import type { Socket } from 'socket.io-client';
import { createGroup, createUser, TestUser } from '../factories';
import { OwnRedis } from '../utils/own-redis';
import { call, closeAllSockets, connect, eventually, ListeningApp, listenTestApp, next, record } from '../utils/sockets';

const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

describe('a Redis restart under running servers', () => {
  let redis: OwnRedis;
  let one: ListeningApp;

  beforeAll(async () => {
    redis = await OwnRedis.start(2500);
    one = await listenTestApp({ REDIS_URL: redis.url });
  }, 30_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await one?.close();
    await redis?.stop();
  });

  it('keeps the server up through the outage and the LOADING that follows, and it serves afterwards', async () => {
    const people = await Promise.all(Array.from({ length: 4 }, () => createUser(one)));
    const group = await createGroup(one, people);
    const before = await Promise.all(people.slice(0, 2).map((p) => connect(one.url, p.token)));

    await redis.kill();
    // While Redis is away: people connect and send (their first activity), a connection drops (its session
    // is saved for recovery), activity pings come in.
    const during = await Promise.all(people.slice(2).map((p) => connect(one.url, p.token)));
    const sends = during.map((s, i) => call(s, 'message:send', { groupCode: group, clientKey: `away-${i}`, message: `while away ${i}` }, 20_000));
    (before[1].io.engine as { close: () => void }).close();
    during.forEach((s) => s.emit('activity', {}));
    await redis.restart();
    // And while it loads its data.
    during.forEach((s) => s.emit('activity', {}));
    const acks = await Promise.all(sends);
    expect(acks.map((a) => a.ok)).toEqual([true, true]);
    await redis.untilReady();

    await eventually(async () => (await one.http().get('/api/health')).status === 200, 15_000);
    const [a, b] = await Promise.all([connect(one.url, people[0].token), connect(one.url, people[1].token)]);
    const live = next(b, 'message:new', (m) => m.message === 'after the restart', 10_000);
    expect((await call(a, 'message:send', { groupCode: group, clientKey: 'after', message: 'after the restart' })).ok).toBe(true);
    await live;
  }, 60_000);
});
