import { TestingModule } from '@nestjs/testing';
import { createECDH, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next } from '../utils/sockets';
import { makeOffer, postJob } from './marketplace.helpers';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService } from '../push-service/push-service';
import { waitFor } from '../utils/wait';

/** Replays the chat-side reproductions of the security probe (issue 16) and asserts each is refused. */
describe('security: chat, files and push', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser, admin: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

  beforeAll(async () => {
    // The production limits (the test environment raises them for every other file).
    t = await listenTestApp({
      CHAT_SEND_RATE_LIMIT: '30',
      CHAT_SEND_RATE_WINDOW: '3',
      UPLOAD_RATE_LIMIT: '60',
      UPLOAD_RATE_WINDOW: '60',
      // As in production: push endpoints must be public.
      PUSH_ALLOW_PRIVATE_ENDPOINTS: 'false',
    });
    [a, b, admin] = await Promise.all([createUser(t), createUser(t), createUser(t, { role: Role.InstanceAdmin })]);
  });

  /** `count` messages by `author` straight into the group (seq 1..count), faster than sending them one by one. */
  async function fillGroup(groupCode: string, author: TestUser, count: number): Promise<void> {
    const db = t.app.get(DataSource);
    await db.query(
      `INSERT INTO chat_message (code, group_id, seq, author_id, type, text)
       SELECT substr(md5(random()::text || s), 1, 16), g.id, s, $2, 1, 'filler ' || s
       FROM chat_group g, generate_series(1, $3::int) s WHERE g.code = $1`,
      [groupCode, author.user.id, count],
    );
    await db.query(`UPDATE chat_group SET last_seq = $2, last_message_at = now() WHERE code = $1`, [groupCode, count]);
  }

  describe('item 1: sync amplification', () => {
    it('refuses the same group twice in one sync', async () => {
      const group = await createGroup(t, [a, b]);
      const sa = await connect(t.url, a.token);
      const res = await call(sa, 'sync', { groups: Array.from({ length: 100 }, () => ({ groupCode: group, afterSeq: 0 })) });
      expect(res).toEqual({ ok: false, error: { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: expect.any(Array) } } });
      const twice = await call(sa, 'sync', {
        groups: [
          { groupCode: group, afterSeq: 0 },
          { groupCode: group, afterSeq: 5 },
        ],
      });
      expect(twice.ok).toBe(false);
    });

    it('caps the messages of one answer and names the groups to ask again in more; following more gets everything once', async () => {
      const groups = [await createGroup(t, [a, b]), await createGroup(t, [a, b]), await createGroup(t, [a, b])];
      for (const g of groups) await fillGroup(g, b, 300);
      const sa = await connect(t.url, a.token);
      const first = await call(sa, 'sync', { groups: groups.map((groupCode) => ({ groupCode, afterSeq: 0 })) });
      expect(first.ok).toBe(true);
      expect(first.messages.length).toBeLessThanOrEqual(500);
      expect(first.more.sort()).toEqual([...groups].sort());

      const seen = new Map<string, number[]>(groups.map((g) => [g, []]));
      let answer = first;
      for (let round = 0; round < 10; round++) {
        for (const m of answer.messages as { groupCode: string; seq: number }[]) seen.get(m.groupCode)!.push(m.seq);
        if (answer.more.length === 0) break;
        const ask = answer.more.map((groupCode: string) => ({ groupCode, afterSeq: Math.max(0, ...seen.get(groupCode)!) }));
        answer = await call(sa, 'sync', { groups: ask });
        expect(answer.ok).toBe(true);
        expect(answer.messages.length).toBeLessThanOrEqual(500);
      }
      for (const g of groups) expect(seen.get(g)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    });

    it('rate-limits sync, presence:watch and room:watch per user with 429 acks, keeping the socket', async () => {
      const flooder = await createUser(t);
      const group = await createGroup(t, [flooder, b]);
      const sa = await connect(t.url, flooder.token);
      for (const [event, payload] of [
        ['sync', { groups: [{ groupCode: group, afterSeq: 0 }] }],
        ['presence:watch', { userCodes: [b.user.code] }],
      ] as const) {
        const replies = await Promise.all(Array.from({ length: 40 }, () => call(sa, event, payload)));
        const limited = replies.filter((r) => !r.ok);
        expect([event, limited.length > 0]).toEqual([event, true]);
        expect(limited[0].error).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: 1 } });
      }
      // (Another moderator than the other tests': a drained budget outlives the socket.)
      const watcher = await createUser(t, { role: Role.InstanceAdmin });
      const sAdmin = await connect(t.url, watcher.token);
      const watches = await Promise.all(Array.from({ length: 40 }, () => call(sAdmin, 'room:watch', { groupCode: group })));
      expect(watches.filter((r) => !r.ok).map((r) => r.error.code)).toContain(429);
      expect(sa.connected && sAdmin.connected).toBe(true);
    });

    it("shares the budget between one user's sockets: opening more sockets buys no more syncs", async () => {
      const syncer = await createUser(t);
      const group = await createGroup(t, [syncer, b]);
      const first = await connect(t.url, syncer.token);
      const sync = { groups: [{ groupCode: group, afterSeq: 0 }] };
      const replies = await Promise.all(Array.from({ length: 20 }, () => call(first, 'sync', sync)));
      expect(replies.some((r) => !r.ok)).toBe(true);
      const second = await connect(t.url, syncer.token);
      expect((await call(second, 'sync', sync)).error).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: 1 } });
      // Nor does reconnecting.
      first.close();
      second.close();
      const third = await connect(t.url, syncer.token);
      expect((await call(third, 'sync', sync)).error?.code).toBe(429);
      // Another user is not affected.
      const other = await connect(t.url, b.token);
      expect((await call(other, 'sync', sync)).ok).toBe(true);
    });
  });

  describe('item 3: moderators read private chats only through the audited, visible watch', () => {
    it('refuses a non-participant moderator the messages over REST and sync until they watch the room', async () => {
      const group = await createGroup(t, [a, b]);
      await t.http().post(`/api/message/groups/${group}`).set(as(a)).send({ message: 'private words' }).expect(201);

      const page = await t.http().post(`/api/message/groups/${group}/messages`).set(as(admin)).send({}).expect(403);
      expect(page.body).toEqual({ code: 403, message: 'MODERATION.WATCH_REQUIRED' });
      const sAdmin = await connect(t.url, admin.token);
      const synced = await call(sAdmin, 'sync', { groups: [{ groupCode: group, afterSeq: 0 }] });
      expect(synced).toMatchObject({ ok: true, messages: [], missing: [group] });
      // The group itself (name, people) stays visible to moderators in scope, without any message.
      const meta = await t.http().get(`/api/message/groups/${group}`).set(as(admin)).expect(200);
      expect(meta.body).toMatchObject({ code: group, lastMessage: null, watched: false });

      // Watching is audited and shown to the participants; then the room reads.
      const sa = await connect(t.url, a.token);
      const flagged = next(sa, 'group:updated', (g) => g.code === group && g.watched === true);
      expect(await call(sAdmin, 'room:watch', { groupCode: group })).toEqual({ ok: true });
      await flagged;
      const read = await t.http().post(`/api/message/groups/${group}/messages`).set(as(admin)).send({}).expect(200);
      expect(read.body.messages.map((m: { message: string }) => m.message)).toEqual(['private words']);
      const live = await call(sAdmin, 'sync', { groups: [{ groupCode: group, afterSeq: 0 }] });
      expect(live.messages).toHaveLength(1);
      const audit = await t.http().get('/api/admin/audit').set(as(admin)).expect(200);
      expect(audit.body.entries.filter((e: { groupCode: string }) => e.groupCode === group).map((e: { action: string }) => e.action)).toEqual(['room.watch']);

      // After the watch ends, reading is refused again.
      await call(sAdmin, 'room:unwatch', { groupCode: group });
      await t.http().post(`/api/message/groups/${group}/messages`).set(as(admin)).send({}).expect(403);
    });

    it('gives a moderator the files of a chat they are not in only while watching it', async () => {
      const up = await t.http().post('/api/File').set(as(a)).field('type', 'ChatMessage').attach('file', png, 'private.png').expect(201);
      const { code, secureCode } = up.body;
      const group = (
        await t
          .http()
          .put('/api/message/groups')
          .set(as(a))
          .send({ userList: [b.user.code], files: [code], createNewGroup: true })
          .expect(200)
      ).body.group.code;
      await t.http().get(`/api/File/${code}/${secureCode}/Download`).set(as(admin)).expect(404);
      expect(
        (
          await t
            .http()
            .post('/api/File/List')
            .set(as(admin))
            .send({ codeList: [code] })
            .expect(200)
        ).body,
      ).toEqual([]);

      const sAdmin = await connect(t.url, admin.token);
      expect((await call(sAdmin, 'room:watch', { groupCode: group })).ok).toBe(true);
      await t.http().get(`/api/File/${code}/${secureCode}/Download`).set(as(admin)).expect(200);
      expect(
        (
          await t
            .http()
            .post('/api/File/List')
            .set(as(admin))
            .send({ codeList: [code] })
            .expect(200)
        ).body.map((f: { code: string }) => f.code),
      ).toEqual([code]);
      await call(sAdmin, 'room:unwatch', { groupCode: group });
      await t.http().get(`/api/File/${code}/${secureCode}/Download`).set(as(admin)).expect(404);
      // The moderator's own uploads stay theirs, watch or not.
      const own = await t.http().post('/api/File').set(as(admin)).field('type', 'ChatMessage').attach('file', png, 'mine.png').expect(201);
      await t.http().get(`/api/File/${own.body.code}/${own.body.secureCode}/Download`).set(as(admin)).expect(200);
    });

    it("still gives outsiders and other instances' moderators the same 404 as an unknown group", async () => {
      const group = await createGroup(t, [a, b]);
      const stranger = await createUser(t);
      const foreignAdmin = await createUser(t, { role: Role.InstanceAdmin, instanceId: (await createInstance(t)).id });
      for (const u of [stranger, foreignAdmin]) {
        await t.http().post(`/api/message/groups/${group}/messages`).set(as(u)).send({}).expect(404);
        await t.http().get(`/api/message/groups/${group}`).set(as(u)).expect(404);
      }
    });
  });

  describe('item 4: renaming and adding people need membership', () => {
    it('refuses a moderator who is not in the chat, watching or not, and changes nothing', async () => {
      const group = await createGroup(t, [a, b]);
      const outsider = await createUser(t);
      const sAdmin = await connect(t.url, admin.token);
      for (const watching of [false, true]) {
        if (watching) expect((await call(sAdmin, 'room:watch', { groupCode: group })).ok).toBe(true);
        await t.http().patch(`/api/message/groups/${group}`).set(as(admin)).send({ name: 'Renamed by a moderator' }).expect(404);
        await t
          .http()
          .post(`/api/message/group/${group}/participants`)
          .set(as(admin))
          .send({ participants: [admin.user.code] })
          .expect(404);
        await t
          .http()
          .post(`/api/message/group/${group}/participants`)
          .set(as(admin))
          .send({ participants: [outsider.user.code] })
          .expect(404);
      }
      const view = await t.http().get(`/api/message/groups/${group}`).set(as(a)).expect(200);
      expect(view.body).toMatchObject({ name: null, participantCount: 2 });
      // Participants keep both powers.
      await t.http().patch(`/api/message/groups/${group}`).set(as(b)).send({ name: 'Ours' }).expect(200);
      await t
        .http()
        .post(`/api/message/group/${group}/participants`)
        .set(as(a))
        .send({ participants: [outsider.user.code] })
        .expect(200);
    });
  });

  describe('item 15: target chats exist only for real targets, for people who see them, with the owner in them', () => {
    it("makes the job's customer the owner of its chat (which only they make: security-chat-groups) and puts them in its FAQ", async () => {
      const customer = await createUser(t);
      const job = await postJob(t, customer);
      const opened = await t
        .http()
        .post(`/api/message/groups/target/3/${job}`)
        .set(as(customer))
        .send({ participants: [a.user.code] })
        .expect(201);
      const roles = Object.fromEntries(opened.body.participants.map((p: { userCode: string; role: number }) => [p.userCode, p.role]));
      expect(roles).toEqual({ [customer.user.code]: 1, [a.user.code]: 0 });
      const theirs = await t.http().get(`/api/message/by-target/3/${job}`).set(as(a)).expect(200);
      expect(theirs.body.group.code).toBe(opened.body.code);

      const faq = await t
        .http()
        .post('/api/message/groups/target')
        .set(as(b))
        .send({ targetType: 2, targetId: job, participants: [], message: 'a question', lang: 'eng' })
        .expect(201);
      expect(faq.body.group.participants.map((p: { userCode: string }) => p.userCode).sort()).toEqual([b.user.code, customer.user.code].sort());
      const viaJob = await t.http().get(`/api/job/${job}/faq`).set(as(customer)).expect(200);
      expect(viaJob.body.code).toBe(faq.body.group.code);
    });

    it('refuses targets that do not exist, that the caller cannot see, and project items (which have no targets yet)', async () => {
      const foreignJob = await postJob(t, await createUser(t, { instanceId: (await createInstance(t)).id }));
      for (const [type, target] of [
        [2, 'noSuchJob12345'],
        [3, 'noSuchJob12345'],
        [4, 'noSuchOffer1234'],
        [5, 'projectItem123'],
        [3, foreignJob],
        [2, foreignJob],
      ] as const) {
        const res = await t
          .http()
          .post(`/api/message/groups/target/${type}/${target}`)
          .set(as(a))
          .send({ participants: [b.user.code] });
        expect([type, target, res.status, res.body.message]).toEqual([type, target, 404, 'CHAT.TARGET_NOT_FOUND']);
        const withMessage = await t.http().post('/api/message/groups/target').set(as(a)).send({ targetType: type, targetId: target, message: 'x' });
        expect([type, target, withMessage.status]).toEqual([type, target, 404]);
      }
      const db = t.app.get(DataSource);
      const [{ n }] = await db.query(
        `SELECT count(*)::int AS n FROM chat_group WHERE target_id IN ('noSuchJob12345', 'noSuchOffer1234', 'projectItem123', $1)`,
        [foreignJob],
      );
      expect(n).toBe(0);
    });

    it("never lets an outsider into an offer's chat", async () => {
      const customer = await createUser(t);
      const provider = await createUser(t);
      const ref = await makeOffer(t, provider, await postJob(t, customer));
      const res = await t.http().post(`/api/message/groups/target/4/${ref.offer}`).set(as(a)).send({ participants: [] });
      expect(res.status).toBe(404);
      const party = await t.http().post(`/api/message/groups/target/4/${ref.offer}`).set(as(customer)).send({}).expect(201);
      expect(party.body.code).toBe(ref.group);
      expect(party.body.participantCount).toBe(2);
    });
  });

  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  describe('item 11: rate limits on REST sends and uploads', () => {
    it('answers REST sends beyond 30 in 3 s per user with 429, Retry-After and the error envelope, storing none of them', async () => {
      const sender = await createUser(t);
      const group = await createGroup(t, [b, sender]);
      const replies = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          t
            .http()
            .post(`/api/message/groups/${group}`)
            .set(as(sender))
            .send({ message: `flood ${i}` }),
        ),
      );
      const limited = replies.filter((r) => r.status === 429);
      expect(replies.filter((r) => r.status === 201)).toHaveLength(30);
      expect(limited).toHaveLength(30);
      expect(limited[0].body).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: expect.any(Number) } });
      expect(Number(limited[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const [{ n }] = await t.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM chat_message m JOIN chat_group g ON g.id = m.group_id WHERE g.code = $1`, [group]);
      expect(n).toBe(30);
      // Starting chats with a first message spends the same budget; another user is not affected.
      await t
        .http()
        .put('/api/message/groups')
        .set(as(sender))
        .send({ userList: [a.user.code], message: 'hi' })
        .expect(429);
      await t.http().post(`/api/message/groups/${group}`).set(as(b)).send({ message: 'still fine' }).expect(201);
    });

    it('answers uploads beyond 60 a minute per user with 429 before reading the file', async () => {
      const uploader = await createUser(t);
      const replies = await Promise.all(
        Array.from({ length: 70 }, () => t.http().post('/api/File').set(as(uploader)).field('type', 'ChatMessage').attach('file', png, 'x.png')),
      );
      expect(replies.filter((r) => r.status === 201)).toHaveLength(60);
      const limited = replies.filter((r) => r.status === 429);
      expect(limited).toHaveLength(10);
      expect(limited[0].headers['retry-after']).toBeDefined();
      const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM file WHERE owner_id = $1`, [uploader.user.id]);
      expect(n).toBe(60);
    });
  });

  describe('item 8: push endpoints inside the network', () => {
    const keys = () => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    };

    it.each([
      'https://[::ffff:127.0.0.1]/push/x',
      'https://[::ffff:a9fe:a9fe]/push/x',
      'https://[::ffff:7f00:1]/push/x',
      'https://[64:ff9b::a9fe:a9fe]/push/x',
      'https://[fd00::1]/push/x',
      'https://[fe80::1]/push/x',
      'https://100.64.0.1/push/x',
      'https://169.254.169.254/latest/meta-data',
      'https://0.0.0.0/push/x',
      'https://redis/push/x',
      'https://postgres:5432/push/x',
      'https://localhost/push/x',
      'https://push.internal/x',
    ])('refuses to register %s', async (endpoint) => {
      const u = await createUser(t);
      const res = await t.http().post('/api/User/WebPush/Register').set(as(u)).send({ endpoint, keys: keys() }).expect(422);
      expect(res.body.data.brokenRules).toEqual(['VALIDATION.ENDPOINT.PRIVATE_HOST']);
      const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM push_subscription WHERE user_id = $1`, [u.user.id]);
      expect(n).toBe(0);
    });

    describe('at send time (the worker checks the address it dials)', () => {
      let push: LocalPushService;
      let setup: PushTestEnv;
      let app: ListeningApp;
      let worker: TestingModule;

      beforeAll(async () => {
        push = await LocalPushService.start();
        // The server lets the loopback endpoints in (as outside production); the worker must still refuse them.
        setup = await pushTestEnv('security-push', push, { PUSH_DELAY_MS: '0' });
        app = await listenTestApp(setup.env);
        worker = await bootWorker({ ...setup.env, PUSH_ALLOW_PRIVATE_ENDPOINTS: 'false' });
      });
      afterAll(async () => {
        await worker?.close();
        await app?.close();
        await push?.stop();
        await setup?.drop();
      });

      it('sends nothing to an endpoint on a private address or a name that resolves inside, and drops the subscription', async () => {
        const [alice, bob, carol] = [await createUser(app), await createUser(app), await createUser(app)];
        const byIp = push.subscribe(setup.vapidPublicKey);
        const byName = push.subscribe(setup.vapidPublicKey);
        const byNameEndpoint = byName.endpoint.replace('https://127.0.0.1:', 'https://localhost:');
        await app.http().post('/api/User/WebPush/Register').set(as(bob)).send({ endpoint: byIp.endpoint, keys: byIp.keys }).expect(204);
        await app.http().post('/api/User/WebPush/Register').set(as(carol)).send({ endpoint: byNameEndpoint, keys: byName.keys }).expect(204);
        const group = (
          await app
            .http()
            .put('/api/message/groups')
            .set(as(alice))
            .send({ userList: [bob.user.code, carol.user.code], message: 'psst' })
            .expect(200)
        ).body.group.code;
        expect(group).toBeTruthy();

        const db = app.app.get(DataSource);
        const removed = await waitFor(() => db.query(`SELECT reason FROM push_notification WHERE status = 'subscription-removed' ORDER BY reason`), {
          until: (rows: { reason: string }[]) => rows.length === 2,
          timeoutMs: 30_000,
          message: 'both subscriptions removed',
        });
        expect(removed.map((r: { reason: string }) => r.reason)).toEqual(['local-name', 'private-address']);
        expect(push.arrivals).toEqual([]);
        const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM push_subscription`);
        expect(n).toBe(0);
      });
    });
  });

  describe('item 16: file names', () => {
    const upload = (name: string) => t.http().post('/api/File').set(as(a)).field('type', 'ChatMessage').attach('file', png, name);

    it('keeps a browser-sent UTF-8 name as the person wrote it (not latin1 mojibake)', async () => {
      const res = await upload('zażółć gęślą.pdf').expect(201);
      expect(res.body.name).toBe('zażółć gęślą.pdf');
      const dl = await t.http().get(`/api/File/${res.body.code}/${res.body.secureCode}/Download`).set(as(a)).expect(200);
      expect(dl.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('zażółć gęślą.pdf')}`);
    });

    it('drops bidirectional overrides and zero-width characters, so "\\u202egnp.exe" cannot pose as "exe.png"', async () => {
      const res = await upload('\u202egnp.exe').expect(201);
      expect(res.body.name).toBe('gnp.exe');
      const hidden = await upload('in\u200bvoice\u2066\u200d.p\u200cd\ufefff\u2069').expect(201);
      expect(hidden.body.name).toBe('invoice.pdf');
    });

    it('stores names in NFC, so the same name typed two ways is the same text', async () => {
      const res = await upload('cafe\u0301.txt').expect(201);
      expect(res.body.name).toBe('caf\u00e9.txt');
    });
  });
});
