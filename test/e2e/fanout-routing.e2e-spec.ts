import { createClient } from 'redis';
import { fanoutKeys, roomNodeIds } from '../../server/src/fanout/fanout-routing.scripts';
import { FanoutNode } from '../../server/src/fanout/fanout-node';
import { RedisService } from '#shared/redis/redis.service';
import { createGroup, createUser, TestUser } from '../factories';
import { OwnRedis } from '../utils/own-redis';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

const nodeOf = (t: ListeningApp) => t.app.get(FanoutNode);
const redisOf = (t: ListeningApp) => t.app.get(RedisService);
const roomNodes = async (t: ListeningApp, room: string) => roomNodeIds(await redisOf(t).client.hGet(fanoutKeys.rooms(redisOf(t).prefix), room));
const send = (socket: Parameters<typeof call>[0], groupCode: string, text: string) =>
  call(socket, 'message:send', { groupCode, clientKey: text.replace(/\W/g, '-'), message: text });

describe('fan-out routing across server processes', () => {
  let one: ListeningApp, two: ListeningApp, three: ListeningApp;

  beforeAll(async () => {
    [one, two, three] = await Promise.all([listenTestApp(), listenTestApp(), listenTestApp()]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => Promise.all([one.close(), two.close(), three?.close()]));

  it('writes a message only to the nodes with sockets in its rooms, in seq order', async () => {
    const [a, b, c] = await Promise.all([createUser(one), createUser(one), createUser(one)]);
    const group = await createGroup(one, [a, b]);
    const [sa, sb] = await Promise.all([connect(one.url, a.token), connect(two.url, b.token)]);
    // c is online on the third node, in no room of this group.
    await connect(three.url, c.token);
    const received = record<{ seq: number }>(sb, 'message:new');
    const read = () => [one, two, three].map((t) => nodeOf(t).counters.read);
    const before = read();

    for (let i = 1; i <= 5; i++) expect((await send(sa, group, `m${i}`)).ok).toBe(true);
    await waitFor(() => received.length === 5);
    expect(received.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);

    expect(await roomNodes(one, `user:${a.user.code}`)).toEqual([nodeOf(one).id]);
    expect(await roomNodes(one, `user:${b.user.code}`)).toEqual([nodeOf(two).id]);
    const [r1, r2, r3] = read().map((n, i) => n - before[i]);
    expect(r1).toBeGreaterThanOrEqual(5);
    expect(r2).toBeGreaterThanOrEqual(5);
    expect(r3).toBe(0);
  });

  it("keeps a group in seq order on every node when it is sent to through two nodes at once (one's own deliveries, the other's inbox)", async () => {
    const [a, b, c] = await Promise.all([createUser(one), createUser(one), createUser(one)]);
    const group = await createGroup(one, [a, b, c]);
    const [sa, sb, c1, c2] = await Promise.all([connect(one.url, a.token), connect(two.url, b.token), connect(one.url, c.token), connect(two.url, c.token)]);
    const onOne = record<{ seq: number }>(c1, 'message:new');
    const onTwo = record<{ seq: number }>(c2, 'message:new');
    const counts = record<{ total: number }>(c1, 'unread:count');

    const acks = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i % 2 ? sb : sa, group, `both ${i}`)));
    expect(acks.every((ack) => ack.ok)).toBe(true);
    await waitFor(() => onOne.length === 40 && onTwo.length === 40 && counts.at(-1)?.total === 40);
    const inOrder = Array.from({ length: 40 }, (_, i) => i + 1);
    expect(onOne.map((m) => m.seq)).toEqual(inOrder);
    expect(onTwo.map((m) => m.seq)).toEqual(inOrder);
    // Its count (filled from Postgres when not cached, then counted per message) never goes back.
    const totals = counts.map((n) => n.total);
    expect(totals).toEqual([...totals].sort((x, y) => x - y));
  });

  it('subscribes a room while a local socket is in it and unsubscribes it when the last one leaves', async () => {
    const a = await createUser(one);
    const room = `user:${a.user.code}`;
    const [first, second] = await Promise.all([connect(two.url, a.token), connect(two.url, a.token)]);
    // Registered before the handshake answered.
    expect(await roomNodes(two, room)).toEqual([nodeOf(two).id]);
    first.close();
    // Time for a wrong unsubscribe on the first socket's leaving to happen.
    await pause(200);
    expect(await roomNodes(two, room)).toEqual([nodeOf(two).id]);
    second.close();
    await waitFor(async () => (await roomNodes(two, room)).length === 0);
  });

  it('stops writing to a node whose registration expired (it died) and drops it from the rooms', async () => {
    const [a, b] = await Promise.all([createUser(one), createUser(one)]);
    const group = await createGroup(one, [a, b]);
    const [sa, sb] = await Promise.all([connect(one.url, a.token), connect(two.url, b.token)]);
    // A node that registered b's room, then died: its inbox (its liveness) expires.
    const redis = redisOf(one);
    const dead = 'dead-node';
    const rooms = fanoutKeys.rooms(redis.prefix);
    const bRoom = `user:${b.user.code}`;
    await redis.client.hSet(rooms, bRoom, `${(await redis.client.hGet(rooms, bRoom)) ?? ','}${dead},`);
    await redis.client.xAdd(fanoutKeys.inbox(redis.prefix, dead), '*', { created: '1' });
    await redis.client.pExpire(fanoutKeys.inbox(redis.prefix, dead), 100);
    await waitFor(async () => (await redis.client.exists(fanoutKeys.inbox(redis.prefix, dead))) === 0, { message: "the dead node's inbox to expire" });

    const live = next(sb, 'message:new', (m) => m.message === 'after the death');
    expect((await send(sa, group, 'after the death')).ok).toBe(true);
    await live;
    expect(await roomNodes(one, `user:${b.user.code}`)).toEqual([nodeOf(two).id]);
    expect(await redis.client.exists(fanoutKeys.inbox(redis.prefix, dead))).toBe(0);
  });

  it('takes a node that shuts down out of every room, its inbox gone', async () => {
    const a = await createUser(one);
    await connect(three.url, a.token);
    const { id, inbox } = nodeOf(three);
    expect(await roomNodes(one, `user:${a.user.code}`)).toEqual([id]);
    await three.close();
    three = undefined as unknown as ListeningApp;
    expect(await roomNodes(one, `user:${a.user.code}`)).toEqual([]);
    expect(await redisOf(one).client.exists(inbox)).toBe(0);
  });
});

