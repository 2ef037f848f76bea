import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

/** The socket contract integrators build against: the same shapes and error envelope as REST. */
describe('realtime contract', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    t = await listenTestApp();
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('carries each message with its author as REST gives it: message:new, the send and edit acks, and sync', async () => {
    const group = await createGroup(t, [a, b]);
    const [sa, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token)]);
    const pushed = next(sb, 'message:new');

    const sent = await call(sa, 'message:send', { groupCode: group, clientKey: '-user1', message: 'hello' });
    const edited = await call(sa, 'message:edit', { groupCode: group, code: sent.message.code, message: 'hello again' });
    const synced = await call(sb, 'sync', { groups: [{ groupCode: group, afterSeq: 0 }] });
    const rest = await t.http().post(`/api/message/groups/${group}/messages`).set(as(b)).send({}).expect(200);
    const restUser = rest.body.messages[0].user;

    expect(restUser).toEqual({ code: a.user.code, name: expect.any(String), surname: expect.any(String), avatar: expect.any(Object) });
    expect(sent.message.user).toEqual(restUser);
    expect(edited.message.user).toEqual(restUser);
    expect((await pushed).user).toEqual(restUser);
    expect(synced.messages[0].user).toEqual(restUser);
    expect(Object.keys(synced.messages[0]).sort()).toEqual(Object.keys(rest.body.messages[0]).sort());
  });

  it("gives the sending socket its message in the acknowledgement only, and the sender's other sockets as message:new", async () => {
    const group = await createGroup(t, [a, b]);
    const [sending, otherTab, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, a.token), connect(t.url, b.token)]);
    const toSender = record(sending, 'message:new');
    const toOtherTab = next(otherTab, 'message:new', (m) => m.clientKey === 'one-copy');
    const toB = next(sb, 'message:new', (m) => m.clientKey === 'one-copy');

    const sent = await call(sending, 'message:send', { groupCode: group, clientKey: 'one-copy', message: 'once' });
    expect((await toOtherTab).code).toBe(sent.message.code);
    expect((await toB).code).toBe(sent.message.code);
    // A message sent after it reached the sender's socket too: nothing of the first is still on its way there.
    const later = next(sending, 'message:new', (m) => m.clientKey === 'from-b');
    await call(sb, 'message:send', { groupCode: group, clientKey: 'from-b', message: 'reply' });
    await later;
    expect(toSender.map((m) => m.clientKey)).toEqual(['from-b']);
  });

  it("coalesces a user's unread counts: fewer pushes than messages, the last one exact", async () => {
    const group = await createGroup(t, [a, b]);
    const other = await createGroup(t, [a, b]);
    const [sa, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token)]);
    const counts = record<{ total: number; groups: Record<string, number> }>(sb, 'unread:count');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(sa, 'message:send', { groupCode: i % 4 ? group : other, clientKey: `burst-${i}`, message: `m${i}` })),
    );
    const exact = (await t.http().get('/api/message/UnreadCount').set(as(b)).expect(200)).body;
    expect(exact.groups).toEqual({ [group]: 15, [other]: 5 });
    await waitFor(() => counts.at(-1)?.total === exact.total, { timeoutMs: 5000 });
    expect(counts.length).toBeLessThan(20);
    // Merged, each group's count is its newest: the pushes together end on the exact counts.
    expect(Object.assign({}, ...counts.map((c) => c.groups))).toEqual(exact.groups);
  });

  it('answers a refused event in the REST error envelope, brokenRules included', async () => {
    const group = await createGroup(t, [a, b]);
    const sa = await connect(t.url, a.token);
    const rest = await t.http().post(`/api/message/groups/${group}`).set(as(a)).send({ message: '', clientKey: 'x' }).expect(422);

    const ack = await call(sa, 'message:send', { groupCode: group, clientKey: 'x', message: '' });
    expect(ack).toEqual({ ok: false, error: rest.body });
    expect(ack.error.data.brokenRules.length).toBeGreaterThan(0);
  });

  it('answers an event over 64 KB with a 413 error ack and keeps the connection, over WebSocket and long polling', async () => {
    const group = await createGroup(t, [a, b]);
    for (const transport of ['websocket', 'polling'] as const) {
      const sa = await connect(t.url, a.token, { transports: [transport] });
      const disconnects = record(sa, 'disconnect');
      const ack = await call(sa, 'message:send', { groupCode: group, clientKey: `big-${transport}`, message: 'x'.repeat(70 * 1024) });
      expect([transport, ack]).toEqual([
        transport,
        { ok: false, error: { code: 413, message: 'SHARED.ERROR.PAYLOAD_TOO_LARGE', data: { maxBytes: 64 * 1024 } } },
      ]);
      // Multi-byte text is measured in bytes: 30,000 three-byte characters are 90 KB.
      const wide = await call(sa, 'message:send', { groupCode: group, clientKey: `wide-${transport}`, message: '€'.repeat(30_000) });
      expect(wide.error?.code).toBe(413);
      const ok = await call(sa, 'message:send', { groupCode: group, clientKey: `small-${transport}`, message: 'still here' });
      expect(ok.ok).toBe(true);
      // Events that travel together (long polling batches what is sent while a request is out) are measured one by one.
      const together = await Promise.all(
        ['a', 'x'.repeat(70 * 1024), 'b'].map((message, i) => call(sa, 'message:send', { groupCode: group, clientKey: `batch${i}-${transport}`, message })),
      );
      expect(together.map((r) => r.ok || r.error.code)).toEqual([true, 413, true]);
      expect(sa.connected).toBe(true);
      expect(disconnects).toEqual([]);
    }
  });

  it('still closes a connection whose frame is past the transport ceiling, so nobody makes the server buffer megabytes', async () => {
    const group = await createGroup(t, [a, b]);
    const sa = await connect(t.url, a.token);
    const gone = next(sa, 'disconnect');
    sa.emit('message:send', { groupCode: group, clientKey: 'huge', message: 'x'.repeat(2 * 1024 * 1024) });
    expect(await gone).toBe('transport close');
    await waitFor(() => !sa.connected);
  });
});

