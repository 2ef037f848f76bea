import { createGroup, createUser, TestUser } from '../factories';
import { OwnRedis } from '../utils/own-redis';
import { PausableProxy } from '../utils/pausable-proxy';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

describe('a Redis restart under running servers', () => {
  let redis: OwnRedis;
  let one: ListeningApp;
  let two: ListeningApp;

  beforeAll(async () => {
    redis = await OwnRedis.start(2500);
    [one, two] = await Promise.all([listenTestApp({ REDIS_URL: redis.url }), listenTestApp({ REDIS_URL: redis.url })]);
  }, 30_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await redis?.stop();
  });

  it('keeps the server up through the outage and the LOADING that follows, and it serves afterwards', async () => {
    const people = await Promise.all(Array.from({ length: 4 }, () => createUser(one)));
    const group = await createGroup(one, people);
    const before = await Promise.all(people.slice(0, 2).map((p) => connect(one.url, p.token)));

    await redis.kill();
    const health = await one.http().get('/api/health');
    expect([health.status, health.body.redis]).toEqual([503, 'down']);
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

    await waitFor(async () => (await one.http().get('/api/health')).status === 200, { timeoutMs: 15_000 });
    const [a, b] = await Promise.all([connect(one.url, people[0].token), connect(one.url, people[1].token)]);
    const live = next(b, 'message:new', (m) => m.message === 'after the restart', 10_000);
    expect((await call(a, 'message:send', { groupCode: group, clientKey: 'after', message: 'after the restart' })).ok).toBe(true);
    await live;
  }, 60_000);

  it('delivers what was sent while Redis was away live once it is back: in seq order, once each, with exact unread counts', async () => {
    const [a, b, c, d] = await Promise.all(Array.from({ length: 4 }, () => createUser(one)));
    const group = await createGroup(one, [a, b, c, d]);
    // Senders and recipients on both servers.
    const [sa, sb] = await Promise.all([connect(one.url, a.token), connect(two.url, b.token)]);
    const [sc, sd] = await Promise.all([connect(one.url, c.token), connect(two.url, d.token)]);
    const seen = new Map([c, d].map((u, i) => [u.user.code, record<{ seq: number }>([sc, sd][i], 'message:new')]));
    const unread = new Map<string, { total: number; groups: Record<string, number> }>();
    for (const [u, s] of [
      [c, sc],
      [d, sd],
    ] as const) {
      s.on('unread:count', (p: { total: number; groups: Record<string, number> }) => {
        unread.set(u.user.code, { total: p.total, groups: { ...unread.get(u.user.code)?.groups, ...p.groups } });
      });
    }

    await redis.kill();
    const acks = [];
    for (let i = 0; i < 8; i++) {
      acks.push(await call(i % 2 ? sb : sa, 'message:send', { groupCode: group, clientKey: `down-${i}`, message: `down ${i}` }, 20_000));
    }
    expect(acks.every((x) => x.ok)).toBe(true);
    await redis.restart();
    await redis.untilReady();
    const back = Date.now();

    const all = Array.from({ length: 8 }, (_, i) => i + 1);
    await waitFor(() => [...seen.values()].every((list) => list.length >= 8), { timeoutMs: 10_000 });
    // A moment more, for anything that would arrive twice.
    await pause(500);
    for (const list of seen.values()) expect(list.map((m) => m.seq)).toEqual(all);
    expect(Date.now() - back).toBeLessThan(10_000);
    for (const u of [c, d]) {
      const rest = (await one.http().get('/api/message/UnreadCount').set(auth(u)).expect(200)).body;
      await waitFor(() => unread.get(u.user.code)?.groups[group] === rest.groups[group] && unread.get(u.user.code)?.total === rest.total, {
        timeoutMs: 10_000,
      });
    }
  }, 60_000);

  it('holds a message for its predecessor from when Redis runs its publish, not from when it was queued', async () => {
    // Two servers whose Redis connections stall (a network hiccup): what they publish waits on the wire.
    const [p1, p2] = await Promise.all([PausableProxy.start(redis.port), PausableProxy.start(redis.port)]);
    const [left, right] = await Promise.all([listenTestApp({ REDIS_URL: p1.url }), listenTestApp({ REDIS_URL: p2.url })]);
    try {
      const [a, b, c] = await Promise.all([createUser(left), createUser(left), createUser(left)]);
      const group = await createGroup(left, [a, b, c]);
      const [sa, sb] = await Promise.all([connect(right.url, a.token), connect(left.url, b.token)]);
      const sc = await connect(left.url, c.token);
      const seen = record<{ seq: number }>(sc, 'message:new');

      p1.pause();
      p2.pause();
      expect((await call(sa, 'message:send', { groupCode: group, clientKey: 'first', message: 'first' })).message.seq).toBe(1);
      expect((await call(sb, 'message:send', { groupCode: group, clientKey: 'second', message: 'second' })).message.seq).toBe(2);
      // Longer than a hold: seq 2's publish waited this long before Redis saw it.
      await pause(2500);
      p1.resume();
      // Seq 1 comes through the other server a second later, well within a hold counted from now (several
      // sweepers run, so a hold counted from the queueing would have let seq 2 through by then).
      await pause(1000);
      p2.resume();

      await waitFor(() => seen.length >= 2, { timeoutMs: 10_000 });
      // A moment more, for anything that would arrive twice or out of order.
      await pause(300);
      expect(seen.map((m) => m.seq)).toEqual([1, 2]);
    } finally {
      await Promise.all([left.close(), right.close()]);
      await Promise.all([p1.close(), p2.close()]);
    }
  }, 60_000);
});
