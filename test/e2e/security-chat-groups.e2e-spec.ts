import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { PresenceService } from '#shared/presence/presence.service';
import { DetachOutsiderJobChats1764480100000 } from '../../migrations/1764480100000-DetachOutsiderJobChats';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { as, makeOffer, postJob } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

/** Issue 36, items 7 (renames), 10, 13 and 14: who sees whose presence, how far one person can fill chats, leaving them, job chats. */
describe('security: chat groups and presence', () => {
  let t: ListeningApp;
  let db: DataSource;
  let presence: PresenceService;

  beforeAll(async () => {
    t = await listenTestApp({
      CHAT_PEOPLE_PER_CALL: '4',
      CHAT_PEOPLE_PER_GROUP: '6',
      CHAT_GROUP_CREATE_RATE_LIMIT: '100000',
      CHAT_PEOPLE_ADD_RATE_LIMIT: '100000',
      CHAT_RENAME_RATE_LIMIT: '5',
      CHAT_RENAME_RATE_WINDOW: '60',
    });
    db = t.app.get(DataSource);
    presence = t.app.get(PresenceService);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  const users = (n: number) => Promise.all(Array.from({ length: n }, () => createUser(t)));
  const codes = (list: TestUser[]) => list.map((u) => u.user.code);
  const statuses = (viewer: TestUser, of: TestUser[]) =>
    t
      .http()
      .post('/api/user/statuses')
      .set(as(viewer))
      .send({ userIds: codes(of) })
      .expect(200)
      .then((r) => (r.body as { userCode: string }[]).map((s) => s.userCode).sort());

  describe('item 10: exact presence only for people one deals with', () => {
    it('answers statuses only for people who share a chat or an offer with the caller, or whom a moderator in scope looks after', async () => {
      const [viewer, chatMate, stranger, faqMate, customer] = await users(5);
      const foreign = await createUser(t, { instanceId: (await createInstance(t)).id });
      const admin = await createUser(t, { role: Role.InstanceAdmin });
      const globalAdmin = await createUser(t, { role: Role.GlobalAdmin });
      const globalUser = await createUser(t, { role: Role.GlobalUser });
      await Promise.all([viewer, chatMate, stranger, faqMate, customer, foreign].map((u) => presence.recordActivity(u.user.code, true)));
      await createGroup(t, [viewer, chatMate]);
      // The viewer's offer on the customer's job.
      await makeOffer(t, viewer, await postJob(t, customer));
      // A job's FAQ is open to everyone who sees the job: being in one is no dealing with its other askers.
      const faqJob = await postJob(t, await createUser(t));
      for (const u of [viewer, faqMate]) await t.http().get(`/api/job/${faqJob}/faq`).set(as(u)).expect(200);

      expect(await statuses(viewer, [viewer, chatMate, stranger, faqMate, customer, foreign])).toEqual(codes([viewer, chatMate, customer]).sort());
      expect(await statuses(customer, [viewer, chatMate])).toEqual([viewer.user.code]);
      expect(await statuses(stranger, [viewer, chatMate, customer])).toEqual([]);
      expect(await statuses(globalUser, [viewer, foreign])).toEqual([]);
      expect(await statuses(admin, [viewer, stranger, foreign])).toEqual(codes([viewer, stranger]).sort());
      expect(await statuses(globalAdmin, [viewer, foreign])).toEqual(codes([viewer, foreign]).sort());

      // Profiles carry no away minutes for strangers either.
      const profile = (viewerOf: TestUser, of: TestUser) => t.http().get(`/api/user/${of.user.code}`).set(as(viewerOf)).expect(200);
      expect((await profile(stranger, viewer)).body.away).toBeNull();
      expect((await profile(chatMate, viewer)).body.away).toBe(0);
      const listed = await t
        .http()
        .post('/api/user/list')
        .set(as(stranger))
        .send({ userIds: codes([viewer, chatMate]) })
        .expect(200);
      expect(listed.body.map((u: { away: number | null }) => u.away)).toEqual([null, null]);
    });

    it('lets presence:watch follow only those people: strangers get no status and no live presence', async () => {
      const [watched, mate, stranger] = await users(3);
      await createGroup(t, [mate, watched]);
      const sMate = await connect(t.url, mate.token);
      const sStranger = await connect(t.url, stranger.token);
      const mateAck = await call(sMate, 'presence:watch', { userCodes: [watched.user.code] });
      const strangerAck = await call(sStranger, 'presence:watch', { userCodes: [watched.user.code] });
      expect(mateAck).toEqual({ ok: true, statuses: [expect.objectContaining({ userCode: watched.user.code, online: false })] });
      expect(strangerAck).toEqual({ ok: true, statuses: [] });

      const heardByStranger = record(sStranger, 'presence');
      const online = next(sMate, 'presence', (p: { userCode: string }) => p.userCode === watched.user.code);
      await connect(t.url, watched.token);
      expect(await online).toMatchObject({ userCode: watched.user.code, online: true });
      expect(heardByStranger).toEqual([]);
    });
  });

  describe('item 13: how many people one person can put in chats, and leaving', () => {
    it('caps the people one call names and the people one person brings into one group', async () => {
      const [creator, other] = await users(2);
      const crowd = await users(7);
      const tooMany = await t
        .http()
        .put('/api/message/groups')
        .set(as(creator))
        .send({ userList: codes(crowd.slice(0, 5)), message: 'hello all' });
      expect(tooMany.status).toBe(422);
      expect(tooMany.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['CHAT.TOO_MANY_PEOPLE_AT_ONCE'], max: 4 } });
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM chat_group WHERE created_by = $1`, [creator.user.id]);
      expect(n).toBe(0);

      const started = await t
        .http()
        .put('/api/message/groups')
        .set(as(creator))
        .send({ userList: codes([other, ...crowd.slice(0, 3)]), createNewGroup: true })
        .expect(200);
      const group = started.body.group.code;
      const add = (who: TestUser, people: TestUser[]) =>
        t
          .http()
          .post(`/api/message/group/${group}/participants`)
          .set(as(who))
          .send({ participants: codes(people) });
      await add(creator, crowd.slice(3, 5)).expect(200);
      // The creator has brought 6 people into this group: no more from them, in any number of calls.
      const more = await add(creator, crowd.slice(5, 6));
      expect(more.status).toBe(422);
      expect(more.body.data).toEqual({ brokenRules: ['CHAT.TOO_MANY_PEOPLE_ADDED'], max: 6 });
      // Someone else in the chat still may.
      await add(other, crowd.slice(5, 7)).expect(200);
      const view = await t.http().get(`/api/message/groups/${group}`).set(as(creator)).expect(200);
      expect(view.body.participantCount).toBe(9);
    });

    it('leaves a group: gone from its people, its list, its messages and its unread counts; the others are told', async () => {
      const [leaver, stayer, third] = await users(3);
      const group = await createGroup(t, [stayer, leaver, third]);
      await t.http().post(`/api/message/groups/${group}`).set(as(stayer)).send({ message: 'unread by the leaver' }).expect(201);
      expect((await t.http().get('/api/message/UnreadCount').set(as(leaver)).expect(200)).body.total).toBe(1);
      const sStayer = await connect(t.url, stayer.token);
      const sLeaver = await connect(t.url, leaver.token);
      const toStayer = next<{ code: string; participants: { userCode: string }[] }>(sStayer, 'group:updated', (g) => g.code === group);
      const toLeaver = next<{ code: string; participants: { userCode: string }[] }>(sLeaver, 'group:updated', (g) => g.code === group);
      const unreadToLeaver = next(sLeaver, 'unread:count');

      await t.http().delete(`/api/message/group/${group}/participants/me`).set(as(leaver)).expect(204);

      const told = await toStayer;
      expect(told.participants.map((p: { userCode: string }) => p.userCode).sort()).toEqual(codes([stayer, third]).sort());
      expect((await toLeaver).participants.map((p: { userCode: string }) => p.userCode)).not.toContain(leaver.user.code);
      expect((await unreadToLeaver).total).toBe(0);
      await t.http().get(`/api/message/groups/${group}`).set(as(leaver)).expect(404);
      const list = await t.http().get('/api/message/groups').set(as(leaver)).expect(200);
      expect(list.body.groups.map((g: { code: string }) => g.code)).not.toContain(group);
      await t.http().post(`/api/message/groups/${group}`).set(as(leaver)).send({ message: 'still here?' }).expect(404);
      expect((await call(sLeaver, 'message:send', { groupCode: group, clientKey: 'k-after-leave', message: 'x' })).ok).toBe(false);
      // The people left still talk.
      await t.http().post(`/api/message/groups/${group}`).set(as(third)).send({ message: 'fine' }).expect(201);
      // Twice, or from a chat one is not in: the same 404 as an unknown chat.
      await t.http().delete(`/api/message/group/${group}/participants/me`).set(as(leaver)).expect(404);
    });

    it('refuses to leave a chat of two and an offer chat (both parties stay), and the owner of a job chat', async () => {
      const [a, b, c] = await users(3);
      const pair = await createGroup(t, [a, b]);
      const refused = await t.http().delete(`/api/message/group/${pair}/participants/me`).set(as(a));
      expect(refused.status).toBe(422);
      expect(refused.body.data.brokenRules).toEqual(['CHAT.LEAVE.TWO_PARTY_CHAT']);

      const customer = await createUser(t);
      const ref = await makeOffer(t, c, await postJob(t, customer));
      for (const who of [c, customer]) {
        const res = await t.http().delete(`/api/message/group/${ref.group}/participants/me`).set(as(who));
        expect([res.status, res.body.data?.brokenRules]).toEqual([422, ['CHAT.LEAVE.TWO_PARTY_CHAT']]);
      }

      const job = await postJob(t, customer);
      const jobChat = await t
        .http()
        .post(`/api/message/groups/target/3/${job}`)
        .set(as(customer))
        .send({ participants: codes([a, b]) })
        .expect(201);
      const owner = await t.http().delete(`/api/message/group/${jobChat.body.code}/participants/me`).set(as(customer));
      expect([owner.status, owner.body.data?.brokenRules]).toEqual([422, ['CHAT.LEAVE.TARGET_OWNER']]);
      await t.http().delete(`/api/message/group/${jobChat.body.code}/participants/me`).set(as(a)).expect(204);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM chat_participant p JOIN chat_group g ON g.id = p.group_id WHERE g.code = $1`, [pair]);
      expect(n).toBe(2);
    });

    it('budgets group creation and people added per user, with 429 and Retry-After', async () => {
      const limited = await listenTestApp({ CHAT_GROUP_CREATE_RATE_LIMIT: '2', CHAT_PEOPLE_ADD_RATE_LIMIT: '5', CHAT_PEOPLE_PER_CALL: '4' });
      try {
        const mk = () => createUser(limited);
        const [creator, adder, x, y, z] = await Promise.all([mk(), mk(), mk(), mk(), mk()]);
        const start = (who: TestUser, people: TestUser[], createNewGroup = true) =>
          limited
            .http()
            .put('/api/message/groups')
            .set(as(who))
            .send({ userList: codes(people), createNewGroup });
        await start(creator, [x], false).expect(200);
        await start(creator, [y]).expect(200);
        const third = await start(creator, [z]);
        expect(third.status).toBe(429);
        expect(third.body).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: expect.any(Number) } });
        expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        // Reusing the direct chat that exists creates nothing and spends nothing.
        await start(creator, [x], false).expect(200);
        await start(creator, [x], false).expect(200);

        // People added count one by one, in new groups and in running ones.
        const group = (await start(adder, [x, y]).expect(200)).body.group.code;
        const people = await Promise.all([mk(), mk(), mk(), mk()]);
        await limited
          .http()
          .post(`/api/message/group/${group}/participants`)
          .set(as(adder))
          .send({ participants: codes(people.slice(0, 3)) })
          .expect(200);
        const over = await limited
          .http()
          .post(`/api/message/group/${group}/participants`)
          .set(as(adder))
          .send({ participants: codes(people.slice(3)) });
        expect(over.status).toBe(429);
        expect(over.headers['retry-after']).toBeDefined();
      } finally {
        await limited.close();
      }
    });
  });

  describe("item 14: a job's chat is its customer's to make", () => {
    it('answers an outsider the same 404 as for an unknown target and creates nothing; the customer chooses its people', async () => {
      const [customer, outsider, picked] = await users(3);
      const job = await postJob(t, customer);
      const open = await t
        .http()
        .post(`/api/message/groups/target/3/${job}`)
        .set(as(outsider))
        .send({ participants: [picked.user.code] });
      expect([open.status, open.body.message]).toEqual([404, 'CHAT.TARGET_NOT_FOUND']);
      const withMessage = await t
        .http()
        .post('/api/message/groups/target')
        .set(as(outsider))
        .send({ targetType: 3, targetId: job, participants: [picked.user.code], message: 'hi all' });
      expect([withMessage.status, withMessage.body.message]).toEqual([404, 'CHAT.TARGET_NOT_FOUND']);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM chat_group WHERE target_id = $1`, [job]);
      expect(n).toBe(0);

      const made = await t
        .http()
        .post(`/api/message/groups/target/3/${job}`)
        .set(as(customer))
        .send({ participants: [picked.user.code] })
        .expect(201);
      expect(made.body.participants.map((p: { userCode: string }) => p.userCode).sort()).toEqual(codes([customer, picked]).sort());
      // Still no way in for the outsider; the picked participant opens it.
      await t.http().post(`/api/message/groups/target/3/${job}`).set(as(outsider)).send({}).expect(404);
      await t.http().post(`/api/message/groups/target/3/${job}`).set(as(picked)).send({}).expect(201);
    });

    it("turns a job chat an outsider made before into a plain group chat, so the customer's job chat is theirs to make", async () => {
      const [customer, outsider, picked] = await users(3);
      const job = await postJob(t, customer);
      const [{ id }] = await db.query(
        `INSERT INTO chat_group (code, instance_id, type, target_id, created_by) VALUES (substr(md5(random()::text), 1, 14), $1, 3, $2, $3) RETURNING id`,
        [customer.user.instanceId, job, outsider.user.id],
      );
      await db.query(`INSERT INTO chat_participant (group_id, user_id, role) SELECT $1, u, CASE WHEN u = $2 THEN 1 ELSE 0 END FROM unnest($3::uuid[]) u`, [
        id,
        customer.user.id,
        [customer.user.id, outsider.user.id, picked.user.id],
      ]);
      const runner = db.createQueryRunner();
      try {
        await new DetachOutsiderJobChats1764480100000().up(runner);
      } finally {
        await runner.release();
      }
      const [kept] = await db.query(`SELECT code, type, target_id FROM chat_group WHERE id = $1`, [id]);
      expect(kept).toEqual({ code: expect.any(String), type: 1, target_id: null });
      const mine = await t.http().post(`/api/message/groups/target/3/${job}`).set(as(customer)).send({ participants: [] }).expect(201);
      expect(mine.body.participantCount).toBe(1);
      expect(mine.body.code).not.toBe(kept.code);
      // The old conversation stays with its people, as an ordinary chat anyone but its last two may leave.
      await t.http().delete(`/api/message/group/${kept.code}/participants/me`).set(as(customer)).expect(204);
    });
  });

  describe('item 7: renames', () => {
    it('budgets renames per user: 429 with Retry-After in the envelope, the name unchanged', async () => {
      const [a, b] = await users(2);
      const group = await createGroup(t, [a, b]);
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t
            .http()
            .patch(`/api/message/groups/${group}`)
            .set(as(a))
            .send({ name: `name ${i}` }),
        ),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
      const limited = replies.filter((r) => r.status === 429);
      expect(limited).toHaveLength(3);
      expect(limited[0].body).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: expect.any(Number) } });
      expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const accepted = replies.filter((r) => r.status === 200).map((r) => r.body.name);
      await waitFor(async () => accepted.includes((await t.http().get(`/api/message/groups/${group}`).set(as(b))).body.name));
      // Another user has their own budget.
      await t.http().patch(`/api/message/groups/${group}`).set(as(b)).send({ name: 'mine' }).expect(200);
    });
  });
});