describe('realtime: logging in after connecting (the auth event)', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser;

  beforeAll(async () => {
    t = await listenTestApp({ SOCKET_AUTH_TIMEOUT_MS: '600' });
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('connects without a token, refuses everything but auth until then, then works like a handshake login', async () => {
    const group = await createGroup(t, [a, b]);
    const sb = await connect(t.url, b.token);
    const received = next(sb, 'message:new');
    const sa = await connect(t.url, undefined);

    expect(await call(sa, 'message:send', { groupCode: group, clientKey: 'early', message: 'too soon' })).toEqual({
      ok: false,
      error: { code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' },
    });
    expect(await call(sa, 'sync', { groups: [] })).toMatchObject({ ok: false, error: { code: 401 } });
    sa.emit('typing', { groupCode: group });
    expect(await call(sa, 'auth', { token: 'forged' })).toEqual({ ok: false, error: { code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' } });
    expect(await call(sa, 'auth', 'not an object')).toMatchObject({ ok: false, error: { code: 422, data: { brokenRules: expect.any(Array) } } });

    const ack = await call(sa, 'auth', { token: a.token });
    expect(ack).toEqual({ ok: true, userCode: a.user.code, expiresAt: expect.any(String) });
    const sent = await call(sa, 'message:send', { groupCode: group, clientKey: 'late', message: 'logged in' });
    expect(sent).toMatchObject({ ok: true, message: { userCode: a.user.code } });
    expect(await received).toMatchObject({ code: sent.message.code });
    // Its own user's pushes reach it: the user room was joined at login.
    const unread = next(sa, 'unread:count');
    await call(sb, 'message:send', { groupCode: group, clientKey: 'to-a', message: 'hi a' });
    expect((await unread).groups[group]).toBe(1);
    expect(await call(sa, 'auth', { token: a.token })).toMatchObject({ ok: false, error: { code: 409 } });

    // Past the deadline the socket is still there: it logged in in time.
    await pause(700);
    expect(sa.connected).toBe(true);
  });

  it('disconnects a socket that does not log in before the deadline', async () => {
    const started = Date.now();
    const sa = await connect(t.url, undefined);
    const reason = await next(sa, 'disconnect', () => true, 5000);
    expect(reason).toBe('io server disconnect');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  });

  it('still refuses a bad token given in the handshake', async () => {
    await expect(connect(t.url, 'garbage')).rejects.toThrow('unauthorized');
  });
});
