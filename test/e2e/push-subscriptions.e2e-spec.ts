import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { createInstance, createUser, TestUser } from '../factories';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService } from '../push-service/push-service';
import { createTestApp, TestApp } from '../utils/create-app';
import { waitFor } from '../utils/wait';

describe('web push subscriptions, admin log, queue dashboard and health counters', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  let t: TestApp;
  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    push = await LocalPushService.start();
    setup = await pushTestEnv('push-subs', push);
    t = await createTestApp(setup.env);
  });
  afterAll(async () => {
    await t?.close();
    await push?.stop();
    await setup?.drop();
  });

  const rows = (userId: string): Promise<{ endpoint: string; p256dh: string; auth: string }[]> =>
    t.app.get(DataSource).query(`SELECT endpoint, p256dh, auth FROM push_subscription WHERE user_id = $1 ORDER BY id`, [userId]);

  describe('GET /api/User/WebPush/Config', () => {
    it('answers the VAPID public key as the plain-text body', async () => {
      const u = await createUser(t);
      const res = await t.http().get('/api/User/WebPush/Config').set(auth(u)).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toBe(setup.vapidPublicKey);
    });

    it('needs a logged-in user', async () => {
      const res = await t.http().get('/api/User/WebPush/Config').expect(401);
      expect(res.body).toEqual({ code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' });
    });

    it('is 503 while no VAPID keys are configured', async () => {
      const bare = await createTestApp({ ...setup.env, VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '' });
      try {
        const u = await createUser(bare);
        const res = await bare.http().get('/api/User/WebPush/Config').set(auth(u)).expect(503);
        expect(res.body).toEqual({ code: 503, message: 'SHARED.ERROR.UNAVAILABLE' });
      } finally {
        await bare.close();
      }
    });
  });

  describe('POST /api/User/WebPush/Register and Unregister', () => {
    it("stores the browser's whole subscription, once per endpoint, moved to the latest user", async () => {
      const [a, b] = [await createUser(t), await createUser(t)];
      const sub = push.subscribe(setup.vapidPublicKey);
      const body = { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys };
      await t.http().post('/api/User/WebPush/Register').set(auth(a)).send(body).expect(204);
      await t.http().post('/api/User/WebPush/Register').set(auth(a)).send(body).expect(204);
      expect(await rows(a.user.id)).toEqual([{ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }]);

      // Another user logs in on the same browser (same subscription, same keys): the endpoint is theirs now.
      await t.http().post('/api/User/WebPush/Register').set(auth(b)).send(body).expect(204);
      expect(await rows(a.user.id)).toEqual([]);
      expect(await rows(b.user.id)).toEqual([{ endpoint: sub.endpoint, p256dh: sub.keys.p256dh, auth: sub.keys.auth }]);

      // Unregister (the client calls it on logout) removes only the caller's own row.
      await t.http().post('/api/User/WebPush/Unregister').set(auth(a)).send({ endpoint: sub.endpoint }).expect(204);
      expect(await rows(b.user.id)).toHaveLength(1);
      await t.http().post('/api/User/WebPush/Unregister').set(auth(b)).send({ endpoint: sub.endpoint }).expect(204);
      expect(await rows(b.user.id)).toEqual([]);
    });

    it('keeps the 20 most recently used subscriptions of a user', async () => {
      const u = await createUser(t);
      const subs = Array.from({ length: 21 }, () => push.subscribe(setup.vapidPublicKey));
      for (const [i, sub] of subs.entries()) {
        await t.http().post('/api/User/WebPush/Register').set(auth(u)).send({ endpoint: sub.endpoint, keys: sub.keys }).expect(204);
        // Registered one after the other: make the order of last use explicit.
        await t.app
          .get(DataSource)
          .query(`UPDATE push_subscription SET last_used_at = now() - make_interval(mins => $2::int) WHERE endpoint = $1`, [sub.endpoint, 100 - i]);
      }
      const kept = (await rows(u.user.id)).map((r) => r.endpoint).sort();
      expect(kept).toEqual(
        subs
          .slice(1)
          .map((s) => s.endpoint)
          .sort(),
      );
    });

    it.each([
      ['an http endpoint', { endpoint: 'http://push.example.com/x' }, ['VALIDATION.ENDPOINT.IS_URL']],
      ['no endpoint', { endpoint: undefined }, ['VALIDATION.ENDPOINT.IS_STRING']],
      ['a key that is not base64url', { keys: { p256dh: '!'.repeat(87), auth: 'A'.repeat(22) } }, ['VALIDATION.KEYS.P256DH.MATCHES']],
      ['a short auth secret', { keys: { p256dh: 'B' + 'A'.repeat(86), auth: 'AAAA' } }, ['VALIDATION.KEYS.AUTH.MATCHES']],
      ['no keys', { keys: undefined }, ['VALIDATION.KEYS.IS_OBJECT']],
      ['a key that is no point on P-256', { keys: { p256dh: 'B' + 'A'.repeat(86), auth: 'A'.repeat(22) } }, ['VALIDATION.KEYS.P256DH.NOT_A_P256_KEY']],
      ['an unknown field', { extra: 1 }, ['VALIDATION.EXTRA.UNKNOWN_FIELD']],
    ])('refuses %s with 422 and stores nothing', async (_, change, rules) => {
      const u = await createUser(t);
      const sub = push.subscribe(setup.vapidPublicKey);
      const res = await t
        .http()
        .post('/api/User/WebPush/Register')
        .set(auth(u))
        .send({ endpoint: sub.endpoint, keys: sub.keys, ...change })
        .expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: expect.arrayContaining(rules) } });
      expect(await rows(u.user.id)).toEqual([]);
    });

    it('in production refuses endpoints on private or loopback hosts', async () => {
      const prod = await createTestApp({ ...setup.env, NODE_ENV: 'production' });
      try {
        const u = await createUser(prod);
        const sub = push.subscribe(setup.vapidPublicKey);
        for (const endpoint of [sub.endpoint, 'https://localhost/x', 'https://10.1.2.3/x', 'https://[::1]/x']) {
          const res = await prod.http().post('/api/User/WebPush/Register').set(auth(u)).send({ endpoint, keys: sub.keys }).expect(422);
          expect(res.body.data.brokenRules).toEqual(['VALIDATION.ENDPOINT.PRIVATE_HOST']);
        }
        await prod.http().post('/api/User/WebPush/Register').set(auth(u)).send({ endpoint: 'https://push.example.com/abc', keys: sub.keys }).expect(204);
      } finally {
        await prod.close();
      }
    });
  });

  describe('GET /api/admin/notifications', () => {
    it('is for admins, scoped to their instance (global admins: every instance)', async () => {
      const other = await createInstance(t);
      const [user, plain, instanceAdmin, global] = [
        await createUser(t),
        await createUser(t),
        await createUser(t, { role: Role.InstanceAdmin }),
        await createUser(t, { role: Role.GlobalAdmin, instanceId: other.id }),
      ];
      const foreignAdmin = await createUser(t, { role: Role.InstanceAdmin, instanceId: other.id });
      const q = { user: user.user.code };
      await t.http().get('/api/admin/notifications').query(q).set(auth(plain)).expect(403);
      await t.http().get('/api/admin/notifications').query(q).expect(401);
      const hidden = await t.http().get('/api/admin/notifications').query(q).set(auth(foreignAdmin)).expect(404);
      expect(hidden.body).toEqual({ code: 404, message: 'SHARED.ERROR.NOT_FOUND' });
      const mine = await t.http().get('/api/admin/notifications').query(q).set(auth(instanceAdmin)).expect(200);
      expect(mine.body).toEqual({ user: user.user.code, subscriptions: 0, entries: [], page: 1, pageSize: 50, hasMore: false });
      await t.http().get('/api/admin/notifications').query(q).set(auth(global)).expect(200);
      const bad = await t.http().get('/api/admin/notifications').query({ user: 'x' }).set(auth(instanceAdmin)).expect(422);
      expect(bad.body.data.brokenRules).toEqual(['VALIDATION.USER.MATCHES']);
    });
  });

  describe('queue dashboard (Bull Board) at /api/admin/queues', () => {
    it('opens for a global admin through the short-lived cookie, and for nobody else', async () => {
      const [global, instanceAdmin] = [await createUser(t, { role: Role.GlobalAdmin }), await createUser(t, { role: Role.InstanceAdmin })];
      const none = await t.http().get('/api/admin/queues').expect(401);
      expect(none.body).toEqual({ code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' });
      await t.http().get('/api/admin/queues').set(auth(global)).expect(401);
      await t.http().post('/api/admin/queues/session').set(auth(instanceAdmin)).expect(403);

      const session = await t.http().post('/api/admin/queues/session').set(auth(global)).expect(200);
      expect(session.body).toEqual({ url: '/api/admin/queues', expiresAt: expect.any(String) });
      const cookie = ([] as string[]).concat(session.headers['set-cookie'] ?? []).find((c) => c.startsWith('parley_qb='))!;
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\/api\/admin\/queues/);
      const value = cookie.split(';')[0];

      const page = await t.http().get('/api/admin/queues').set('Cookie', value).expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const api = await t.http().get('/api/admin/queues/api/queues').set('Cookie', value).expect(200);
      expect(api.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(['email', 'maintenance', 'notifications', 'offer-timers', 'translation']);

      // A tampered cookie, or one whose user is no longer a global admin, opens nothing.
      await t
        .http()
        .get('/api/admin/queues')
        .set(
          'Cookie',
          value.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        )
        .expect(401);
      await t.app.get(DataSource).query(`UPDATE "user" SET role = $2 WHERE id = $1`, [global.user.id, Role.InstanceAdmin]);
      await t.http().get('/api/admin/queues').set('Cookie', value).expect(403);
    });
  });

  describe('health counters', () => {
    it('reports queue depth and sent / failed / removed / skipped pushes', async () => {
      const before = (await t.http().get('/api/health').expect(200)).body.notifications;
      expect(before).toEqual({ waiting: 0, delayed: 0, active: 0, sent: 0, failed: 0, removed: 0, skipped: 0 });

      // A subscription nobody registered again or pushed to for longer than PUSH_SUBSCRIPTION_MAX_IDLE_DAYS (60).
      const idle = await createUser(t);
      const idleSub = push.subscribe(setup.vapidPublicKey);
      await t.http().post('/api/User/WebPush/Register').set(auth(idle)).send({ endpoint: idleSub.endpoint, keys: idleSub.keys }).expect(204);
      await t.app.get(DataSource).query(`UPDATE push_subscription SET last_used_at = now() - interval '61 days' WHERE user_id = $1`, [idle.user.id]);
      // Lifecycle records older than PUSH_RECORD_RETENTION_DAYS (30) go too; a younger one stays.
      const record = async (daysAgo: number) =>
        (
          await t.app.get(DataSource).query(
            `INSERT INTO push_notification (at, outbox_id, user_id, kind, status, reason)
             VALUES (now() - make_interval(days => $1::int), -$1::int, $2, 'message', 'skipped', 'online') RETURNING id`,
            [daysAgo, idle.user.id],
          )
        )[0].id as string;
      const [oldRecord, youngRecord] = [await record(31), await record(29)];

      let worker: TestingModule | undefined;
      try {
        // The prune runs at boot, then every PUSH_PRUNE_INTERVAL.
        worker = await bootWorker(setup.env);
        const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
        const [subB, subC] = [push.subscribe(setup.vapidPublicKey), push.subscribe(setup.vapidPublicKey)];
        for (const [u, s] of [
          [bob, subB],
          [carol, subC],
        ] as const) {
          await t.http().post('/api/User/WebPush/Register').set(auth(u)).send({ endpoint: s.endpoint, keys: s.keys }).expect(204);
        }
        push.answer(subC.id, { status: 404 });
        const group = (
          await t
            .http()
            .put('/api/message/groups')
            .set(auth(alice))
            .send({ userList: [bob.user.code, carol.user.code], createNewGroup: true })
            .expect(200)
        ).body.group.code;
        await t.http().post(`/api/message/groups/${group}`).set(auth(alice)).send({ message: 'counting' }).expect(201);
        const health = await waitFor(async () => (await t.http().get('/api/health').expect(200)).body.notifications, {
          until: (counters) => counters.sent === 1 && counters.removed === 2,
          timeoutMs: 20_000,
          intervalMs: 100,
          message: 'the push counters',
        });
        expect(health).toMatchObject({ sent: 1, failed: 0, removed: 2 });
        expect(await rows(idle.user.id)).toEqual([]);
        // the author is not a recipient; nobody was skipped
        expect(health.skipped).toBe(0);
        const records: { id: string }[] = await t.app
          .get(DataSource)
          .query(`SELECT id FROM push_notification WHERE id = ANY($1::bigint[])`, [[oldRecord, youngRecord]]);
        expect(records.map((r) => r.id)).toEqual([youngRecord]);
      } finally {
        await worker?.close();
      }
    });
  });
});
