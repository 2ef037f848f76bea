import jwt from 'jsonwebtoken';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { RedisService } from '#shared/redis/redis.service';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

describe('realtime gateway', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    t = await listenTestApp({ PRESENCE_OFFLINE_GRACE_MS: '150' });
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('refuses a forged, alg:none or expired token with unauthorized', async () => {
    const secret = 'test-secret-test-secret-test-secret-0123456789';
    const claims = { unique_name: a.user.code, nameid: a.user.email, role: 0 };
    const forged = jwt.sign(claims, 'another-secret-another-secret-another-secret', { expiresIn: 60 });
    const none = jwt.sign(claims, '', { algorithm: 'none' as jwt.Algorithm });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, secret);
    for (const token of ['garbage', forged, none, expired]) {
      await expect(connect(t.url, token)).rejects.toThrow('unauthorized');
    }
  });

  it('delivers a sent message once to every participant, acks the sender and pushes unread counts', async () => {
    const group = await createGroup(t, [a, b]);
    const [sa, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token)]);
    const bMessages = record(sb, 'message:new');
    const aUnread = record(sa, 'unread:count');
    const bUnread = next(sb, 'unread:count', (p) => p.groups[group] === 1);

    const ack = await call(sa, 'message:send', { groupCode: group, clientKey: '-k1', message: 'hello', lang: 'eng' });
    expect(ack).toMatchObject({ ok: true, message: { groupCode: group, seq: 1, message: 'hello', clientKey: '-k1', userCode: a.user.code } });
    await waitFor(() => bMessages.length === 1);
    expect(bMessages[0]).toMatchObject({ code: ack.message.code, seq: 1, clientKey: '-k1' });
    expect((await bUnread).total).toBeGreaterThanOrEqual(1);

    // A retry with the same key is acknowledged with the stored message and delivered to nobody again.
    const retry = await call(sa, 'message:send', { groupCode: group, clientKey: '-k1', message: 'hello' });
    expect(retry.message.code).toBe(ack.message.code);
    // REST sends fan out the same way.
    await t.http().post(`/api/message/groups/${group}`).set(as(a)).send({ message: 'via rest' }).expect(201);
    await waitFor(() => bMessages.length === 2);
    expect(bMessages.map((m) => m.seq)).toEqual([1, 2]);
    expect(aUnread).toEqual([]);

    const read = await call(sb, 'group:read', { groupCode: group, seq: 2 });
    expect(read.ok).toBe(true);
    expect(read.unread.groups[group]).toBeUndefined();
    const rest = await t.http().get('/api/message/UnreadCount').set(as(b)).expect(200);
    expect(read.unread.total).toBe(rest.body.total);
  });

  it('delivers to the participants a group has now, after others join it or leave it between messages', async () => {
    const c = await createUser(t);
    const group = await createGroup(t, [a, b]);
    const [sa, sb, sc] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token), connect(t.url, c.token)]);
    const bMessages = record(sb, 'message:new');
    const cMessages = record(sc, 'message:new');
    const send = async (clientKey: string) => {
      expect(await call(sa, 'message:send', { groupCode: group, clientKey, message: clientKey })).toMatchObject({ ok: true });
    };

    await send('-before');
    await waitFor(() => bMessages.length === 1);
    await t
      .http()
      .post(`/api/message/group/${group}/participants`)
      .set(as(a))
      .send({ participants: [c.user.code] })
      .expect(200);
    await send('-joined');
    await waitFor(() => cMessages.length === 1 && bMessages.length === 2);
    expect(cMessages[0]).toMatchObject({ clientKey: '-joined' });

    // A participant row removed by any means (here, as a user's deletion would cascade) ends the deliveries.
    await t.app
      .get(DataSource)
      .query(
        `DELETE FROM chat_participant WHERE group_id = (SELECT id FROM chat_group WHERE code = $1) AND user_id = (SELECT id FROM "user" WHERE code = $2)`,
        [group, b.user.code],
      );
    await send('-left');
    await waitFor(() => cMessages.length === 2);
    // A moment more, for a delivery to b that should not come.
    await pause(200);
    expect(bMessages.map((m) => m.clientKey)).toEqual(['-before', '-joined']);
  });

  it('delivers short, long and multi-byte texts byte for byte to every socket of a recipient', async () => {
    const group = await createGroup(t, [a, b]);
    const [sa, sb, sb2] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token), connect(t.url, b.token)]);
    const received = [record(sb, 'message:new'), record(sb2, 'message:new')];
    // A short text, a long one, and the longest allowed, where characters and UTF-8 bytes differ (ż, emoji).
    const texts = ['short ż', 'x'.repeat(500), ' żółć 🙂'.repeat(1_250).trim()];
    for (const [i, message] of texts.entries()) {
      expect((await call(sa, 'message:send', { groupCode: group, clientKey: `-f${i}`, message })).ok).toBe(true);
    }
    await waitFor(() => received.every((list) => list.length === texts.length));
    for (const list of received) expect(list.map((m) => m.message)).toEqual(texts);
  });

  it('delivers the same messages and counts, in order, to a long-polling socket and a WebSocket of one recipient', async () => {
    const group = await createGroup(t, [a, b]);
    const [sa, sbWs, sbPolling] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token), connect(t.url, b.token, { transports: ['polling'] })]);
    const messages = [record(sbWs, 'message:new'), record(sbPolling, 'message:new')];
    const counts = [record(sbWs, 'unread:count'), record(sbPolling, 'unread:count')];
    const sends = Array.from({ length: 5 }, (_, i) => call(sa, 'message:send', { groupCode: group, clientKey: `-p${i}`, message: `to both ${i}` }));
    expect((await Promise.all(sends)).every((ack) => ack.ok)).toBe(true);
    await waitFor(() => messages.every((list) => list.length === 5) && counts.every((list) => list.at(-1)?.groups[group] === 5));
    for (const list of messages) expect(list.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(counts[1].map((c) => c.groups[group])).toEqual(counts[0].map((c) => c.groups[group]));
  });

  it('lets a reconnecting client catch up with sync: every missed message once, in order', async () => {
    // A sender of its own: send budgets are per user, and the tests above spent some of a's.
    const writer = await createUser(t);
    const group = await createGroup(t, [writer, b]);
    const sa = await connect(t.url, writer.token);
    const first = await call(sa, 'message:send', { groupCode: group, clientKey: 'c0', message: 'before' });
    for (let i = 1; i <= 20; i++) await call(sa, 'message:send', { groupCode: group, clientKey: `c${i}`, message: `missed ${i}` });
    const sb = await connect(t.url, b.token);
    const res = await call(sb, 'sync', {
      groups: [
        { groupCode: group, afterSeq: first.message.seq },
        { groupCode: 'notMyGroup123', afterSeq: 0 },
      ],
    });
    expect(res.ok).toBe(true);
    expect(res.messages.map((m: { seq: number }) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    expect(res.more).toEqual([]);
    expect(res.missing).toEqual(['notMyGroup123']);
  });

  it('still delivers when the ordering record was lost (Redis flushed): held, then let through', async () => {
    const group = await createGroup(t, [a, b]);
    const [sa, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token)]);
    await call(sa, 'message:send', { groupCode: group, clientKey: 'r1', message: 'one' });
    const redis = t.app.get(RedisService);
    await redis.client.del(redis.key('fanout', 'last', group));
    const late = next(sb, 'message:new', (m) => m.message === 'two', 6000);
    await call(sa, 'message:send', { groupCode: group, clientKey: 'r2', message: 'two' });
    expect((await late).seq).toBe(2);
    const third = next(sb, 'message:new', (m) => m.message === 'three', 2000);
    await call(sa, 'message:send', { groupCode: group, clientKey: 'r3', message: 'three' });
    expect((await third).seq).toBe(3);
  });

  it('shows typing to the other participants only', async () => {
    const c = await createUser(t);
    const group = await createGroup(t, [a, b]);
    const [sa, sb, sc] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token), connect(t.url, c.token)]);
    const aTyping = record(sa, 'typing');
    const cTyping = record(sc, 'typing');
    sa.emit('typing', { groupCode: group });
    expect(await next(sb, 'typing')).toEqual({ groupCode: group, userCode: a.user.code });
    sc.emit('typing', { groupCode: group });
    await call(sa, 'sync', { groups: [] });
    expect(aTyping).toEqual([]);
    expect(cTyping).toEqual([]);
  });

  it('pushes presence on connect and disconnect to watchers, and the REST statuses agree', async () => {
    const watcher = await connect(t.url, b.token);
    const c = await createUser(t);
    // Presence is for people one deals with (security-chat-groups): b and c share a chat.
    await createGroup(t, [b, c]);
    const watched = await call(watcher, 'presence:watch', { userCodes: [c.user.code] });
    expect(watched.statuses).toEqual([expect.objectContaining({ userCode: c.user.code, online: false })]);

    const online = next(watcher, 'presence', (p) => p.userCode === c.user.code && p.online);
    const sc = await connect(t.url, c.token);
    expect(await online).toMatchObject({ away: 0 });
    const statuses = await t
      .http()
      .post('/api/user/statuses')
      .set(as(b))
      .send({ userIds: [c.user.code] });
    if (statuses.status === 200) expect(statuses.body[0]).toMatchObject({ userCode: c.user.code, online: true });

    const offline = next(watcher, 'presence', (p) => p.userCode === c.user.code && !p.online);
    sc.close();
    await offline;

    const foreign = await createUser(t, { instanceId: (await createInstance(t)).id });
    const hidden = await call(watcher, 'presence:watch', { userCodes: [foreign.user.code] });
    expect(hidden.statuses).toEqual([]);
  });

  it('lets moderators watch rooms openly and refuses everyone else with 403', async () => {
    // An instance of its own: the busiest-rooms list below is the instance's top 20, and other test files fill
    // the default instance with busier rooms while this one runs.
    const instanceId = (await createInstance(t)).id;
    const [a, b] = await Promise.all([createUser(t, { instanceId }), createUser(t, { instanceId })]);
    const group = await createGroup(t, [a, b]);
    const admin = await createUser(t, { role: Role.InstanceAdmin, instanceId });
    const [sa, sAdmin] = await Promise.all([connect(t.url, a.token), connect(t.url, admin.token)]);

    expect(await call(sa, 'room:watch', { groupCode: group })).toEqual({ ok: false, error: { code: 403, message: 'SHARED.ERROR.FORBIDDEN' } });
    const foreignAdmin = await createUser(t, { role: Role.InstanceAdmin, instanceId: (await createInstance(t)).id });
    const sForeign = await connect(t.url, foreignAdmin.token);
    expect((await call(sForeign, 'room:watch', { groupCode: group })).error.code).toBe(403);

    const flagged = next(sa, 'group:updated', (g) => g.code === group && g.watched === true);
    expect(await call(sAdmin, 'room:watch', { groupCode: group })).toEqual({ ok: true });
    await flagged;
    const view = await t.http().get(`/api/message/groups/${group}`).set(as(a)).expect(200);
    expect(view.body.watched).toBe(true);

    const seen = next(sAdmin, 'message:new', (m) => m.groupCode === group);
    const sent = await call(sa, 'message:send', { groupCode: group, clientKey: 'w1', message: 'watched' });
    expect((await seen).code).toBe(sent.message.code);
    await t.http().delete(`/api/message/groups/${group}/messages/${sent.message.code}`).set(as(admin)).expect(204);

    const unflagged = next(sa, 'group:updated', (g) => g.code === group && g.watched === false);
    expect(await call(sAdmin, 'room:unwatch', { groupCode: group })).toEqual({ ok: true });
    await unflagged;

    const audit = await t.http().get('/api/admin/audit').set(as(admin)).expect(200);
    const mine = audit.body.entries.filter((e: { groupCode: string }) => e.groupCode === group).map((e: { action: string }) => e.action);
    expect(mine).toEqual(['room.unwatch', 'message.delete', 'room.watch']);
    await t.http().get('/api/admin/audit').set(as(a)).expect(403);
    const foreignAudit = await t.http().get('/api/admin/audit').set(as(foreignAdmin)).expect(200);
    expect(foreignAudit.body.entries.some((e: { groupCode: string }) => e.groupCode === group)).toBe(false);

    const rooms = await t.http().get('/api/admin/rooms?minutes=5').set(as(admin)).expect(200);
    const room = rooms.body.find((r: { code: string }) => r.code === group);
    expect(room).toMatchObject({ messages: 1, participants: 2, connectedParticipants: 1, watched: false });
    await t.http().get('/api/admin/rooms?minutes=0').set(as(admin)).expect(422);
  });

  it('answers malformed events with error acks and keeps the socket', async () => {
    const group = await createGroup(t, [a, b]);
    const outsiderGroup = await createGroup(t, [b, await createUser(t)]);
    const sa = await connect(t.url, a.token);
    const bad: [string, unknown, number][] = [
      ['message:send', 'not an object', 422],
      ['message:send', [1, 2], 422],
      ['message:send', null, 422],
      ['message:send', { groupCode: group, clientKey: 'x', message: 42 }, 422],
      ['message:send', { groupCode: group, clientKey: 'x', message: 'y'.repeat(10_001) }, 422],
      ['message:send', { groupCode: group, message: 'no key' }, 422],
      ['message:send', { groupCode: 'unknownGroup12', clientKey: 'x', message: 'hi' }, 404],
      ['message:send', { groupCode: outsiderGroup, clientKey: 'x', message: 'hi' }, 404],
      ['group:read', { groupCode: group, seq: 'all' }, 422],
      ['group:read', { groupCode: outsiderGroup, seq: 1 }, 404],
      ['sync', { groups: 'everything' }, 422],
      ['sync', { groups: Array.from({ length: 101 }, () => ({ groupCode: group, afterSeq: 0 })) }, 422],
      ['presence:watch', { userCodes: 'me' }, 422],
      ['room:watch', { groupCode: 5 }, 422],
      ['auth:refresh', { token: 'nope' }, 401],
    ];
    for (const [event, payload, code] of bad) {
      const res = await call(sa, event, payload);
      expect([event, res.ok, res.error?.code]).toEqual([event, false, code]);
    }
    sa.emit('typing', 'garbage');
    sa.emit('activity', null);
    expect(sa.connected).toBe(true);
    const ok = await call(sa, 'message:send', { groupCode: group, clientKey: 'fine', message: 'still here' });
    expect(ok.ok).toBe(true);
  });

  it('limits the send rate per user with an error ack, keeping the socket', async () => {
    const group = await createGroup(t, [a, b]);
    const sa = await connect(t.url, a.token);
    const replies = await Promise.all(
      Array.from({ length: 45 }, (_, i) => call(sa, 'message:send', { groupCode: group, clientKey: `burst${i}`, message: `m${i}` })),
    );
    const limited = replies.filter((r) => !r.ok);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].error).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: 1 } });
    expect(sa.connected).toBe(true);
  });
});
