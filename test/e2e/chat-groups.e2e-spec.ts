import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { postJob } from './marketplace.helpers';

describe('chat groups', () => {
  let t: TestApp;
  let a: TestUser, b: TestUser, c: TestUser, foreign: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    t = await createTestApp({ CHAT_MAX_PARTICIPANTS: '4' });
    [a, b, c] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
    const other = await createInstance(t);
    foreign = await createUser(t, { instanceId: other.id });
  });
  afterAll(() => t.close());

  it('starts a direct chat with a first message and reuses it for the same people', async () => {
    const first = await t
      .http()
      .put('/api/message/groups')
      .set(as(a))
      .send({ userList: [b.user.code], message: 'hello', lang: 'eng' })
      .expect(200);
    expect(first.body.message).toMatchObject({ seq: 1, message: 'hello', language: 'eng', userCode: a.user.code, type: 1 });
    expect(first.body.group).toMatchObject({ type: 1, lastSeq: 1, participantCount: 2, unread: 0, readSeq: 1 });
    expect(first.body.group.participants.map((p: { userCode: string }) => p.userCode).sort()).toEqual([a.user.code, b.user.code].sort());

    const again = await t
      .http()
      .put('/api/message/groups')
      .set(as(b))
      .send({ userList: [a.user.code] })
      .expect(200);
    expect(again.body.group.code).toBe(first.body.group.code);
    expect(again.body.message).toBeNull();
    expect(again.body.group.unread).toBe(1);

    const fresh = await t
      .http()
      .put('/api/message/groups')
      .set(as(a))
      .send({ userList: [b.user.code], createNewGroup: true })
      .expect(200);
    expect(fresh.body.group.code).not.toBe(first.body.group.code);

    const found = await t
      .http()
      .post('/api/message/by-users')
      .set(as(a))
      .send({ userList: [b.user.code] })
      .expect(200);
    expect(found.body.group.code).toBe(first.body.group.code);
    const none = await t
      .http()
      .post('/api/message/by-users')
      .set(as(a))
      .send({ userList: [c.user.code] })
      .expect(200);
    expect(none.body).toEqual({ group: null });
  });

  it('refuses users of another instance and unknown codes without saying which', async () => {
    for (const code of [foreign.user.code, 'unknownUserCode01']) {
      const res = await t
        .http()
        .put('/api/message/groups')
        .set(as(a))
        .send({ userList: [code], message: 'x' })
        .expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['CHAT.UNKNOWN_USERS'] } });
    }
  });

  it('validates bodies strictly', async () => {
    const bad = [
      {},
      { userList: 'x' },
      { userList: [] },
      { userList: [b.user.code], extra: 1 },
      { userList: [b.user.code], message: 5 },
      { userList: [b.user.code], message: 'x'.repeat(10_001) },
      { userList: [b.user.code], lang: 'xx' },
      { userList: [b.user.code], createNewGroup: 'yes' },
    ];
    for (const body of bad) {
      const res = await t.http().put('/api/message/groups').set(as(a)).send(body);
      expect([res.status, res.body.code]).toEqual([422, 422]);
      expect(res.body.data.brokenRules.length).toBeGreaterThan(0);
    }
  });

  it('lists groups newest activity first with unread counts and the last message', async () => {
    const me = await createUser(t);
    const g1 = (
      await t
        .http()
        .put('/api/message/groups')
        .set(as(me))
        .send({ userList: [a.user.code], message: 'one' })
    ).body.group;
    const g2 = (
      await t
        .http()
        .put('/api/message/groups')
        .set(as(me))
        .send({ userList: [b.user.code], message: 'two' })
    ).body.group;
    await t.http().post(`/api/message/groups/${g1.code}`).set(as(a)).send({ message: 'reply' }).expect(201);

    const list = await t.http().get('/api/message/groups?lang=eng&fresh=1').set(as(me)).expect(200);
    expect(list.body.groups.map((g: { code: string }) => g.code)).toEqual([g1.code, g2.code]);
    expect(list.body.groups[0]).toMatchObject({ unread: 1, lastMessage: { message: 'reply', userCode: a.user.code } });
    expect(list.body.groups[1]).toMatchObject({ unread: 0, lastMessage: { message: 'two' } });

    const paged = await t.http().get('/api/message/groups?page=2&pageSize=1').set(as(me)).expect(200);
    expect(paged.body).toMatchObject({ page: 2, pageSize: 1, hasMore: false });
    expect(paged.body.groups.map((g: { code: string }) => g.code)).toEqual([g2.code]);
    await t.http().get('/api/message/groups?pageSize=1000').set(as(me)).expect(422);
  });

  it('renames, adds participants up to the limit, and hides groups from outsiders', async () => {
    const { body } = await t
      .http()
      .put('/api/message/groups')
      .set(as(a))
      .send({ userList: [b.user.code], createNewGroup: true, message: 'm' });
    const code = body.group.code;
    const renamed = await t.http().patch(`/api/message/groups/${code}`).set(as(b)).send({ name: ' Team ', subtitle: 'plans' }).expect(200);
    expect(renamed.body).toMatchObject({ name: 'Team', subtitle: 'plans' });
    await t.http().patch(`/api/message/groups/${code}`).set(as(b)).send({}).expect(422);
    await t.http().patch(`/api/message/groups/${code}`).set(as(c)).send({ name: 'x' }).expect(404);

    const added = await t
      .http()
      .post(`/api/message/group/${code}/participants`)
      .set(as(a))
      .send({ participants: [c.user.code] })
      .expect(200);
    expect(added.body.participantCount).toBe(3);
    // c joined after the first message: history visible, nothing unread.
    const cView = await t.http().get(`/api/message/groups/${code}`).set(as(c)).expect(200);
    expect(cView.body).toMatchObject({ unread: 0, readSeq: 1 });

    const d = await createUser(t);
    const e = await createUser(t);
    const tooMany = await t
      .http()
      .post(`/api/message/group/${code}/participants`)
      .set(as(a))
      .send({ participants: [d.user.code, e.user.code] });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.data.brokenRules).toEqual(['CHAT.TOO_MANY_PARTICIPANTS']);
  });

  it('opens one group per target and never hands an existing one to an outsider', async () => {
    const target = await postJob(t, a);
    const opened = await t
      .http()
      .post(`/api/message/groups/target/3/${target}`)
      .set(as(a))
      .send({ participants: [b.user.code] })
      .expect(201);
    expect(opened.body).toMatchObject({ type: 3, targetId: target, participantCount: 2 });
    const again = await t.http().post(`/api/message/groups/target/3/${target}`).set(as(b)).send({}).expect(201);
    expect(again.body.code).toBe(opened.body.code);

    await t.http().post(`/api/message/groups/target/3/${target}`).set(as(c)).send({}).expect(404);
    const outsiderLookup = await t.http().get(`/api/message/by-target/3/${target}`).set(as(c)).expect(200);
    expect(outsiderLookup.body).toEqual({ group: null });
    const lookup = await t.http().get(`/api/message/by-target/3/${target}`).set(as(b)).expect(200);
    expect(lookup.body.group.code).toBe(opened.body.code);

    const withMessage = await t
      .http()
      .post('/api/message/groups/target')
      .set(as(a))
      .send({ targetType: 2, targetId: target, participants: [], message: 'question?', lang: 'eng' })
      .expect(201);
    expect(withMessage.body.group.type).toBe(2);
    expect(withMessage.body.message).toMatchObject({ seq: 1, message: 'question?' });

    await t.http().get('/api/message/by-target/9/x12345').set(as(a)).expect(422);
    await t.http().post('/api/message/groups/target').set(as(a)).send({ targetType: 1, targetId: 'abc' }).expect(422);
  });

  it('lets moderators in scope observe a group, nobody else', async () => {
    const { body } = await t
      .http()
      .put('/api/message/groups')
      .set(as(a))
      .send({ userList: [b.user.code], createNewGroup: true, message: 'private' });
    const code = body.group.code;
    const admin = await createUser(t, { role: Role.InstanceAdmin });
    const observed = await t.http().get(`/api/message/groups/${code}`).set(as(admin)).expect(200);
    expect(observed.body).toMatchObject({ code, readSeq: 0, unread: 0 });
    const otherInstance = await createInstance(t);
    const foreignAdmin = await createUser(t, { role: Role.InstanceAdmin, instanceId: otherInstance.id });
    await t.http().get(`/api/message/groups/${code}`).set(as(foreignAdmin)).expect(404);
    const globalAdmin = await createUser(t, { role: Role.GlobalAdmin, instanceId: otherInstance.id });
    await t.http().get(`/api/message/groups/${code}`).set(as(globalAdmin)).expect(200);
  });

  it('creates groups in the database with participants and no stray rows', async () => {
    const db = t.app.get(DataSource);
    const { body } = await t
      .http()
      .put('/api/message/groups')
      .set(as(a))
      .send({ userList: [c.user.code], createNewGroup: true });
    const [row] = await db.query(
      `SELECT g.last_seq, count(p.*)::int AS n FROM chat_group g JOIN chat_participant p ON p.group_id = g.id WHERE g.code = $1 GROUP BY g.id`,
      [body.group.code],
    );
    expect(row).toEqual({ last_seq: '0', n: 2 });
  });
});
