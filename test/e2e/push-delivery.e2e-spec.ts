import { TestingModule } from '@nestjs/testing';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChatMessageType } from '#shared/contracts/chat';
import { OfferStatus } from '#shared/contracts/offers';
import { JobName } from '#shared/contracts/queues';
import { Role } from '#shared/contracts/roles';
import { ChatGroupsRepository } from '../../server/src/modules/chat/chat-groups.repository';
import { ChatMessagesService } from '../../server/src/modules/chat/chat-messages.service';
import { outboxJobId } from '../../workers/src/outbox/outbox-relay.service';
import { JobService } from '#shared/queue/job.service';
import { RedisService } from '#shared/redis/redis.service';
import { MAX_PUSH_PLAINTEXT } from '#shared/push/push-content';
import { createUser, TestUser } from '../factories';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { Arrival, LocalPushService, TestSubscription } from '../push-service/push-service';
import { closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';
import { offerIn } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

interface Lifecycle {
  kind: string;
  status: string;
  reason: string | null;
  httpStatus: number | null;
  ref: string | null;
  event: string;
}

describe('web push delivery (local RFC 8030 push service)', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  let t: ListeningApp;
  let worker: TestingModule;
  let admin: TestUser;

  beforeAll(async () => {
    push = await LocalPushService.start();
    setup = await pushTestEnv('push-delivery', push);
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

  async function send(u: TestUser, group: string, message: string): Promise<{ code: string; seq: number }> {
    const res = await t.http().post(`/api/message/groups/${group}`).set(auth(u)).send({ message }).expect(201);
    return res.body;
  }

  async function lifecycle(u: TestUser): Promise<Lifecycle[]> {
    const res = await t.http().get('/api/admin/notifications').query({ user: u.user.code, pageSize: '200' }).set(auth(admin)).expect(200);
    return res.body.entries;
  }

  /** Polls the admin log until `check` holds on it; answers the log. */
  function lifecycleUntil(u: TestUser, check: (log: Lifecycle[]) => boolean, what: string, timeoutMs = 20_000): Promise<Lifecycle[]> {
    return waitFor(() => lifecycle(u), { until: check, timeoutMs, intervalMs: 100, message: what });
  }

  /** The outbox row a message's commit wrote (the relay reads its id from the payload). */
  async function outboxRowOf(messageCode: string): Promise<{ id: string; dispatched_at: Date | null } | undefined> {
    const rows: { id: string; dispatched_at: Date | null }[] = await t.app
      .get(DataSource)
      .query(`SELECT o.id, o.dispatched_at FROM outbox o JOIN chat_message m ON m.id = (o.payload->>'messageId')::bigint WHERE m.code = $1`, [messageCode]);
    return rows[0];
  }

  const bodies = (arrivals: Arrival[]) => arrivals.map((a) => (a.payload as PushPayload).body);

  it('sends an offline recipient the message, decrypted, with its URL, Topic, urgency and TTL; the author gets nothing', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const [subA, subB] = [await subscribe(alice), await subscribe(bob)];
    const group = await chat([alice, bob]);
    const text = `hello bob ${randomBytes(3).toString('hex')} zażółć`;
    await send(alice, group, text);

    await waitFor(() => push.arrivalsFor(subB.id).length > 0, { timeoutMs: 20_000, message: 'the push to bob' });
    const [arrival] = push.arrivalsFor(subB.id);
    expect(arrival.status).toBe(201);
    expect(arrival.error).toBeUndefined();
    expect(arrival.payload).toEqual({
      title: `${alice.user.name} ${alice.user.surname}`,
      body: text,
      url: `/messages/${group}`,
      tag: group,
    });
    expect(arrival).toMatchObject({ urgency: 'high', topic: group, ttl: 86400 });
    expect(arrival.vapid).toEqual({ aud: push.origin, exp: expect.any(Number), sub: 'mailto:push-tests@parley.test' });

    const log = await lifecycleUntil(bob, (l) => l.some((e) => e.status === 'sent'), 'sent record');
    expect(log.map((e) => e.status).sort()).toEqual(['queued', 'sent']);
    expect(log.find((e) => e.status === 'sent')).toMatchObject({ kind: 'message', httpStatus: 201, ref: group });
    // Nobody is pushed for their own message.
    expect(await lifecycle(alice)).toEqual([]);
    expect(push.arrivalsFor(subA.id)).toEqual([]);
  });

  it("speaks each recipient's language: Polish for pol, English for every other language", async () => {
    const alice = await createUser(t);
    const [bob, carol] = [await createUser(t, { lang: 'pol' }), await createUser(t, { lang: 'ger' })];
    const [subB, subC] = [await subscribe(bob), await subscribe(carol)];
    const group = await chat([alice, bob, carol]);
    await t.http().patch(`/api/message/groups/${group}`).set(auth(alice)).send({ name: 'Remont' }).expect(200);
    await send(alice, group, 'cześć wszystkim');
    await waitFor(() => push.arrivalsFor(subB.id).length === 1 && push.arrivalsFor(subC.id).length === 1, {
      timeoutMs: 20_000,
      message: 'the pushes to bob and carol',
    });
    const sender = `${alice.user.name} ${alice.user.surname}`;
    const expected = (title: string) => ({ title, body: 'cześć wszystkim', url: `/messages/${group}`, tag: group });
    expect(push.arrivalsFor(subB.id)[0].payload).toEqual(expected(`${sender} w Remont`));
    expect(push.arrivalsFor(subC.id)[0].payload).toEqual(expected(`${sender} in Remont`));
  });

  it('skips a recipient who is online (connected socket) and records why; pushes once they are away long enough', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const group = await chat([alice, bob]);
    await connect(t.url, bob.token);
    await send(alice, group, 'are you there?');
    const log = await lifecycleUntil(bob, (l) => l.length > 0, 'a decision for bob');
    expect(log).toEqual([expect.objectContaining({ kind: 'message', status: 'skipped', reason: 'online', ref: group })]);
    expect(push.arrivalsFor(subB.id)).toEqual([]);

    // Still connected, but inactive for longer than PUSH_AWAY_AFTER (300 s): pushed after all.
    const redis = worker.get(RedisService);
    await redis.client.set(redis.key('presence', 'last', bob.user.code), String(Date.now() - 10 * 60_000));
    await send(alice, group, 'wake up');
    await waitFor(() => push.arrivalsFor(subB.id).length === 1, { timeoutMs: 20_000, message: 'the push to the idle user' });
    expect(bodies(push.arrivalsFor(subB.id))).toEqual(['wake up']);
    closeAllSockets();
  });

  it('skips a message read during the delay, and a deleted one', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const group = await chat([alice, bob]);
    const read = await send(alice, group, 'read me quickly');
    await t.http().post(`/api/message/groups/${group}/read`).set(auth(bob)).send({ seq: read.seq }).expect(200);
    await lifecycleUntil(bob, (l) => l.some((e) => e.reason === 'read'), 'the read skip');

    const gone = await send(alice, group, 'oops, wrong chat');
    await t.http().delete(`/api/message/groups/${group}/messages/${gone.code}`).set(auth(alice)).expect(204);
    const log = await lifecycleUntil(bob, (l) => l.some((e) => e.reason === 'deleted'), 'the deleted skip');
    expect(log.map((e) => `${e.status}:${e.reason}`).sort()).toEqual(['skipped:deleted', 'skipped:read']);
    expect(push.arrivalsFor(subB.id)).toEqual([]);
  });

  it("does not push an offer chat's system note (the offer event is pushed instead)", async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const code = await chat([alice, bob]);
    const group = (await t.app.get(ChatGroupsRepository).findByCode(code))!;
    await t.app.get(ChatMessagesService).postSystemMessage(group, ChatMessageType.FinalJobOfferRequest, 'JOB_OFFER.MESSAGE.FINAL', alice.user.id);
    const log = await lifecycleUntil(bob, (l) => l.length > 0, 'a decision');
    expect(log).toEqual([expect.objectContaining({ status: 'skipped', reason: 'system-message' })]);
    expect(push.arrivalsFor(subB.id)).toEqual([]);
  });

  it("does not push the blocker a blocked user's message, but does in their offer chat (the deal goes on)", async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const offer = await offerIn(t, OfferStatus.Agreed, bob, alice);
    const group = await chat([alice, bob, carol]);
    await t.http().put(`/api/blocks/${alice.user.code}`).set(auth(bob)).expect(204);

    await send(carol, group, 'from carol');
    // Not pushed itself, the blocked user's newer message does not stand in for carol's.
    await send(alice, group, 'from someone bob blocked');
    await lifecycleUntil(bob, (l) => l.some((e) => e.reason === 'blocked'), 'the blocked skip');
    await waitFor(() => bodies(push.arrivalsFor(subB.id)).includes('from carol'), { timeoutMs: 20_000, message: "the push of carol's message" });
    await send(alice, offer.group, 'the work is on its way');
    await waitFor(() => bodies(push.arrivalsFor(subB.id)).includes('the work is on its way'), { timeoutMs: 20_000, message: 'the offer chat push' });
    expect(bodies(push.arrivalsFor(subB.id))).not.toContain('from someone bob blocked');
  });

  it('collapses a burst: one push for the newest message, the older ones skipped as superseded; Topic collapses on the device', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const group = await chat([alice, bob]);
    for (const n of [1, 2, 3]) await send(alice, group, `burst ${n}`);
    const log = await lifecycleUntil(
      bob,
      (l) => l.some((e) => e.status === 'sent') && l.filter((e) => e.reason === 'superseded').length === 2,
      'the burst decisions',
    );
    expect(log.filter((e) => e.status === 'queued')).toHaveLength(1);
    expect(bodies(push.arrivalsFor(subB.id))).toEqual(['burst 3']);

    // Two pushes that both go out (each after its delay) share the group's Topic: the device keeps the newer one.
    await send(alice, group, 'later 1');
    await waitFor(() => push.arrivalsFor(subB.id).length === 2, { timeoutMs: 20_000, message: 'the second push' });
    await send(alice, group, 'later 2');
    await waitFor(() => push.arrivalsFor(subB.id).length === 3, { timeoutMs: 20_000, message: 'the third push' });
    expect(push.arrivalsFor(subB.id).map((a) => a.topic)).toEqual([group, group, group]);
    expect(bodies(push.inbox(subB.id))).toEqual(['later 2']);
  });

  it('deletes a subscription the push service answers 410 for, and then has none to push to', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    push.answer(subB.id, { status: 410 });
    const group = await chat([alice, bob]);
    await send(alice, group, 'into the void');
    const log = await lifecycleUntil(bob, (l) => l.some((e) => e.status === 'subscription-removed'), 'the removal');
    expect(log.find((e) => e.status === 'subscription-removed')).toMatchObject({ httpStatus: 410, reason: 'gone' });
    const res = await t.http().get('/api/admin/notifications').query({ user: bob.user.code }).set(auth(admin)).expect(200);
    expect(res.body.subscriptions).toBe(0);

    // Without a subscription nobody can be pushed, and no record is written per message for that: the
    // subscription count above is the answer. The next subscriber's push shows the job ran meanwhile.
    const before = (await t.http().get('/api/admin/notifications').query({ user: bob.user.code }).set(auth(admin)).expect(200)).body;
    await send(alice, group, 'anyone?');
    const carol = await createUser(t);
    const subC = await subscribe(carol);
    const second = await chat([alice, carol]);
    await send(alice, second, 'someone');
    await waitFor(() => push.arrivalsFor(subC.id).length === 1, { timeoutMs: 20_000, message: 'the push to the next subscriber' });
    const after = (await t.http().get('/api/admin/notifications').query({ user: bob.user.code }).set(auth(admin)).expect(200)).body;
    expect(after.entries).toEqual(before.entries);
    expect(push.arrivalsFor(subB.id).map((a) => a.status)).toEqual([410]);
  });

  it('waits Retry-After after a 429 and retries; backs off and retries after a 500 and after a dropped connection', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    push.answer(subB.id, { status: 429, headers: { 'Retry-After': '2' } }, { status: 500 }, { status: 0, drop: true });
    const group = await chat([alice, bob]);
    await send(alice, group, 'patience');
    await waitFor(() => push.arrivalsFor(subB.id, 201).length === 1, { timeoutMs: 20_000, message: 'the delivered retry' });
    const arrivals = push.arrivalsFor(subB.id);
    expect(arrivals.map((a) => a.status)).toEqual([429, 500, 0, 201]);
    expect(arrivals[1].at - arrivals[0].at).toBeGreaterThanOrEqual(1900);
    // PUSH_BACKOFF_MS is 200 here: exponential back-off waits 200 ms, then 400 ms.
    expect(arrivals[2].at - arrivals[1].at).toBeGreaterThanOrEqual(150);
    expect(arrivals[3].at - arrivals[2].at).toBeGreaterThanOrEqual(350);
    expect(bodies(arrivals)).toEqual(['patience', 'patience', 'patience', 'patience']);
    const log = await lifecycleUntil(bob, (l) => l.some((e) => e.status === 'sent'), 'sent');
    expect(log.map((e) => `${e.status}:${e.reason ?? ''}:${e.httpStatus ?? ''}`).reverse()).toEqual([
      'queued::',
      'retrying:rate-limited:429',
      'retrying:server-error:500',
      'retrying:network:',
      'sent::201',
    ]);
  });

  it('gives a push up at once when the push service refuses it (4xx but 404/410/429), recording its status', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    push.answer(subB.id, { status: 413 });
    const group = await chat([alice, bob]);
    await send(alice, group, 'refused');
    const log = await lifecycleUntil(bob, (l) => l.some((e) => e.status === 'failed'), 'the failure');
    expect(log.map((e) => `${e.status}:${e.reason ?? ''}:${e.httpStatus ?? ''}`).reverse()).toEqual(['queued::', 'failed:rejected:413']);
    expect(push.arrivalsFor(subB.id).map((a) => a.status)).toEqual([413]);
    // A refused push says nothing about the subscription: it stays.
    const res = await t.http().get('/api/admin/notifications').query({ user: bob.user.code }).set(auth(admin)).expect(200);
    expect(res.body.subscriptions).toBe(1);
  });

  it('adds nothing when an outbox row is relayed again, and sends nothing twice even once its jobs are gone from Redis', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const group = await chat([alice, bob]);
    const message = await send(alice, group, 'only once');
    await waitFor(() => push.arrivalsFor(subB.id).length === 1, { timeoutMs: 20_000, message: 'the push' });
    await lifecycleUntil(bob, (l) => l.some((e) => e.status === 'sent'), 'the sent record');

    const db = t.app.get(DataSource);
    const { id: outboxId } = (await outboxRowOf(message.code))!;
    const [{ id: subscriptionId }]: { id: string }[] = await db.query(`SELECT id FROM push_subscription WHERE endpoint = $1`, [subB.endpoint]);
    const queue = worker.get(JobService).queue(JobName.NotifyMessage);
    const notifyId = outboxJobId(outboxId);
    const sendId = `push-${outboxId}-${subscriptionId}`;
    const first = (await queue.getJob(notifyId))!;
    expect(await first.getState()).toBe('completed');
    const redispatch = async () => {
      await db.query(`UPDATE outbox SET dispatched_at = NULL WHERE id = $1`, [outboxId]);
      await waitFor(
        () => db.query(`SELECT dispatched_at FROM outbox WHERE id = $1`, [outboxId]).then((r: { dispatched_at: Date | null }[]) => r[0].dispatched_at),
        { until: (at) => at !== null, timeoutMs: 30_000, message: 'the row dispatched again' },
      );
    };

    // The relay takes the row again (as after a commit it could not confirm): the job id is taken, nothing is added.
    await redispatch();
    const kept = (await queue.getJob(notifyId))!;
    expect({ timestamp: kept.timestamp, finishedOn: kept.finishedOn }).toEqual({ timestamp: first.timestamp, finishedOn: first.finishedOn });

    // Redis lost both jobs (no persistence): the replayed decision finds its first one, and the send its 'sent' record.
    expect(await queue.remove(notifyId)).toBe(1);
    expect(await queue.remove(sendId)).toBe(1);
    await redispatch();
    const replayed = await waitFor(() => queue.getJob(sendId), { until: (j) => Boolean(j?.finishedOn), timeoutMs: 30_000, message: 'the replayed send' });
    expect(replayed!.returnvalue).toBe('already-sent');
    expect((await queue.getJob(notifyId))!.returnvalue).toEqual({ queued: 1 });
    expect(push.arrivalsFor(subB.id)).toHaveLength(1);
    expect((await lifecycle(bob)).map((e) => e.status).sort()).toEqual(['queued', 'sent']);
  });

  it('queues no job for a message none of whose recipients has a subscription, and counts them as skipped', async () => {
    const [alice, bob, carol] = [await createUser(t), await createUser(t), await createUser(t)];
    // Alice's own subscription does not make her message pushable: nobody is pushed for their own message.
    await subscribe(alice);
    const group = await chat([alice, bob, carol]);
    const skippedBefore = (await t.http().get('/api/health').expect(200)).body.notifications.skipped as number;
    const message = await send(alice, group, 'nobody to push');

    const { id: outboxId } = (await waitFor(() => outboxRowOf(message.code), {
      until: (row) => row?.dispatched_at != null,
      timeoutMs: 30_000,
      message: 'the row dispatched',
    }))!;
    expect(await worker.get(JobService).queue(JobName.NotifyMessage).getJob(outboxJobId(outboxId))).toBeUndefined();
    await waitFor(
      () =>
        t
          .http()
          .get('/api/health')
          .then((r) => r.body.notifications.skipped as number),
      { until: (skipped) => skipped >= skippedBefore + 2, timeoutMs: 30_000, message: 'bob and carol counted as skipped' },
    );
    expect(await lifecycle(bob)).toEqual([]);
  });

  it('trims a long body so the plaintext stays within 3,993 bytes', async () => {
    const [alice, bob] = [await createUser(t), await createUser(t)];
    const subB = await subscribe(bob);
    const group = await chat([alice, bob]);
    await send(alice, group, 'ż'.repeat(5000));
    await waitFor(() => push.arrivalsFor(subB.id).length === 1, { timeoutMs: 20_000, message: 'the long push' });
    const [arrival] = push.arrivalsFor(subB.id);
    expect(arrival.status).toBe(201);
    expect(arrival.plaintextBytes).toBeLessThanOrEqual(MAX_PUSH_PLAINTEXT);
    expect(arrival.plaintextBytes).toBeGreaterThan(MAX_PUSH_PLAINTEXT - 4);
    const body = (arrival.payload as PushPayload).body;
    expect(body).toMatch(/^ż+…$/);
  });

  describe('offer status changes (outbox rows as the marketplace writes them)', () => {
    async function offerEvent(payload: Record<string, unknown>): Promise<void> {
      await t.app.get(DataSource).query(`INSERT INTO outbox (topic, payload) VALUES ('offer.status-changed', $1)`, [payload]);
    }

    it('tells the other party in their language; payment requested to the customer, received to the provider', async () => {
      const customer = await createUser(t, { lang: 'pol' });
      const provider = await createUser(t, { lang: 'eng' });
      const [subC, subP] = [await subscribe(customer), await subscribe(provider)];
      const offer = { offerId: '1', offerCode: `of${randomBytes(6).toString('base64url')}`, jobCode: 'job12345', groupCode: 'grp12345' };
      const ids = { customerId: customer.user.id, providerId: provider.user.id };

      await offerEvent({ ...offer, ...ids, from: 10, to: 50, actorId: customer.user.id });
      await waitFor(() => push.arrivalsFor(subP.id).length === 1, { timeoutMs: 20_000, message: 'the status push to the provider' });
      expect(push.arrivalsFor(subP.id)[0].payload).toEqual({
        title: 'Offer updated',
        body: `Offer ${offer.offerCode} is now: Approved by the customer`,
        url: `/jobs/job12345/offers/${offer.offerCode}`,
        tag: offer.offerCode,
      });
      expect(push.arrivalsFor(subP.id)[0]).toMatchObject({ topic: offer.offerCode, urgency: 'normal' });

      await offerEvent({ ...offer, ...ids, from: 130, to: 160, actorId: provider.user.id });
      await waitFor(() => push.arrivalsFor(subC.id).length === 1, { timeoutMs: 20_000, message: 'the payment request to the customer' });
      expect(push.arrivalsFor(subC.id)[0].payload).toEqual({
        title: 'Prośba o płatność',
        body: `Oferta ${offer.offerCode} czeka na Twoją płatność`,
        url: '/jobs/payments',
        tag: offer.offerCode,
      });

      await offerEvent({ ...offer, ...ids, from: 160, to: 200, actorId: customer.user.id, paymentId: '77' });
      await waitFor(() => push.arrivalsFor(subP.id).length === 2, { timeoutMs: 20_000, message: 'the payment receipt to the provider' });
      expect(push.arrivalsFor(subP.id)[1].payload).toMatchObject({ title: 'Payment received', url: `/jobs/job12345/offers/${offer.offerCode}` });

      // Nobody was pushed for their own action: the customer approved and paid, the provider asked for payment.
      const customerLog = await lifecycle(customer);
      const providerLog = await lifecycle(provider);
      expect(customerLog.map((e) => `${e.kind}:${e.status}`).sort()).toEqual(['payment-requested:queued', 'payment-requested:sent']);
      expect(providerLog.map((e) => `${e.kind}:${e.status}`).sort()).toEqual([
        'offer-status:queued',
        'offer-status:sent',
        'payment-received:queued',
        'payment-received:sent',
      ]);
      expect(push.arrivalsFor(subC.id)).toHaveLength(1);
    });
  });
});
