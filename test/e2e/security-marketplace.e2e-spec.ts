import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { ChatMessageOfferNoteBackfill1764500100000 } from '../../migrations/1764500100000-ChatMessageOfferNoteBackfill';
import { createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { as, makeOffer, move, offerIn, OfferRef, postJob, price } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

/** Replays the marketplace reproductions of the security probe (issue 36) and asserts each is refused. */
describe('security: marketplace', () => {
  let t: ListeningApp;
  let customer: TestUser, provider: TestUser;

  beforeAll(async () => {
    t = await listenTestApp();
    [customer, provider] = await Promise.all([createUser(t), createUser(t)]);
  });

  afterEach(() => closeAllSockets());
  afterAll(async () => {
    closeAllSockets();
    await t.close();
  });

  interface Msg {
    code: string;
    seq: number;
    message: string;
    offerNote?: boolean;
    replyTo?: { offerNote?: boolean } | null;
  }

  const page = async (ref: OfferRef, who: TestUser): Promise<Msg[]> =>
    (await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(who)).send({}).expect(200)).body.messages;

  describe('item 4: offer notes are marked by where they come from, never by their text', () => {
    it('a note key sent over REST is a plain message: no offerNote anywhere, and its author can edit it', async () => {
      const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
      const sent = await t.http().post(`/api/message/groups/${ref.group}`).set(as(customer)).send({ message: 'JOB_OFFER.MESSAGE.PAID' }).expect(201);
      expect(sent.body.message).toBe('JOB_OFFER.MESSAGE.PAID');
      expect(sent.body.offerNote).toBeUndefined();
      const stored = (await page(ref, provider)).find((m) => m.code === sent.body.code)!;
      expect(stored.offerNote).toBeUndefined();
      // A reply quoting it does not present it as a note either.
      const reply = await t
        .http()
        .post(`/api/message/groups/${ref.group}`)
        .set(as(provider))
        .send({ message: 'really?', replyToId: sent.body.code })
        .expect(201);
      expect(reply.body.replyTo).toMatchObject({ message: 'JOB_OFFER.MESSAGE.PAID' });
      expect(reply.body.replyTo.offerNote).toBeUndefined();
      // Its author edits it back.
      const edited = await t
        .http()
        .patch(`/api/message/groups/${ref.group}/messages/${sent.body.code}`)
        .set(as(customer))
        .send({ message: 'never mind' })
        .expect(200);
      expect(edited.body.message).toBe('never mind');
    });

    it('a plain message edited into a note key over REST stays plain and editable', async () => {
      const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
      const sent = await t.http().post(`/api/message/groups/${ref.group}`).set(as(customer)).send({ message: 'hello' }).expect(201);
      const url = `/api/message/groups/${ref.group}/messages/${sent.body.code}`;
      const forged = await t.http().patch(url).set(as(customer)).send({ message: 'JOB_OFFER.MESSAGE.PAID' }).expect(200);
      expect(forged.body.offerNote).toBeUndefined();
      expect((await page(ref, provider)).find((m) => m.code === sent.body.code)!.offerNote).toBeUndefined();
      await t.http().patch(url).set(as(customer)).send({ message: 'hello again' }).expect(200);
    });

    it('over the socket: the ack, message:new, message:updated and sync carry no offerNote for a typed key; a real note carries it', async () => {
      const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
      const [sc, sp] = await Promise.all([connect(t.url, customer.token), connect(t.url, provider.token)]);
      const providerNew = record<Msg & { groupCode: string }>(sp, 'message:new');
      const sent = await call(sc, 'message:send', { groupCode: ref.group, clientKey: 'forge-1', message: 'JOB_OFFER.MESSAGE.PAID' });
      expect(sent.ok).toBe(true);
      expect(sent.message.offerNote).toBeUndefined();
      await waitFor(() => providerNew.some((m) => m.code === sent.message.code));
      expect(providerNew.find((m) => m.code === sent.message.code)!.offerNote).toBeUndefined();

      const updated = next<{ code: string; message: string; offerNote?: boolean }>(sp, 'message:updated', (p) => p.code === sent.message.code);
      const edit = await call(sc, 'message:edit', { groupCode: ref.group, code: sent.message.code, message: 'JOB_OFFER.MESSAGE.REJECTED' });
      expect(edit.ok).toBe(true);
      expect(edit.message.offerNote).toBeUndefined();
      expect(await updated).toMatchObject({ message: 'JOB_OFFER.MESSAGE.REJECTED' });
      expect((await updated).offerNote).toBeUndefined();

      // A real move's note is marked, live and in sync, and its author cannot edit it.
      expect((await move(t, provider, ref, 'update', {}, price('99.00'))).status).toBe(200);
      await waitFor(() => providerNew.some((m) => m.message === 'JOB_OFFER.MESSAGE.REVISED'));
      const note = providerNew.find((m) => m.message === 'JOB_OFFER.MESSAGE.REVISED')!;
      expect(note.offerNote).toBe(true);
      const sync = await call(sp, 'sync', { groups: [{ groupCode: ref.group, afterSeq: 0 }] });
      const synced = new Map((sync.messages as Msg[]).map((m) => [m.code, m]));
      expect(synced.get(sent.message.code)).toMatchObject({ message: 'JOB_OFFER.MESSAGE.REJECTED' });
      expect(synced.get(sent.message.code)!.offerNote).toBeUndefined();
      expect(synced.get(note.code)!.offerNote).toBe(true);
      const refused = await call(sp, 'message:edit', { groupCode: ref.group, code: note.code, message: 'something else' });
      expect(refused).toEqual({ ok: false, error: { code: 409, message: 'CHAT.MESSAGE.NOT_EDITABLE' } });
    });

    it('the migration marks the notes stored before the mark existed by the moves that posted them, not a typed key', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
      const typed = await t.http().post(`/api/message/groups/${ref.group}`).set(as(customer)).send({ message: 'JOB_OFFER.MESSAGE.PAID' }).expect(201);
      const db = t.app.get(DataSource);
      // As stored before: nothing marked.
      await db.query(`UPDATE chat_message SET offer_note = false WHERE group_id = (SELECT id FROM chat_group WHERE code = $1)`, [ref.group]);
      const runner = db.createQueryRunner();
      try {
        await new ChatMessageOfferNoteBackfill1764500100000().up(runner);
      } finally {
        await runner.release();
      }
      const marked = (await page(ref, provider)).map((m) => [m.message, m.offerNote === true]);
      expect(marked).toEqual([
        ['JOB_OFFER.MESSAGE.PROPOSAL', true],
        ['JOB_OFFER.MESSAGE.FINAL_OFFER', true],
        ['JOB_OFFER.MESSAGE.APPROVED', true],
        ['JOB_OFFER.MESSAGE.AGREED', true],
        ['JOB_OFFER.MESSAGE.FINALIZE_REQUESTED', true],
        ['JOB_OFFER.MESSAGE.PAYMENT_REQUESTED', true],
        ['JOB_OFFER.MESSAGE.PAID', false],
      ]);
      expect((await page(ref, provider)).at(-1)!.code).toBe(typed.body.code);
    });
  });

  describe('item 8: two simultaneous "choose, no more offers" on one job', () => {
    it('never deadlock: one wins, the other is 409, and the job ends with one chosen offer and the other closed (10 rounds)', async () => {
      const [p1, p2] = await Promise.all([createUser(t), createUser(t)]);
      for (let round = 0; round < 10; round++) {
        const job = await postJob(t, customer);
        const [a, b] = await Promise.all([offerIn(t, OfferStatus.FinalOffer, customer, p1, job), offerIn(t, OfferStatus.FinalOffer, customer, p2, job)]);
        const body = { allowForMoreOffers: false };
        const answers = await Promise.all([move(t, customer, a, 'choose', {}, body), move(t, customer, b, 'choose', {}, body)]);
        const statuses = answers.map((r) => r.status).sort();
        expect({ round, statuses }).toEqual({ round, statuses: [200, 409] });
        const loser = answers.find((r) => r.status === 409)!;
        expect(loser.body).toMatchObject({ code: 409, message: expect.stringMatching(/^JOB_OFFER\.(CHANGED_MEANWHILE|ILLEGAL_TRANSITION)$/) });
        const winner = answers[0].status === 200 ? a : b;
        const offers = (await t.http().get(`/api/jobs/${job}/offers`).set(as(customer)).expect(200)).body.offers as { code: string; status: number }[];
        expect(Object.fromEntries(offers.map((o) => [o.code, o.status]))).toEqual({
          [a.offer]: winner === a ? OfferStatus.CustomerApproved : OfferStatus.Closed,
          [b.offer]: winner === b ? OfferStatus.CustomerApproved : OfferStatus.Closed,
        });
        expect((await t.http().get(`/api/job/${job}`).set(as(customer)).expect(200)).body.acceptingOffers).toBe(false);
      }
    });
  });

  describe('item 11: a manual payment waits for the provider to confirm it arrived', () => {
    const offerOf = async (ref: OfferRef) => (await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(customer)).expect(200)).body;
    const outbox = async (ref: OfferRef) =>
      (
        await t.app
          .get(DataSource)
          .query(`SELECT payload FROM outbox WHERE topic = 'offer.status-changed' AND payload->>'offerCode' = $1 ORDER BY id`, [ref.offer])
      ).map((r: { payload: { from: number; to: number; paymentId?: string } }) => [r.payload.from, r.payload.to, r.payload.paymentId !== undefined]);

    it('paying declares the payment: the offer waits in PaymentDeclared, live to both, and closes only when the provider confirms', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
      const [sc, sp] = await Promise.all([connect(t.url, customer.token), connect(t.url, provider.token)]);
      const [toCustomer, toProvider] = [record(sc, 'offer:status'), record(sp, 'offer:status')];

      const paid = await move(t, customer, ref, 'pay').expect(200);
      expect(paid.body.offer.status).toBe(OfferStatus.PaymentDeclared);
      expect(paid.body.payment).toMatchObject({ status: 'pending', provider: 'manual', reference: 'bank transfer 1' });
      await waitFor(() => toCustomer.length === 1 && toProvider.length === 1);
      for (const pushed of [toCustomer[0], toProvider[0]])
        expect(pushed).toMatchObject({ offerCode: ref.offer, status: OfferStatus.PaymentDeclared, previousStatus: OfferStatus.PaymentPending });
      await waitFor(async () => (await page(ref, provider)).at(-1)?.message === 'JOB_OFFER.MESSAGE.PAYMENT_DECLARED');
      expect((await page(ref, provider)).some((m) => m.message === 'JOB_OFFER.MESSAGE.PAID')).toBe(false);
      // Not closed, not "payment received": the customer's word alone is no payment.
      expect(await outbox(ref)).toEqual(expect.arrayContaining([[OfferStatus.PaymentPending, OfferStatus.PaymentDeclared, true]]));
      expect((await outbox(ref)).some(([, to]: [number, number, boolean]) => to === OfferStatus.Closed)).toBe(false);
      expect((await t.http().get('/api/job-offers/payments').set(as(provider)).expect(200)).body.payments[0]).toMatchObject({
        offerCode: ref.offer,
        status: 'pending',
        direction: 'received',
      });
      expect((await t.http().get('/api/job-offers/for-payment').set(as(customer)).expect(200)).body.offers.map((o: { code: string }) => o.code)).not.toContain(
        ref.offer,
      );

      // Only the provider confirms; the customer cannot close it themselves, and cannot pay twice.
      expect((await move(t, customer, ref, 'confirmPayment')).body).toEqual({ code: 403, message: 'JOB_OFFER.NOT_YOUR_MOVE' });
      expect((await move(t, customer, ref, 'pay')).body).toMatchObject({ code: 409, message: 'JOB_OFFER.ILLEGAL_TRANSITION' });
      const confirmed = await move(t, provider, ref, 'confirmPayment').expect(200);
      expect(confirmed.body.offer.status).toBe(OfferStatus.Closed);
      expect(confirmed.body.payment).toMatchObject({ code: paid.body.payment.code, status: 'succeeded' });
      await waitFor(() => toCustomer.length === 2 && toProvider.length === 2);
      expect(toCustomer[1]).toMatchObject({ status: OfferStatus.Closed, previousStatus: OfferStatus.PaymentDeclared, actorCode: provider.user.code });
      await waitFor(async () => (await page(ref, customer)).at(-1)?.message === 'JOB_OFFER.MESSAGE.PAYMENT_CONFIRMED');
      expect((await page(ref, customer)).at(-1)!.offerNote).toBe(true);
    });

    it('the provider says it has not arrived: the offer waits for payment again, the payment is disputed, and a new payment can be declared', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentDeclared, customer, provider);
      const sc = await connect(t.url, customer.token);
      const toCustomer = record(sc, 'offer:status');
      const disputed = await move(t, provider, ref, 'disputePayment').expect(200);
      expect(disputed.body.offer.status).toBe(OfferStatus.PaymentPending);
      expect(disputed.body.payment.status).toBe('disputed');
      await waitFor(() => toCustomer.length === 1);
      expect(toCustomer[0]).toMatchObject({ status: OfferStatus.PaymentPending, previousStatus: OfferStatus.PaymentDeclared });
      await waitFor(async () => (await page(ref, customer)).at(-1)?.message === 'JOB_OFFER.MESSAGE.PAYMENT_NOT_RECEIVED');
      expect((await offerOf(ref)).status).toBe(OfferStatus.PaymentPending);

      const again = await move(t, customer, ref, 'pay', {}, { reference: 'second transfer' }).expect(200);
      expect(again.body.payment).toMatchObject({ status: 'pending', reference: 'second transfer' });
      await move(t, provider, ref, 'confirmPayment').expect(200);
      const statuses = (await t.http().get('/api/job-offers/payments').set(as(customer)).expect(200)).body.payments
        .filter((p: { offerCode: string }) => p.offerCode === ref.offer)
        .map((p: { status: string }) => p.status)
        .sort();
      expect(statuses).toEqual(['disputed', 'succeeded']);
      expect((await offerOf(ref)).status).toBe(OfferStatus.Closed);
    });
  });

  describe('item 7: per-user budgets on jobs, offers, revisions and withdrawals', () => {
    let limited: ListeningApp;

    beforeAll(async () => {
      limited = await listenTestApp({
        JOB_CREATE_RATE_LIMIT: '2',
        OFFER_CREATE_RATE_LIMIT: '3',
        OFFER_REVISE_RATE_LIMIT: '3',
        OFFER_WITHDRAW_RATE_LIMIT: '2',
      });
    });
    afterAll(() => limited.close());

    /** 429 in the one envelope, with Retry-After as a header and in data. */
    const expectOverBudget = (res: { status: number; body: any; headers: Record<string, string> }) => {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: expect.any(Number) } });
      expect(res.body.data.retryAfter).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBe(res.body.data.retryAfter);
    };

    it('job creation: over the budget is 429 and posts no job', async () => {
      const c = await createUser(limited);
      await postJob(limited, c);
      await postJob(limited, c);
      const over = await limited
        .http()
        .post('/api/job')
        .set(as(c))
        .send({ deadline: price().deadline, versions: [{ lang: 'eng', title: 'One too many', description: 'A job beyond the budget of this customer.' }] });
      expectOverBudget(over);
      const mine = await limited.http().get('/api/job?mine=true').set(as(c)).expect(200);
      expect(mine.body.jobs).toHaveLength(2);
    });

    it('offer creation: over the budget is 429 and makes no offer', async () => {
      const [c, p] = await Promise.all([createUser(limited), createUser(limited)]);
      const jobs = [await postJob(limited, c), await postJob(limited, c)];
      for (let i = 0; i < 3; i++) await makeOffer(limited, p, i < 2 ? jobs[i] : await postJob(limited, await createUser(limited)));
      const over = await limited
        .http()
        .post(`/api/jobs/${await postJob(limited, await createUser(limited))}/offers`)
        .set(as(p))
        .send({});
      expectOverBudget(over);
      const mine = await limited.http().get('/api/job-offers').set(as(p)).expect(200);
      expect(mine.body.offers).toHaveLength(3);
    });

    it('revisions: over the budget is 429 and changes neither the offer, nor the chat, nor pushes a status', async () => {
      const [c, p] = await Promise.all([createUser(limited), createUser(limited)]);
      const ref = await offerIn(limited, OfferStatus.Proposal, c, p); // the first pricing spends one
      const sc = await connect(limited.url, c.token);
      const statuses = record(sc, 'offer:status');
      for (const amount of ['101.00', '102.00']) expect((await move(limited, p, ref, 'update', {}, price(amount))).status).toBe(200);
      await waitFor(() => statuses.length === 2);
      const before = await limited.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(c)).expect(200);
      const messages = (await limited.http().post(`/api/message/groups/${ref.group}/messages`).set(as(c)).send({}).expect(200)).body.messages.length;
      expectOverBudget(await move(limited, p, ref, 'update', {}, price('103.00')));
      const after = await limited.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(c)).expect(200);
      expect(after.body).toMatchObject({ version: before.body.version, price: { amount: '102.00' } });
      expect((await limited.http().post(`/api/message/groups/${ref.group}/messages`).set(as(c)).send({}).expect(200)).body.messages).toHaveLength(messages);
      // A move that is not a revision still goes through, and is the next status push.
      expect((await move(limited, p, ref, 'final')).status).toBe(200);
      await waitFor(() => statuses.length === 3);
      expect(statuses[2]).toMatchObject({ status: OfferStatus.FinalOffer });
    });

    it('withdraw and offer again: the withdrawals over the budget are 429 and leave the offer open', async () => {
      const [c, p] = await Promise.all([createUser(limited), createUser(limited)]);
      const job = await postJob(limited, c);
      let ref = await makeOffer(limited, p, job);
      for (let i = 0; i < 2; i++) {
        expect((await move(limited, p, ref, 'withdraw')).status).toBe(200);
        ref = await makeOffer(limited, p, job);
      }
      expectOverBudget(await move(limited, p, ref, 'withdraw'));
      const offer = await limited.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}`).set(as(p)).expect(200);
      expect(offer.body.status).toBe(OfferStatus.Initial);
    });
  });
});