describe('fan-out routing after Redis lost its data', () => {
  let redis: OwnRedis;
  let one: ListeningApp, two: ListeningApp;
  let a: TestUser, b: TestUser;

  beforeAll(async () => {
    redis = await OwnRedis.start(0);
    // Heartbeats every 200 ms.
    const env = { REDIS_URL: redis.url, FANOUT_NODE_TTL_MS: '1000' };
    [one, two] = await Promise.all([listenTestApp(env), listenTestApp(env)]);
    [a, b] = await Promise.all([createUser(one), createUser(one)]);
  }, 30_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await redis?.stop();
  });

  it('registers every node again and delivers live what was routed before it came back, once and in order', async () => {
    const group = await createGroup(one, [a, b]);
    const [sa, sb] = await Promise.all([connect(one.url, a.token), connect(two.url, b.token)]);
    const received = record<{ seq: number; message: string }>(sb, 'message:new');

    const flusher = createClient({ url: redis.url });
    await flusher.connect();
    await flusher.flushAll();
    await flusher.close();
    // Routed at once, while no node is registered: the recent stream keeps it for the nodes coming back.
    expect((await send(sa, group, 'right after the loss')).ok).toBe(true);
    await waitFor(() => received.length === 1, { timeoutMs: 10_000 });
    expect(received[0].message).toBe('right after the loss');

    for (let i = 2; i <= 4; i++) expect((await send(sa, group, `then ${i}`)).ok).toBe(true);
    await waitFor(() => received.length >= 4, { timeoutMs: 10_000 });
    // A moment more, for anything that would arrive twice.
    await pause(300);
    expect(received.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(await roomNodes(one, `user:${b.user.code}`)).toEqual([nodeOf(two).id]);
    expect(await roomNodes(one, `user:${a.user.code}`)).toEqual([nodeOf(one).id]);
  }, 30_000);
});
