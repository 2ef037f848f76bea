import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { hhmmOf, localMinutes } from '#shared/notifications/notification-settings';
import { createUser, TestUser } from '../factories';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService, TestSubscription } from '../push-service/push-service';
import { closeAllSockets, ListeningApp, listenTestApp } from '../utils/sockets';
import { waitFor } from '../utils/wait';

interface Lifecycle {
  kind: string;
  status: string;
  reason: string | null;
  ref: string | null;
}

const ALL_ON = { messages: true, offers: true, payments: true };
const DEFAULTS = { push: ALL_ON, email: ALL_ON, quietHours: null };

describe('notification settings (REST, and the push decider honouring them)', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  let t: ListeningApp;
  let worker: TestingModule;
  let admin: TestUser;

  beforeAll(async () => {
    push = await LocalPushService.start();
    setup = await pushTestEnv('notification-settings', push);
    t = await listenTestApp(setup.env);
    worker = await bootWorker(setup.env);
    admin = await createUser(t, { role: Role.InstanceAdmin });
  });
  afterAll(async () => {
    closeAllSockets();
    await worker?.close();
    await t?.close();
    await push?.stop();
    await setup?.drop();
  });

  const auth = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  async function subscribe(u: TestUser): Promise<TestSubscription> {
    const sub = push.subscribe(setup.vapidPublicKey);
    await t.http().post('/api/User/WebPush/Register').set(auth(u)).send({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }).expect(204);
    return sub;
  }

  async function chat(users: TestUser[]): Promise<string> {
    const res = await t
      .http()
      .put('/api/message/groups')
      .set(auth(users[0]))
      .send({ userList: users.slice(1).map((u) => u.user.code), createNewGroup: true })
      .expect(200);
    return res.body.group.code as string;
  }

  const send = (u: TestUser, group: string, message: string) => t.http().post(`/api/message/groups/${group}`).set(auth(u)).send({ message }).expect(201);

  /** Reads the admin log until `check` holds on it; answers the log. */
  function lifecycleUntil(u: TestUser, check: (log: Lifecycle[]) => boolean, what: string): Promise<Lifecycle[]> {
    const log = async () =>
      (await t.http().get('/api/admin/notifications').query({ user: u.user.code, pageSize: '200' }).set(auth(admin)).expect(200)).body.entries as Lifecycle[];
    return waitFor(log, { until: check, timeoutMs: 20_000, intervalMs: 100, message: what });
  }

  const muteRow = async (u: TestUser, group: string) =>
    (
      await t.app
        .get(DataSource)
        .query(`SELECT p.muted, p.muted_until FROM chat_participant p JOIN chat_group g ON g.id = p.group_id WHERE g.code = $1 AND p.user_id = $2`, [
          group,
          u.user.id,
        ])
    )[0] as { muted: boolean; muted_until: Date | null };

  describe('REST', () => {
    it('answers every switch on and no quiet hours at first; saves and answers the whole settings', async () => {
      const u = await createUser(t);
      await t.http().get('/api/me/notifications').set(auth(u)).expect(200, DEFAULTS);
      const wanted = {
        push: { messages: false, offers: true, payments: true },
        email: { messages: true, offers: false, payments: false },
        quietHours: { start: '22:00', end: '07:30' },
      };
      await t.http().put('/api/me/notifications').set(auth(u)).send(wanted).expect(200, wanted);
      await t.http().get('/api/me/notifications').set(auth(u)).expect(200, wanted);
      await t
        .http()
        .put('/api/me/notifications')
        .set(auth(u))
        .send({ ...wanted, quietHours: null })
        .expect(200, { ...wanted, quietHours: null });
    });

    it.each([
      ['a missing channel', { push: ALL_ON, quietHours: null }],
      ['a switch that is not a boolean', { push: { ...ALL_ON, messages: 'no' }, email: ALL_ON, quietHours: null }],
      ['a missing kind', { push: { messages: true, offers: true }, email: ALL_ON, quietHours: null }],
      ['an unknown kind', { push: { ...ALL_ON, spam: true }, email: ALL_ON, quietHours: null }],
      ['a malformed hour', { push: ALL_ON, email: ALL_ON, quietHours: { start: '24:00', end: '07:00' } }],
      ['half quiet hours', { push: ALL_ON, email: ALL_ON, quietHours: { start: '22:00' } }],
      ['not an object', [1, 2]],
    ])('refuses %s with the one envelope, changing nothing', async (_what, body) => {
      const u = await createUser(t);
      const res = await t.http().put('/api/me/notifications').set(auth(u)).send(body);
      expect([400, 422]).toContain(res.status);
      expect(res.body).toMatchObject({ code: res.status, message: expect.stringMatching(/^SHARED\.ERROR\./) });
      await t.http().get('/api/me/notifications').set(auth(u)).expect(200, DEFAULTS);
    });

    it('mutes a chat until turned back on, snoozes it, and unmutes it; the chat answers the state', async () => {
      const [a, b] = [await createUser(t), await createUser(t)];
      const group = await chat([a, b]);
      await t.http().put(`/api/message/groups/${group}/notifications`).set(auth(b)).send({ muted: true }).expect(200, { muted: true, mutedUntil: null });
      expect((await t.http().get(`/api/message/groups/${group}`).set(auth(b)).expect(200)).body).toMatchObject({ muted: true, mutedUntil: null });

      const until = new Date(Date.now() + 3600_000).toISOString();
      await t
        .http()
        .put(`/api/message/groups/${group}/notifications`)
        .set(auth(b))
        .send({ muted: true, until })
        .expect(200, { muted: true, mutedUntil: until });
      expect((await t.http().get(`/api/message/groups/${group}`).set(auth(b)).expect(200)).body).toMatchObject({ muted: true, mutedUntil: until });
      // Only the caller's own membership changes.
      expect((await t.http().get(`/api/message/groups/${group}`).set(auth(a)).expect(200)).body).toMatchObject({ muted: false, mutedUntil: null });

      await t.http().put(`/api/message/groups/${group}/notifications`).set(auth(b)).send({ muted: false }).expect(200, { muted: false, mutedUntil: null });
      expect(await muteRow(b, group)).toEqual({ muted: false, muted_until: null });
    });

    it('shows a snooze that has run out as not muted', async () => {
      const [a, b] = [await createUser(t), await createUser(t)];
      const group = await chat([a, b]);
      await t.app.get(DataSource).query(`UPDATE chat_participant SET muted = true, muted_until = now() - interval '1 minute' WHERE user_id = $1`, [b.user.id]);
      expect((await t.http().get(`/api/message/groups/${group}`).set(auth(b)).expect(200)).body).toMatchObject({ muted: false, mutedUntil: null });
    });

    it('refuses a snooze in the past, a malformed one and an unknown or foreign chat, changing nothing', async () => {
      const [a, b, outsider] = [await createUser(t), await createUser(t), await createUser(t)];
      const group = await chat([a, b]);
      const past = await t
        .http()
        .put(`/api/message/groups/${group}/notifications`)
        .set(auth(b))
        .send({ muted: true, until: new Date(Date.now() - 60_000).toISOString() })
        .expect(422);
      expect(past.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['NOTIFICATIONS.SNOOZE_IN_PAST'] } });
      const bad = await t.http().put(`/api/message/groups/${group}/notifications`).set(auth(b)).send({ muted: true, until: 'tomorrow' });
      expect([400, 422]).toContain(bad.status);
      expect(bad.body.code).toBe(bad.status);
      await t
        .http()
        .put(`/api/message/groups/${group}/notifications`)
        .set(auth(b))
        .send({ muted: 'yes' })
        .expect((r) => expect([400, 422]).toContain(r.status));
      expect(await muteRow(b, group)).toEqual({ muted: false, muted_until: null });

      const foreign = await t.http().put(`/api/message/groups/${group}/notifications`).set(auth(outsider)).send({ muted: true }).expect(404);
      expect(foreign.body).toEqual({ code: 404, message: 'SHARED.ERROR.NOT_FOUND' });
      await t.http().put(`/api/message/groups/AAAAAAAAAAAAAAAA/notifications`).set(auth(b)).send({ muted: true }).expect(404);
    });
  });

  describe('the push decider', () => {
    it('skips a snoozed chat as muted, and pushes again once the snooze is over', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      const subB = await subscribe(bob);
      const group = await chat([alice, bob]);
      await t
        .http()
        .put(`/api/message/groups/${group}/notifications`)
        .set(auth(bob))
        .send({ muted: true, until: new Date(Date.now() + 3600_000).toISOString() })
        .expect(200);
      await send(alice, group, 'while snoozed');
      await lifecycleUntil(bob, (l) => l.some((e) => e.reason === 'muted'), 'the muted skip');

      await t.app.get(DataSource).query(`UPDATE chat_participant SET muted_until = now() - interval '1 second' WHERE user_id = $1`, [bob.user.id]);
      await send(alice, group, 'snooze over');
      await waitFor(() => push.arrivalsFor(subB.id).length === 1, { timeoutMs: 20_000, message: 'the push after the snooze' });
      expect((push.arrivalsFor(subB.id)[0].payload as { body: string }).body).toBe('snooze over');
    });

    it('skips messages when push is switched off for messages, and pushes them with it on', async () => {
      const [alice, bob] = [await createUser(t), await createUser(t)];
      const subB = await subscribe(bob);
      const group = await chat([alice, bob]);
      await t
        .http()
        .put('/api/me/notifications')
        .set(auth(bob))
        .send({ push: { messages: false, offers: true, payments: true }, email: ALL_ON, quietHours: null })
        .expect(200);
      await send(alice, group, 'not pushed');
      await lifecycleUntil(bob, (l) => l.some((e) => e.reason === 'setting-off'), 'the setting-off skip');
      expect(push.arrivalsFor(subB.id)).toEqual([]);

      await t.http().put('/api/me/notifications').set(auth(bob)).send(DEFAULTS).expect(200);
      await send(alice, group, 'pushed');
      await waitFor(() => push.arrivalsFor(subB.id).length === 1, { timeoutMs: 20_000, message: 'the push with the switch on' });
    });

    it("keeps quiet in the recipient's quiet hours, read in their own timezone", async () => {
      const alice = await createUser(t);
      const bob = await createUser(t, { timezone: 'Asia/Tokyo' });
      const subB = await subscribe(bob);
      const group = await chat([alice, bob]);
      // Quiet from an hour ago to an hour ahead in Tokyo; the same hours read in UTC would not cover now.
      const tokyoNow = localMinutes(new Date(), 'Asia/Tokyo');
      const quietHours = { start: hhmmOf((tokyoNow + 1440 - 60) % 1440), end: hhmmOf((tokyoNow + 60) % 1440) };
      await t.http().put('/api/me/notifications').set(auth(bob)).send({ push: ALL_ON, email: ALL_ON, quietHours }).expect(200);
      await send(alice, group, 'at night');
      await lifecycleUntil(bob, (l) => l.some((e) => e.reason === 'quiet-hours'), 'the quiet-hours skip');
      expect(push.arrivalsFor(subB.id)).toEqual([]);

      // The same hours in UTC (9 hours behind Tokyo) are daytime for a user in UTC: pushed.
      const carol = await createUser(t, { timezone: 'UTC' });
      const subC = await subscribe(carol);
      const group2 = await chat([alice, carol]);
      await t.http().put('/api/me/notifications').set(auth(carol)).send({ push: ALL_ON, email: ALL_ON, quietHours }).expect(200);
      await send(alice, group2, 'daytime');
      await waitFor(() => push.arrivalsFor(subC.id).length === 1, { timeoutMs: 20_000, message: 'the push outside quiet hours' });
    });
  });
});
