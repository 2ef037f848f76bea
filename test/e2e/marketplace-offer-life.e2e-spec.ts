import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { createUser, TestUser } from '../factories';
import { closeAllSockets, connect, ListeningApp, listenTestApp, record } from '../utils/sockets';
import { as, future, HAPPY_PATH, makeOffer, move, offerIn, postJob } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

describe('marketplace: the life of an offer', () => {
  let t: ListeningApp;
  let customer: TestUser, provider: TestUser, other: TestUser, admin: TestUser;

  beforeAll(async () => {
    t = await listenTestApp();
    [customer, provider, other, admin] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t, { role: Role.InstanceAdmin })]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('goes from a new offer to a paid one, posting chat messages, outbox rows and offer:status to both parties', async () => {
    const job = await postJob(t, customer);
    const [sc, sp] = await Promise.all([connect(t.url, customer.token), connect(t.url, provider.token)]);
    const customerStatus = record(sc, 'offer:status');
    const providerStatus = record(sp, 'offer:status');
    const customerMessages = record(sc, 'message:new');

    const created = await t.http().post(`/api/jobs/${job}/offers?lang=eng`).set(as(provider)).send({ message: 'I can do it' }).expect(201);
    expect(created.body).toMatchObject({
      status: OfferStatus.Initial,
      price: null,
      localPrice: null,
      deadline: null,
      jobCode: job,
      providerCode: provider.user.code,
      customerCode: customer.user.code,
      version: 1,
      job: { code: job, title: 'Title in eng', lang: 'eng' },
    });
    const ref = { job, offer: created.body.code, group: created.body.groupCode };

    // The offer's chat: a JobOffer group about the offer, with both parties in it.
    const group = await t.http().get(`/api/message/groups/${ref.group}`).set(as(customer)).expect(200);
    expect(group.body).toMatchObject({ type: 4, targetId: ref.offer, participantCount: 2 });
    expect(group.body.participants.map((p: { userCode: string }) => p.userCode).sort()).toEqual([customer.user.code, provider.user.code].sort());

    let version = 1;
    let previous: number = OfferStatus.Initial;
    for (const step of HAPPY_PATH) {
      const actor = step.by === 'provider' ? provider : customer;
      const res = await move(t, actor, ref, step.call).expect(200);
      const offer = step.call === 'pay' || step.call === 'confirmPayment' ? res.body.offer : res.body;
      expect({ call: step.call, status: offer.status, version: offer.version }).toEqual({ call: step.call, status: step.to, version: ++version });
      // The push carries the offer's terms after the move, so a party's screen shows revisions without reloading.
      const terms = { price: offer.price, localPrice: offer.localPrice, deadline: offer.deadline, version: offer.version, lapsesAt: offer.lapsesAt };
      const expected = {
        jobCode: job,
        offerCode: ref.offer,
        status: step.to,
        previousStatus: previous,
        actorCode: actor.user.code,
        at: expect.any(String),
        ...terms,
      };
      await waitFor(() => customerStatus.length === version - 1 && providerStatus.length === version - 1);
      expect(customerStatus[version - 2]).toEqual(expected);
      expect(providerStatus[version - 2]).toEqual(expected);
      previous = step.to;
      if (step.call === 'update')
        expect(offer).toMatchObject({ price: { amount: '120.50', currency: 'USD' }, localPrice: { amount: '120.50', currency: 'USD' } });
      // A manual payment is the customer's word until the provider confirms the money arrived.
      if (step.call === 'pay' || step.call === 'confirmPayment') {
        expect(res.body.payment).toMatchObject({
          amount: { amount: '120.50', currency: 'USD' },
          status: step.call === 'pay' ? 'pending' : 'succeeded',
          provider: 'manual',
          reference: 'bank transfer 1',
          code: expect.any(String),
        });
      }
    }

    // One chat message per move, by the party that moved: FinalJobOfferRequest (2) and JobOfferApproved (3) among them.
    const page = await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(customer)).send({}).expect(200);
    const notes = page.body.messages.map((m: { type: number; message: string; userCode: string }) => [m.type, m.message, m.userCode]);
    const P = provider.user.code;
    const C = customer.user.code;
    expect(notes).toEqual([
      [1, 'I can do it', P],
      [1, 'JOB_OFFER.MESSAGE.PROPOSAL', P],
      [2, 'JOB_OFFER.MESSAGE.FINAL_OFFER', P],
      [3, 'JOB_OFFER.MESSAGE.APPROVED', C],
      [1, 'JOB_OFFER.MESSAGE.AGREED', P],
      [1, 'JOB_OFFER.MESSAGE.FINALIZE_REQUESTED', P],
      [1, 'JOB_OFFER.MESSAGE.PAYMENT_REQUESTED', C],
      [1, 'JOB_OFFER.MESSAGE.PAYMENT_DECLARED', C],
      [1, 'JOB_OFFER.MESSAGE.PAYMENT_CONFIRMED', P],
    ]);
    // The server marks the notes (offerNote), so no client tells them by their text; the provider's own words are no note.
    expect(page.body.messages.map((m: { offerNote?: boolean }) => m.offerNote === true)).toEqual([false, true, true, true, true, true, true, true, true]);
    // The customer's socket got the provider's messages live.
    await waitFor(() => customerMessages.filter((m) => m.groupCode === ref.group).length === 9);

    // Every move wrote an outbox row for the push worker in its transaction; the payment carries its id.
    const db = t.app.get(DataSource);
    const outbox: { payload: Record<string, unknown> }[] = await db.query(
      `SELECT payload FROM outbox WHERE topic = 'offer.status-changed' AND payload->>'offerCode' = $1 ORDER BY id`,
      [ref.offer],
    );
    expect(outbox.map((r) => [r.payload.from, r.payload.to])).toEqual(HAPPY_PATH.map((s, i) => [i === 0 ? 1 : HAPPY_PATH[i - 1].to, s.to]));
    const [ids] = await db.query(
      `SELECT o.id::text AS offer_id, j.customer_id, o.provider_id, p.id::text AS payment_id FROM job_offer o JOIN job j ON j.id = o.job_id
       JOIN payment p ON p.offer_id = o.id WHERE o.code = $1`,
      [ref.offer],
    );
    const paymentMove = (from: OfferStatus, to: OfferStatus, actor: TestUser) => ({
      offerId: ids.offer_id,
      offerCode: ref.offer,
      jobCode: job,
      groupCode: ref.group,
      from,
      to,
      actorId: actor.user.id,
      customerId: ids.customer_id,
      providerId: ids.provider_id,
      paymentId: ids.payment_id,
      // the move's row in the offer's log, written by the same statement
      eventId: expect.stringMatching(/^\d+$/),
    });
    expect(outbox[6].payload).toEqual(paymentMove(OfferStatus.PaymentPending, OfferStatus.PaymentDeclared, customer));
    expect(outbox[7].payload).toEqual(paymentMove(OfferStatus.PaymentDeclared, OfferStatus.Closed, provider));
    expect(outbox[0].payload.paymentId).toBeUndefined();
    // And the event log has the creation plus every move.
    const log = await db.query(
      `SELECT from_status, to_status, call FROM job_offer_event e JOIN job_offer o ON o.id = e.offer_id WHERE o.code = $1 ORDER BY e.id`,
      [ref.offer],
    );
    expect(log.map((e: { call: string }) => e.call)).toEqual(['create', ...HAPPY_PATH.map((s) => s.call)]);
  });

  it('lets the provider revise a proposal, with a chat note and a new version, until it is final', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const res = await move(
      t,
      provider,
      ref,
      'update',
      {},
      { price: { amount: '99', currency: 'EUR' }, localPrice: { amount: '420.10', currency: 'PLN' }, deadline: future(5) },
    ).expect(200);
    expect(res.body).toMatchObject({
      status: OfferStatus.Proposal,
      version: 3,
      price: { amount: '99.00', currency: 'EUR' },
      localPrice: { amount: '420.10', currency: 'PLN' },
    });
    const page = await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(provider)).send({}).expect(200);
    expect(page.body.messages.at(-1)).toMatchObject({ type: 1, message: 'JOB_OFFER.MESSAGE.REVISED', userCode: provider.user.code, offerNote: true });
    await move(t, provider, ref, 'final').expect(200);
    await move(t, provider, ref, 'update').expect(409);
  });

  it('lists offers for each side, for payment, by job and by codes', async () => {
    const job = await postJob(t, customer);
    const waiting = await offerIn(t, OfferStatus.PaymentPending, customer, provider, job);
    const fresh = await makeOffer(t, other, job);

    const mine = await t.http().get('/api/job-offers?lang=eng').set(as(provider)).expect(200);
    expect(mine.body.offers.map((o: { code: string }) => o.code)).toContain(waiting.offer);
    expect(mine.body.offers.map((o: { code: string }) => o.code)).not.toContain(fresh.offer);
    const theirs = await t.http().get('/api/job-offers').set(as(customer)).expect(200);
    expect(theirs.body.offers.map((o: { code: string }) => o.code)).toEqual(expect.arrayContaining([waiting.offer, fresh.offer]));

    const forPayment = await t.http().get('/api/job-offers/for-payment').set(as(customer)).expect(200);
    expect(forPayment.body.offers.map((o: { code: string }) => o.code)).toContain(waiting.offer);
    expect(forPayment.body.offers.every((o: { status: number }) => o.status === OfferStatus.PaymentPending)).toBe(true);
    expect((await t.http().get('/api/job-offers/for-payment').set(as(provider)).expect(200)).body.offers).toEqual([]);

    // The customer and a moderator see all of a job's offers; a provider only their own.
    const byJob = (u: TestUser) => t.http().get(`/api/jobs/${job}/offers?page=1&pageSize=10`).set(as(u)).expect(200);
    expect((await byJob(customer)).body.offers.map((o: { code: string }) => o.code).sort()).toEqual([waiting.offer, fresh.offer].sort());
    expect((await byJob(admin)).body.offers).toHaveLength(2);
    expect((await byJob(other)).body.offers.map((o: { code: string }) => o.code)).toEqual([fresh.offer]);

    const codes = await t
      .http()
      .post('/api/jobs/offers/ByIdList')
      .set(as(other))
      .send({ codes: [waiting.offer, fresh.offer, 'unknownOffer1'] })
      .expect(200);
    expect(codes.body.map((o: { code: string }) => o.code)).toEqual([fresh.offer]);
    const direct = await t.http().get(`/api/jobs/offers/${waiting.offer}`).set(as(admin)).expect(200);
    expect(direct.body).toMatchObject({ code: waiting.offer, status: OfferStatus.PaymentPending });
  });

  it('choosing with allowForMoreOffers false closes the open offers not chosen and stops new ones', async () => {
    const job = await postJob(t, customer);
    const chosen = await offerIn(t, OfferStatus.FinalOffer, customer, provider, job);
    const third = await createUser(t);
    const [loser1, loser2] = [await makeOffer(t, other, job), await offerIn(t, OfferStatus.Proposal, customer, third, job)];
    const so = await connect(t.url, other.token);
    const otherStatus = record(so, 'offer:status');

    const res = await move(t, customer, chosen, 'choose', {}, { allowForMoreOffers: false }).expect(200);
    expect(res.body.status).toBe(OfferStatus.CustomerApproved);
    for (const [ref, who] of [
      [loser1, other],
      [loser2, third],
    ] as const) {
      const got = await t.http().get(`/api/jobs/${job}/offers/${ref.offer}`).set(as(who)).expect(200);
      expect(got.body.status).toBe(OfferStatus.Closed);
    }
    await waitFor(() => otherStatus.length === 1);
    expect(otherStatus[0]).toMatchObject({
      offerCode: loser1.offer,
      status: OfferStatus.Closed,
      previousStatus: OfferStatus.Initial,
      actorCode: customer.user.code,
    });
    const note = await t.http().post(`/api/message/groups/${loser1.group}/messages`).set(as(other)).send({}).expect(200);
    expect(note.body.messages.at(-1)).toMatchObject({ message: 'JOB_OFFER.MESSAGE.CLOSED_OTHER_CHOSEN', userCode: customer.user.code });

    expect((await t.http().get(`/api/job/${job}`).set(as(other)).expect(200)).body.acceptingOffers).toBe(false);
    const late = await t
      .http()
      .post(`/api/jobs/${job}/offers`)
      .set(as(await createUser(t)))
      .send({})
      .expect(409);
    expect(late.body).toEqual({ code: 409, message: 'JOB.NOT_ACCEPTING_OFFERS' });
  });

  it('closes an offer the provider withdraws or the customer rejects before it is agreed', async () => {
    const a = await offerIn(t, OfferStatus.CustomerApproved, customer, provider);
    expect((await move(t, provider, a, 'withdraw').expect(200)).body.status).toBe(OfferStatus.Closed);
    const b = await offerIn(t, OfferStatus.FinalOffer, customer, provider);
    expect((await move(t, customer, b, 'reject').expect(200)).body.status).toBe(OfferStatus.Closed);
    // A closed offer frees the provider to offer again on the same job.
    await makeOffer(t, provider, b.job);
  });

  it("stores the offer's opening message in its writer's language: the composer's, else the interface language it asks in", async () => {
    const opening = async (query: string, body: object) => {
      const job = await postJob(t, customer);
      const created = await t.http().post(`/api/jobs/${job}/offers${query}`).set(as(provider)).send(body).expect(201);
      const page = await t.http().post(`/api/message/groups/${created.body.groupCode}/messages`).set(as(customer)).send({}).expect(200);
      return page.body.messages.map((m: { message: string; language: string | null }) => [m.message, m.language]);
    };
    expect(await opening('?lang=pol', { message: 'Puedo hacerlo', lang: 'spa' })).toEqual([['Puedo hacerlo', 'spa']]);
    expect(await opening('?lang=pol', { message: 'Mogę to zrobić' })).toEqual([['Mogę to zrobić', 'pol']]);
    const bad = await t
      .http()
      .post(`/api/jobs/${await postJob(t, customer)}/offers`)
      .set(as(provider))
      .send({ message: 'Hi', lang: 'xx' })
      .expect(422);
    expect(bad.body.code).toBe(422);
  });

  it('refuses a second open offer by the same provider, and offers on your own job', async () => {
    const job = await postJob(t, customer);
    await makeOffer(t, provider, job);
    const again = await t.http().post(`/api/jobs/${job}/offers`).set(as(provider)).send({}).expect(409);
    expect(again.body).toEqual({ code: 409, message: 'JOB_OFFER.ALREADY_EXISTS' });
    const own = await t.http().post(`/api/jobs/${job}/offers`).set(as(customer)).send({}).expect(403);
    expect(own.body).toEqual({ code: 403, message: 'JOB_OFFER.OWN_JOB' });
  });
});
