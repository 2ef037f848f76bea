import { TestingModule } from '@nestjs/testing';
import { Job, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { DAY_MS, DEFAULT_OFFER_TIMER_SETTINGS, OfferStatus, OfferTimerDue } from '#shared/contracts/offers';
import { loadConfig } from '#shared/config/load-config';
import { JobName, QueueName } from '#shared/contracts/queues';
import { bullConnection, bullPrefix } from '#shared/queue/bull-connection';
import { Role } from '#shared/contracts/roles';
import { offerTimerJobId } from '../../workers/src/timers/offer-timers';
import { createUser, TestUser } from '../factories';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService, TestSubscription } from '../push-service/push-service';
import { testEnv } from '../utils/test-env';
import { closeAllSockets, connect, ListeningApp, listenTestApp, record } from '../utils/sockets';
import { as, move, offerIn, OfferRef } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

/**
 * Offer timers on a clock the test controls: the real delayed BullMQ jobs the worker sets after each move, checked
 * for their due time and then promoted (made due now), so nothing waits 14 days and nothing sleeps.
 */
describe('marketplace: offer timers (expiry, reminders, auto-accept)', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  let t: ListeningApp;
  let worker: TestingModule | undefined;
  let customer: TestUser, provider: TestUser, admin: TestUser;
  let subCustomer: TestSubscription, subProvider: TestSubscription;
  let queue: Queue;

  beforeAll(async () => {
    push = await LocalPushService.start();
    setup = await pushTestEnv('offer-timers', push, { OFFER_TIMER_CONFIRM_MS: '3000', OFFER_TIMER_BACKOFF_MS: '100' });
    t = await listenTestApp(setup.env);
    worker = await bootWorker(setup.env);
    // The test's own handle on the queue, so it outlives the server and worker it restarts.
    const config = loadConfig(testEnv(setup.env));
    queue = new Queue(QueueName.OfferTimers, { connection: bullConnection(config.REDIS_URL), prefix: bullPrefix(config.REDIS_PREFIX) });
    [customer, provider, admin] = await Promise.all([createUser(t), createUser(t), createUser(t, { role: Role.InstanceAdmin })]);
    [subCustomer, subProvider] = await Promise.all([subscribe(customer), subscribe(provider)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await t?.close();
    await push?.stop();
    await setup?.drop();
  });

  async function subscribe(u: TestUser): Promise<TestSubscription> {
    const sub = push.subscribe(setup.vapidPublicKey);
    await t.http().post('/api/User/WebPush/Register').set(as(u)).send({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }).expect(204);
    return sub;
  }

  const db = () => t.app.get(DataSource);
  const offerRow = async (ref: OfferRef): Promise<{ id: string; version: number; status: number }> =>
    (await db().query(`SELECT id::text, version, status FROM job_offer WHERE code = $1`, [ref.offer]))[0];
  const getOffer = async (ref: OfferRef) => (await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(customer)).expect(200)).body;
  const notes = async (ref: OfferRef): Promise<string[]> =>
    (
      await db().query(`SELECT m.text FROM chat_message m JOIN chat_group g ON g.id = m.group_id WHERE g.code = $1 AND m.offer_note ORDER BY m.seq`, [
        ref.group,
      ])
    ).map((r: { text: string }) => r.text);
  /** Pushes about this offer with this title (pushes of the moves that led the offer here may still be arriving). */
  const pushesTo = (sub: TestSubscription, ref: OfferRef, title: string) =>
    push
      .arrivalsFor(sub.id, 201)
      .map((a) => a.payload as PushPayload)
      .filter((p) => p.url.includes(ref.offer) && p.title === title)
      .concat(
        push
          .arrivalsFor(sub.id, 201)
          .map((a) => a.payload as PushPayload)
          .filter((p) => p.url === '/jobs/payments' && title === 'Payment requested' && p.body.includes(ref.offer)),
      );

  /** The offer's timer job for this step of its current wait: delayed, due `days` after the offer's last move. */
  async function timer(ref: OfferRef, key: string, days: number): Promise<Job<OfferTimerDue>> {
    const offer = await offerRow(ref);
    const id = offerTimerJobId(offer.id, offer.version, key);
    const job = await waitFor(() => queue.getJob(id), { until: (j) => j !== undefined, timeoutMs: 10_000, message: `timer ${id}` });
    const [{ since }] = await db().query(`SELECT updated_at AS since FROM job_offer WHERE id = $1`, [offer.id]);
    expect(await job!.getState()).toBe('delayed');
    // Due `days` after the move that started the wait (to the second: the job's clock and Postgres's may differ by ms).
    expect(Math.abs(job!.timestamp + job!.delay - (new Date(since).getTime() + days * DAY_MS))).toBeLessThan(1000);
    expect(job!.data).toEqual({ offerId: offer.id, version: offer.version, status: offer.status, key });
    return job!;
  }

  /** Makes the delayed job due now and waits until the worker has run it; answers what it returned. */
  async function fire(job: Job): Promise<unknown> {
    await job.promote();
    await waitFor(() => job.getState(), { until: (s) => s === 'completed' || s === 'failed', timeoutMs: 15_000, message: `job ${job.id} to finish` });
    const done = (await queue.getJob(job.id!))!;
    expect(done.failedReason).toBeUndefined();
    return done.returnvalue;
  }

  it('reminds the provider of a Proposal before it lapses, then expires it: note, live status, pushes and history like a move', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const sc = await connect(t.url, customer.token);
    const statuses = record(sc, 'offer:status');
    const messages = record<{ message: string; offerNote?: boolean; userCode: string | null }>(sc, 'message:new');
    const offer = await getOffer(ref);
    // The offer view can say when the wait lapses: 14 days after the last move by default.
    expect(new Date(offer.lapsesAt).getTime() - Date.now()).toBeGreaterThan(14 * DAY_MS - 60_000);

    expect(await fire(await timer(ref, 'remind-12', 12))).toBe('applied');
    await waitFor(() => messages.some((m) => m.message === 'JOB_OFFER.MESSAGE.LAPSE_REMINDER'));
    expect(messages.find((m) => m.message === 'JOB_OFFER.MESSAGE.LAPSE_REMINDER')).toMatchObject({ offerNote: true, userCode: null });
    await waitFor(() => pushesTo(subProvider, ref, 'Waiting for you').length === 1, { timeoutMs: 20_000, message: 'the reminder push' });
    expect(pushesTo(subProvider, ref, 'Waiting for you')[0]).toEqual({
      title: 'Waiting for you',
      body: `Offer ${ref.offer} is waiting for your move: Proposal`,
      url: `/jobs/${ref.job}/offers/${ref.offer}`,
      tag: ref.offer,
    });
    expect(statuses).toEqual([]);
    expect((await getOffer(ref)).status).toBe(OfferStatus.Proposal);

    expect(await fire(await timer(ref, 'expire', 14))).toBe('applied');
    await waitFor(() => statuses.length === 1);
    expect(statuses[0]).toMatchObject({
      offerCode: ref.offer,
      status: OfferStatus.Closed,
      previousStatus: OfferStatus.Proposal,
      actorCode: null,
      lapsesAt: null,
    });
    await waitFor(() => messages.some((m) => m.message === 'JOB_OFFER.MESSAGE.EXPIRED'));
    expect(await notes(ref)).toEqual(['JOB_OFFER.MESSAGE.PROPOSAL', 'JOB_OFFER.MESSAGE.LAPSE_REMINDER', 'JOB_OFFER.MESSAGE.EXPIRED']);
    // Nobody made the move, so both parties are told (the customer is online: the provider gets the push).
    await waitFor(() => pushesTo(subProvider, ref, 'Offer updated').length === 1, { timeoutMs: 20_000, message: 'the expiry push' });
    expect(pushesTo(subProvider, ref, 'Offer updated')[0]).toMatchObject({ body: `Offer ${ref.offer} is now: Closed` });
    const events = (await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}/events`).set(as(provider)).expect(200)).body;
    expect(events.at(-1)).toMatchObject({ from: OfferStatus.Proposal, to: OfferStatus.Closed, call: 'expire', actor: null });
    expect(await getOffer(ref)).toMatchObject({ status: OfferStatus.Closed, lapsesAt: null });
  });

  it('accepts a finalisation request the customer ignores, so the payment is asked for; payment pending is reminded after 3 and 7 days', async () => {
    const ref = await offerIn(t, OfferStatus.FinalizeRequested, customer, provider);
    const sp = await connect(t.url, provider.token);
    const statuses = record(sp, 'offer:status');
    const reminders = () => pushesTo(subCustomer, ref, 'Waiting for you');

    await fire(await timer(ref, 'remind-12', 12));
    await waitFor(() => reminders().length === 1, { timeoutMs: 20_000, message: 'the customer reminded to accept the work' });
    expect(reminders()[0].body).toBe(`Offer ${ref.offer} is waiting for your move: Finalisation requested`);
    expect(await fire(await timer(ref, 'autoApproveFinalize', 14))).toBe('applied');
    await waitFor(() => statuses.some((s) => s.status === OfferStatus.PaymentPending));
    expect(statuses.at(-1)).toMatchObject({ previousStatus: OfferStatus.FinalizeRequested, actorCode: null, lapsesAt: null });
    await waitFor(() => pushesTo(subCustomer, ref, 'Payment requested').length === 1, { timeoutMs: 20_000, message: 'the payment request' });
    expect((await getOffer(ref)).status).toBe(OfferStatus.PaymentPending);

    await fire(await timer(ref, 'remind-3', 3));
    await waitFor(() => reminders().length === 2, { timeoutMs: 20_000, message: 'the first payment reminder' });
    await fire(await timer(ref, 'remind-7', 7));
    await waitFor(() => reminders().length === 3, { timeoutMs: 20_000, message: 'the second payment reminder' });
    expect(reminders()[2].body).toBe(`The payment for offer ${ref.offer} is still due`);
    expect(await notes(ref)).toEqual(expect.arrayContaining(['JOB_OFFER.MESSAGE.FINALIZE_AUTO_APPROVED', 'JOB_OFFER.MESSAGE.PAYMENT_REMINDER']));
    expect((await notes(ref)).filter((n) => n === 'JOB_OFFER.MESSAGE.PAYMENT_REMINDER')).toHaveLength(2);
    // Payment pending never lapses: nothing more is set.
    const offer = await offerRow(ref);
    expect((await queue.getDelayed()).filter((j) => j.data.offerId === offer.id)).toEqual([]);
  });

  it('moves the timer with every move, and a timer for an offer moved meanwhile (or a step already applied) does nothing', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const first = await timer(ref, 'remind-12', 12);
    const stale = { ...first.data };

    // A revision is a move: the wait starts again, the old timer is dropped and a new one is set for the new version.
    await move(t, provider, ref, 'update').expect(200);
    const second = await timer(ref, 'remind-12', 12);
    expect(second.id).not.toBe(first.id);
    await waitFor(() => queue.getJob(first.id!), { until: (j) => j === undefined, timeoutMs: 30_000, message: 'the old timer removed' });

    // A timer left behind for the old version (say a removal that failed) fires and changes nothing.
    const leftover = await queue.add(JobName.FireOfferTimer, stale, { jobId: `${first.id}-leftover`, delay: DAY_MS });
    expect(await fire(leftover)).toBe('moved');
    expect(await notes(ref)).toEqual(['JOB_OFFER.MESSAGE.PROPOSAL', 'JOB_OFFER.MESSAGE.REVISED']);

    // The same step twice: applied once.
    expect(await fire(second)).toBe('applied');
    const again = await queue.add(JobName.FireOfferTimer, second.data, { jobId: `${second.id}-again`, delay: DAY_MS });
    expect(await fire(again)).toBe('applied');
    expect((await notes(ref)).filter((n) => n === 'JOB_OFFER.MESSAGE.LAPSE_REMINDER')).toHaveLength(1);
    expect((await db().query(`SELECT count(*)::int AS n FROM offer_timer_fired WHERE offer_id = $1`, [(await offerRow(ref)).id]))[0].n).toBe(1);

    // A party's move before the lapse cancels it; a lapse that fires all the same (it was already running) finds the offer moved.
    const lapse = await timer(ref, 'expire', 14);
    await move(t, provider, ref, 'final').expect(200);
    await timer(ref, 'remind-12', 12);
    expect(await queue.getJob(lapse.id!)).toBeUndefined();
    const late = await queue.add(JobName.FireOfferTimer, lapse.data, { jobId: `${lapse.id}-late`, delay: DAY_MS });
    expect(await fire(late)).toBe('moved');
    expect((await getOffer(ref)).status).toBe(OfferStatus.FinalOffer);
    expect(await notes(ref)).toEqual([
      'JOB_OFFER.MESSAGE.PROPOSAL',
      'JOB_OFFER.MESSAGE.REVISED',
      'JOB_OFFER.MESSAGE.LAPSE_REMINDER',
      'JOB_OFFER.MESSAGE.FINAL_OFFER',
    ]);
  });

  it('keeps a pending timer across restarts of the worker, and sets timers for moves made while it was down', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    await timer(ref, 'remind-12', 12);
    await worker!.close();
    worker = undefined;
    // Moved while no worker runs: the outbox row waits in Postgres.
    await move(t, provider, ref, 'final').expect(200);
    worker = await bootWorker(setup.env);
    const reminder = await timer(ref, 'remind-12', 12);
    await worker.close();
    worker = await bootWorker(setup.env);
    expect(await reminder.getState()).toBe('delayed');
    expect(await fire(reminder)).toBe('applied');
    expect(await fire(await timer(ref, 'expire', 14))).toBe('applied');
    expect((await getOffer(ref)).status).toBe(OfferStatus.Closed);
  });

  it('applies a timer that fell due while no server was up once one is (the worker retries the hand-over)', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const reminder = await timer(ref, 'remind-12', 12);
    await t.close();
    await reminder.promote();
    // Nobody to apply it: the attempt fails and waits for its retry.
    await waitFor(() => reminder.getState(), {
      until: (s) => s === 'delayed' || s === 'waiting',
      timeoutMs: 10_000,
      message: 'the failed attempt to be retried later',
    });
    t = await listenTestApp(setup.env);
    await waitFor(() => notes(ref), {
      until: (n) => n.includes('JOB_OFFER.MESSAGE.LAPSE_REMINDER'),
      timeoutMs: 20_000,
      message: 'the reminder applied by the new server',
    });
    const done = (await queue.getJob(reminder.id!))!;
    await waitFor(() => done.getState(), { until: (s) => s === 'completed', timeoutMs: 10_000, message: 'the timer job completed' });
    expect((await queue.getJob(reminder.id!))!.attemptsMade).toBeGreaterThan(1);
    expect((await notes(ref)).filter((n) => n === 'JOB_OFFER.MESSAGE.LAPSE_REMINDER')).toHaveLength(1);
  });

  it('sets pending timers again when the worker starts and Redis no longer has them (lost without persistence)', async () => {
    const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    const before = await timer(ref, 'remind-12', 12);
    await worker!.close();
    worker = undefined;
    await queue.obliterate({ force: true });
    expect(await queue.getJob(before.id!)).toBeUndefined();
    worker = await bootWorker(setup.env);
    const again = await timer(ref, 'remind-12', 12);
    expect(await fire(again)).toBe('applied');
    expect(await notes(ref)).toContain('JOB_OFFER.MESSAGE.LAPSE_REMINDER');
  });

  describe('per-instance durations', () => {
    const put = (who: TestUser, body: object) => t.http().put('/api/job-offers/timers').set(as(who)).send(body);

    it('refuses bad durations with one error naming each broken rule, and changes nothing', async () => {
      const cases: [object, string[]][] = [
        [{ offerExpiryDays: -1 }, ['VALIDATION.OFFER_EXPIRY_DAYS.MIN']],
        [{ offerExpiryDays: 366 }, ['VALIDATION.OFFER_EXPIRY_DAYS.MAX']],
        [{ finalizeAutoAcceptDays: 1.5 }, ['VALIDATION.FINALIZE_AUTO_ACCEPT_DAYS.IS_INT']],
        [{ reminderDaysBefore: '2' }, ['VALIDATION.REMINDER_DAYS_BEFORE.IS_INT']],
        [{ paymentReminderDays: [7, 3] }, ['VALIDATION.PAYMENT_REMINDER_DAYS.ASCENDING']],
        [{ paymentReminderDays: [0] }, ['VALIDATION.PAYMENT_REMINDER_DAYS.MIN']],
        [{ paymentReminderDays: [1, 2, 3, 4, 5, 6] }, ['VALIDATION.PAYMENT_REMINDER_DAYS.ARRAY_MAX_SIZE']],
        [{ paymentReminderDays: 3 }, ['VALIDATION.PAYMENT_REMINDER_DAYS.IS_ARRAY']],
        [{ offerExpiryDays: 10, hours: 3 }, ['VALIDATION.HOURS.UNKNOWN_FIELD']],
        [{}, ['VALIDATION.OFFER_TIMERS.NOTHING_TO_UPDATE']],
      ];
      for (const [body, rules] of cases) {
        const res = await put(admin, body).expect(422);
        expect({ body, error: res.body }).toEqual({
          body,
          error: { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: expect.arrayContaining(rules) } },
        });
      }
      await put(customer, { offerExpiryDays: 3 }).expect(403);
      const now = await t.http().get('/api/job-offers/timers').set(as(admin)).expect(200);
      expect(now.body).toMatchObject(DEFAULT_OFFER_TIMER_SETTINGS);
    });

    it("times new waits by the instance's settings", async () => {
      const res = await put(admin, { offerExpiryDays: 30, reminderDaysBefore: 0, paymentReminderDays: [1] }).expect(200);
      expect(res.body).toMatchObject({ offerExpiryDays: 30, finalizeAutoAcceptDays: 14, reminderDaysBefore: 0, paymentReminderDays: [1] });
      const ref = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
      await timer(ref, 'expire', 30);
      expect(new Date((await getOffer(ref)).lapsesAt).getTime() - Date.now()).toBeGreaterThan(29.9 * DAY_MS);
    });
  });
});
