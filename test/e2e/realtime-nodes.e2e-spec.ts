import { TokenService } from '../../server/src/modules/auth/token.service';
import { createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

describe('realtime across two server processes', () => {
  let one: ListeningApp;
  let two: ListeningApp;
  let a: TestUser, b: TestUser;

  beforeAll(async () => {
    [one, two] = await Promise.all([listenTestApp(), listenTestApp()]);
    [a, b] = await Promise.all([createUser(one), createUser(one)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => Promise.all([one.close(), two.close()]));

  it("delivers to each other's clients through the Redis adapter", async () => {
    const group = (
      await one
        .http()
        .put('/api/message/groups')
        .set('Authorization', `Bearer ${a.token}`)
        .send({ userList: [b.user.code], createNewGroup: true })
    ).body.group.code;
    const [sa, sb] = await Promise.all([connect(two.url, a.token), connect(one.url, b.token)]);
    const received = record(sb, 'message:new');
    const unread = next(sb, 'unread:count', (p) => p.groups[group] === 3);
    for (let i = 1; i <= 3; i++) await call(sa, 'message:send', { groupCode: group, clientKey: `n${i}`, message: `hop ${i}` });
    await waitFor(() => received.length === 3);
    expect(received.map((m) => m.seq)).toEqual([1, 2, 3]);
    await unread;

    // Concurrent senders on both nodes: every recipient still sees the group in seq order.
    const c = await createUser(one);
    await one
      .http()
      .post(`/api/message/group/${group}/participants`)
      .set('Authorization', `Bearer ${a.token}`)
      .send({ participants: [c.user.code] })
      .expect(200);
    const [sc1, sc2] = await Promise.all([connect(one.url, c.token), connect(two.url, c.token)]);
    const onOne = record(sc1, 'message:new');
    const onTwo = record(sc2, 'message:new');
    // c's count reaches both of c's nodes (a delivery to one room on two nodes).
    const countedOnBoth = Promise.all([sc1, sc2].map((s) => next(s, 'unread:count', (p) => p.groups[group] === 40)));
    const sb2 = await connect(two.url, b.token);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(i % 2 ? sa : sb2, 'message:send', { groupCode: group, clientKey: `par${i}`, message: `p${i}` })),
    );
    await waitFor(() => onOne.length === 40 && onTwo.length === 40);
    for (const seen of [onOne, onTwo]) expect(seen.map((m) => m.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 4));
    await countedOnBoth;

    // And the other way round, through REST on the first node to a socket on the second.
    const back = next(sa, 'message:new', (m) => m.message === 'reply');
    await one.http().post(`/api/message/groups/${group}`).set('Authorization', `Bearer ${b.token}`).send({ message: 'reply' }).expect(201);
    await back;
  });
});

describe('token expiry on a live socket', () => {
  let t: ListeningApp;
  let a: TestUser;

  beforeAll(async () => {
    t = await listenTestApp({ ACCESS_TOKEN_TTL: '2' });
    a = await createUser(t);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('drops the socket with unauthorized when its token expires', async () => {
    const socket = await connect(t.url, t.app.get(TokenService).sign(a.user).token);
    const expired = next(socket, 'auth:expired', () => true, 5000);
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    expect(await expired).toEqual({ message: 'unauthorized' });
    expect(await gone).toBe('io server disconnect');
  });

  it("keeps the socket when a fresh token arrives in time, and refuses another user's token", async () => {
    const tokens = t.app.get(TokenService);
    const socket = await connect(t.url, tokens.sign(a.user).token);
    const other = await createUser(t);
    expect((await call(socket, 'auth:refresh', { token: tokens.sign(other.user).token })).error.code).toBe(401);
    // Part of the first token's life passes, so the second one outlives it.
    await pause(1200);
    const refreshed = await call(socket, 'auth:refresh', { token: tokens.sign(a.user).token });
    expect(refreshed.ok).toBe(true);
    const expired = next(socket, 'auth:expired', () => true, 5000);
    // The first token runs out meanwhile; the socket still works on the second.
    await pause(1300);
    expect(socket.connected).toBe(true);
    expect((await call(socket, 'sync', { groups: [] })).ok).toBe(true);
    await expired;
  });
});
