import { DataSource } from 'typeorm';
import { DomainEvents } from '../../server/src/common/events/domain-events';
import { MessageCreatedEvent } from '#shared/contracts/events';
import { Role } from '#shared/contracts/roles';
import { createGroup, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

describe('chat messages', () => {
  let t: TestApp;
  let a: TestUser, b: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  const send = (u: TestUser, group: string, body: object) => t.http().post(`/api/message/groups/${group}`).set(as(u)).send(body);
  const unread = async (u: TestUser) => (await t.http().get('/api/message/UnreadCount').set(as(u)).expect(200)).body;

  beforeAll(async () => {
    t = await createTestApp();
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterAll(() => t.close());

  it('stores a message with its seq, outbox row and a message.created event after commit', async () => {
    const group = await createGroup(t, [a, b]);
    const events: MessageCreatedEvent[] = [];
    const off = t.app.get(DomainEvents).on('message.created', (e) => void events.push(e));
    const res = await send(a, group, { message: '  hi there  ', lang: 'pol', clientKey: '-tmp1' }).expect(201);
    off();
    expect(res.body).toMatchObject({
      groupCode: group,
      seq: 1,
      message: 'hi there',
      language: 'pol',
      userCode: a.user.code,
      clientKey: '-tmp1',
      deleted: false,
      files: [],
    });
    expect(res.body.user).toMatchObject({ code: a.user.code, name: a.user.name });
    expect(events).toHaveLength(1);
    expect(events[0].message.code).toBe(res.body.code);
    expect(events[0].participantCodes.sort()).toEqual([a.user.code, b.user.code].sort());

    const db = t.app.get(DataSource);
    const outbox = await db.query(
      `SELECT topic, payload FROM outbox WHERE payload->>'seq' = '1' AND payload->>'messageId' = (SELECT id::text FROM chat_message WHERE code = $1)`,
      [res.body.code],
    );
    expect(outbox).toEqual([{ topic: 'message.created', payload: expect.objectContaining({ seq: 1 }) }]);
  });

  it('returns the stored message for a repeated client key, once', async () => {
    const group = await createGroup(t, [a, b]);
    const first = await send(a, group, { message: 'once', clientKey: 'key-1' }).expect(201);
    const again = await send(a, group, { message: 'once', clientKey: 'key-1' }).expect(201);
    expect(again.body.code).toBe(first.body.code);
    expect(again.body.seq).toBe(1);
    // The same key from someone else is their own message.
    const other = await send(b, group, { message: 'mine', clientKey: 'key-1' }).expect(201);
    expect(other.body.seq).toBe(2);
    const parallel = await Promise.all([1, 2, 3, 4].map(() => send(a, group, { message: 'race', clientKey: 'key-2' })));
    expect(new Set(parallel.map((r) => r.body.code)).size).toBe(1);
    const page = await t.http().post(`/api/message/groups/${group}/messages`).set(as(a)).send({}).expect(200);
    expect(page.body.messages.map((m: { seq: number }) => m.seq)).toEqual([1, 2, 3]);
  });

  it('gives 50 parallel sends from 5 users seqs 1..50 with no gap and no duplicate', async () => {
    const users = [a, b, ...(await Promise.all([createUser(t), createUser(t), createUser(t)]))];
    const group = await createGroup(t, users);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => send(users[i % 5], group, { message: `m${i}`, clientKey: `k${i}` })));
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.map((r) => r.body.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('rejects empty, overlong and malformed messages, changing nothing', async () => {
    const group = await createGroup(t, [a, b]);
    const bad: [object, number][] = [
      [{ message: '   ' }, 422],
      [{}, 422],
      [{ message: 'x'.repeat(10_001) }, 422],
      [{ message: ['x'] }, 422],
      [{ message: 'x', clientKey: 'has space' }, 422],
      [{ message: 'x', files: ['nope!'] }, 422],
      [{ message: 'x', files: ['unknownFileCode1'] }, 422],
      [{ message: 'x', bogus: true }, 422],
    ];
    for (const [body, status] of bad) {
      const res = await send(a, group, body);
      expect([res.status, res.body.code]).toEqual([status, status]);
    }
    const ok = await send(a, group, { message: 'x'.repeat(10_000) }).expect(201);
    expect(ok.body.seq).toBe(1);
  });

  it('pages newest first by time, by seq and after a seq', async () => {
    const group = await createGroup(t, [a, b]);
    for (let i = 1; i <= 120; i++) await send(i % 2 ? a : b, group, { message: `n${i}` }).expect(201);
    const page = (body: object) => t.http().post(`/api/message/groups/${group}/messages`).set(as(a)).send(body).expect(200);

    const newest = await page({ lang: 'eng' });
    expect(newest.body.messages).toHaveLength(50);
    expect(newest.body.messages[0].seq).toBe(71);
    expect(newest.body.messages[49].seq).toBe(120);
    expect(newest.body.mayLoadOlder).toBe(true);

    const older = await page({ beforeSeq: 71 });
    expect(older.body.messages.map((m: { seq: number }) => m.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 21 + i));
    const oldest = await page({ beforeSeq: 21 });
    expect(oldest.body.messages).toHaveLength(20);
    expect(oldest.body.mayLoadOlder).toBe(false);

    const byTime = await page({ time: newest.body.messages[0].createdAt });
    const seqs = byTime.body.messages.map((m: { seq: number }) => m.seq);
    expect(seqs[seqs.length - 1]).toBeLessThan(71);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));

    const after = await page({ afterSeq: 100 });
    expect(after.body.messages.map((m: { seq: number }) => m.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 101 + i));
    expect(after.body.mayLoadNewer).toBe(false);
    const afterMore = await page({ afterSeq: 0 });
    expect(afterMore.body.messages).toHaveLength(50);
    expect(afterMore.body.mayLoadNewer).toBe(true);

    for (const body of [{ time: 'yesterday' }, { beforeSeq: 0 }, { afterSeq: -1 }, { afterSeq: '3' }, { lang: 'klingon' }]) {
      await t.http().post(`/api/message/groups/${group}/messages`).set(as(a)).send(body).expect(422);
    }
  });

  it('keeps unread counts exact through sends, reads, deletes and new participants', async () => {
    const c = await createUser(t);
    const group = await createGroup(t, [a, b]);
    const base = (await unread(b)).total;
    const m1 = (await send(a, group, { message: '1' })).body;
    await send(a, group, { message: '2' });
    await send(a, group, { message: '3' });
    expect((await unread(b)).groups[group]).toBe(3);
    expect((await unread(b)).total).toBe(base + 3);
    expect((await unread(a)).groups[group]).toBeUndefined();

    await t.http().delete(`/api/message/groups/${group}/messages/${m1.code}`).set(as(a)).expect(204);
    expect((await unread(b)).groups[group]).toBe(2);

    // b replies: sending moves b's own marker, so b has read everything before it.
    await send(b, group, { message: 'reply' });
    expect((await unread(b)).groups[group]).toBeUndefined();
    expect((await unread(a)).groups[group]).toBe(1);

    await t
      .http()
      .post(`/api/message/group/${group}/participants`)
      .set(as(a))
      .send({ participants: [c.user.code] })
      .expect(200);
    expect((await unread(c)).groups[group]).toBeUndefined();
    await send(a, group, { message: 'welcome' });
    expect((await unread(c)).groups[group]).toBe(1);

    const read = await t.http().post(`/api/message/groups/${group}/read`).set(as(c)).send({ seq: 999 }).expect(200);
    expect(read.body.readSeq).toBe(5);
    expect(read.body.unread.groups[group]).toBeUndefined();
    // The marker never moves back.
    const back = await t.http().post(`/api/message/groups/${group}/read`).set(as(c)).send({ seq: 1 }).expect(200);
    expect(back.body.readSeq).toBe(5);

    // Reading the newest page marks the group read.
    await send(c, group, { message: 'thanks' });
    expect((await unread(a)).groups[group]).toBe(1);
    await t.http().post(`/api/message/groups/${group}/messages`).set(as(a)).send({}).expect(200);
    expect((await unread(a)).groups[group]).toBeUndefined();
  });

  it('deletes as the author or a moderator, leaving a marker', async () => {
    const group = await createGroup(t, [a, b]);
    const m = (await send(a, group, { message: 'secret' })).body;
    await t.http().delete(`/api/message/groups/${group}/messages/${m.code}`).set(as(b)).expect(403);
    const admin = await createUser(t, { role: Role.InstanceAdmin });
    await t.http().delete(`/api/message/groups/${group}/messages/${m.code}`).set(as(admin)).expect(204);
    await t.http().delete(`/api/message/groups/${group}/messages/${m.code}`).set(as(a)).expect(204);
    const page = await t.http().post(`/api/message/groups/${group}/messages`).set(as(b)).send({}).expect(200);
    expect(page.body.messages[0]).toMatchObject({ code: m.code, deleted: true, message: '', seq: 1 });
    await t.http().delete(`/api/message/groups/${group}/messages/unknownMessage1`).set(as(a)).expect(404);
  });

  it('answers outsiders, other instances and anonymous callers without revealing anything', async () => {
    const group = await createGroup(t, [a, b]);
    const m = (await send(a, group, { message: 'x' })).body;
    const outsider = await createUser(t);
    const { createInstance } = await import('../factories');
    const foreign = await createUser(t, { instanceId: (await createInstance(t)).id });
    const calls = (u?: TestUser) => {
      const h = u ? as(u) : {};
      return [
        t.http().get(`/api/message/groups/${group}`).set(h),
        t.http().post(`/api/message/groups/${group}`).set(h).send({ message: 'intrude' }),
        t.http().post(`/api/message/groups/${group}/messages`).set(h).send({}),
        t.http().post(`/api/message/groups/${group}/read`).set(h).send({ seq: 1 }),
        t.http().patch(`/api/message/groups/${group}`).set(h).send({ name: 'mine' }),
        t
          .http()
          .post(`/api/message/group/${group}/participants`)
          .set(h)
          .send({ participants: [b.user.code] }),
        t.http().delete(`/api/message/groups/${group}/messages/${m.code}`).set(h),
      ];
    };
    for (const who of [outsider, foreign]) {
      for (const res of await Promise.all(calls(who))) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ code: 404, message: 'SHARED.ERROR.NOT_FOUND' });
      }
    }
    for (const res of await Promise.all(calls())) expect(res.status).toBe(401);
    // A group that doesn't exist answers exactly the same.
    const missing = await t.http().post('/api/message/groups/doesNotExist123').set(as(outsider)).send({ message: 'x' });
    expect(missing.body).toEqual({ code: 404, message: 'SHARED.ERROR.NOT_FOUND' });
    const page = await t.http().post(`/api/message/groups/${group}/messages`).set(as(a)).send({}).expect(200);
    expect(page.body.messages.map((x: { message: string }) => x.message)).toEqual(['x']);
  });
});
