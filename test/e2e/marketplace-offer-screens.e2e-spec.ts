import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { createGroup, createUser, TestUser } from '../factories';
import { closeAllSockets, connect, ListeningApp, listenTestApp, record } from '../utils/sockets';
import { as, future, makeOffer, move, offerIn, postJob, version } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

/** What the marketplace screens need from the API: priced offers in one call, number amounts, live terms, history, payments, job-named chats. */
describe('marketplace: the API the offer screens use', () => {
  let t: ListeningApp;
  let customer: TestUser, provider: TestUser, stranger: TestUser;

  beforeAll(async () => {
    t = await listenTestApp();
    [customer, provider, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  const offerCount = async (job: string): Promise<number> =>
    (await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM job_offer o JOIN job j ON j.id = o.job_id WHERE j.code = $1`, [job]))[0].n;

  describe('creating an offer with its price', () => {
    it('starts as a Proposal with price, local price and deadline, posts the first message and the proposal note, and tells the customer live', async () => {
      const job = await postJob(t, customer);
      const sc = await connect(t.url, customer.token);
      const pushed = record(sc, 'offer:status');
      const deadline = future(12);
      const res = await t
        .http()
        .post(`/api/jobs/${job}/offers?lang=eng`)
        .set(as(provider))
        .send({ price: { amount: 2400, currency: 'PLN' }, localPrice: { amount: '560.5', currency: 'USD' }, deadline, message: 'Ready next week' })
        .expect(201);
      expect(res.body).toMatchObject({
        status: OfferStatus.Proposal,
        price: { amount: '2400.00', currency: 'PLN' },
        localPrice: { amount: '560.50', currency: 'USD' },
        deadline: new Date(deadline).toISOString(),
        version: 2,
      });
      const group = res.body.groupCode;
      const page = await t.http().post(`/api/message/groups/${group}/messages`).set(as(customer)).send({}).expect(200);
      expect(page.body.messages.map((m: { message: string; userCode: string }) => [m.message, m.userCode])).toEqual([
        ['Ready next week', provider.user.code],
        ['JOB_OFFER.MESSAGE.PROPOSAL', provider.user.code],
      ]);
      await waitFor(() => pushed.length === 1);
      expect(pushed[0]).toEqual({
        jobCode: job,
        offerCode: res.body.code,
        status: OfferStatus.Proposal,
        previousStatus: OfferStatus.Initial,
        actorCode: provider.user.code,
        at: expect.any(String),
        price: { amount: '2400.00', currency: 'PLN' },
        localPrice: { amount: '560.50', currency: 'USD' },
        deadline: new Date(deadline).toISOString(),
        version: 2,
        lapsesAt: res.body.lapsesAt,
      });
      // The history has the creation and the pricing, by the provider; the outbox row for the push worker was written.
      const events = await t.http().get(`/api/jobs/${job}/offers/${res.body.code}/events`).set(as(customer)).expect(200);
      expect(events.body.map((e: { call: string; from: number | null; to: number }) => [e.call, e.from, e.to])).toEqual([
        ['create', null, OfferStatus.Initial],
        ['update', OfferStatus.Initial, OfferStatus.Proposal],
      ]);
      const outbox = await t.app
        .get(DataSource)
        .query(`SELECT payload FROM outbox WHERE topic = 'offer.status-changed' AND payload->>'offerCode' = $1`, [res.body.code]);
      expect(outbox).toHaveLength(1);
    });

    it('defaults the local price to the price, and without a price still makes an Initial offer', async () => {
      const job = await postJob(t, customer);
      const priced = await t
        .http()
        .post(`/api/jobs/${job}/offers`)
        .set(as(provider))
        .send({ price: { amount: '10', currency: 'EUR' }, deadline: future() })
        .expect(201);
      expect(priced.body).toMatchObject({ status: OfferStatus.Proposal, localPrice: { amount: '10.00', currency: 'EUR' } });
      const plain = await t
        .http()
        .post(`/api/jobs/${await postJob(t, customer)}/offers`)
        .set(as(provider))
        .send({})
        .expect(201);
      expect(plain.body).toMatchObject({ status: OfferStatus.Initial, price: null, deadline: null, version: 1 });
    });

    it.each([
      ['a price without a deadline', { price: { amount: '10', currency: 'USD' } }, 'VALIDATION.DEADLINE.IS_STRING'],
      ['a deadline without a price', { deadline: future() }, 'VALIDATION.PRICE.IS_OBJECT'],
      ['a local price alone', { localPrice: { amount: '10', currency: 'USD' } }, ['VALIDATION.PRICE.IS_OBJECT', 'VALIDATION.DEADLINE.IS_STRING']],
      ['a number with 3 decimals', { price: { amount: 10.125, currency: 'USD' }, deadline: future() }, 'VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'],
      ['a tiny number', { price: { amount: 1e-7, currency: 'USD' }, deadline: future() }, 'VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'],
      ['a huge number', { price: { amount: 1e21, currency: 'USD' }, deadline: future() }, 'VALIDATION.PRICE.AMOUNT.MAX'],
      ['zero', { price: { amount: 0, currency: 'USD' }, deadline: future() }, 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['a negative number', { price: { amount: -5, currency: 'USD' }, deadline: future() }, 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['a boolean amount', { price: { amount: true, currency: 'USD' }, deadline: future() }, 'VALIDATION.PRICE.AMOUNT.IS_STRING'],
      ['a past deadline', { price: { amount: 5, currency: 'USD' }, deadline: '2020-01-01T00:00:00.000Z' }, 'VALIDATION.DEADLINE.MIN_DATE'],
    ])('refuses %s with its broken rules and makes no offer', async (_name, body, rule) => {
      const job = await postJob(t, customer);
      const res = await t.http().post(`/api/jobs/${job}/offers`).set(as(provider)).send(body).expect(422);
      expect(res.body.data.brokenRules).toEqual([rule].flat());
      expect(await offerCount(job)).toBe(0);
    });
  });

  it('takes a JSON number as the amount of a revision and answers strings; the push carries the revised terms', async () => {
    const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
    const sc = await connect(t.url, customer.token);
    const pushed = record(sc, 'offer:status');
    const deadline = future(3);
    const res = await move(t, provider, ref, 'update', {}, { price: { amount: 99.5, currency: 'USD' }, deadline }).expect(200);
    expect(res.body).toMatchObject({ price: { amount: '99.50', currency: 'USD' }, localPrice: { amount: '99.50', currency: 'USD' } });
    await waitFor(() => pushed.length === 1);
    expect(pushed[0]).toMatchObject({
      status: OfferStatus.Proposal,
      previousStatus: OfferStatus.Proposal,
      price: { amount: '99.50', currency: 'USD' },
      deadline: new Date(deadline).toISOString(),
      version: 3,
    });
  });

  it("answers an offer's history with actors and times to its parties only", async () => {
    const ref = await offerIn(t, OfferStatus.CustomerApproved, customer, provider);
    const res = await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}/events`).set(as(provider)).expect(200);
    expect(res.body.map((e: { call: string }) => e.call)).toEqual(['create', 'update', 'final', 'choose']);
    expect(res.body[3]).toEqual({
      from: OfferStatus.FinalOffer,
      to: OfferStatus.CustomerApproved,
      call: 'choose',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      actor: { code: customer.user.code, name: customer.user.name, surname: customer.user.surname },
    });
    const hidden = await t.http().get(`/api/jobs/${ref.job}/offers/${ref.offer}/events`).set(as(stranger)).expect(404);
    expect(hidden.body).toEqual({ code: 404, message: 'JOB_OFFER.NOT_FOUND' });
    // Under another job's code the offer is not found either.
    await t
      .http()
      .get(`/api/jobs/${await postJob(t, customer)}/offers/${ref.offer}/events`)
      .set(as(customer))
      .expect(404);
  });

  it('lists payments made for the customer and received for the provider, with offer, job title and the other party', async () => {
    const payer = await createUser(t);
    const payee = await createUser(t);
    const job = await postJob(t, payer, { versions: [version('eng'), version('pol')] });
    const ref = await offerIn(t, OfferStatus.Closed, payer, payee, job);

    const made = await t.http().get('/api/job-offers/payments?lang=pol').set(as(payer)).expect(200);
    expect(made.body).toMatchObject({ page: 1, hasMore: false });
    expect(made.body.payments).toEqual([
      {
        code: expect.any(String),
        amount: { amount: '120.50', currency: 'USD' },
        status: 'succeeded',
        provider: 'manual',
        reference: 'bank transfer 1',
        createdAt: expect.any(String),
        offerCode: ref.offer,
        jobCode: job,
        jobTitle: 'Title in pol',
        direction: 'made',
        otherParty: { code: payee.user.code, name: payee.user.name, surname: payee.user.surname },
      },
    ]);
    const received = await t.http().get('/api/job-offers/payments').set(as(payee)).expect(200);
    expect(received.body.payments).toEqual([
      expect.objectContaining({
        offerCode: ref.offer,
        direction: 'received',
        jobTitle: 'Title in eng',
        otherParty: expect.objectContaining({ code: payer.user.code }),
      }),
    ]);
    expect((await t.http().get('/api/job-offers/payments').set(as(stranger)).expect(200)).body.payments).toEqual([]);
  });

  it("names job-offer and FAQ chats after the job (in the asked language) and leaves other chats' jobTitle null", async () => {
    const job = await postJob(t, customer, { versions: [version('eng', { title: 'Paint the fence' }), version('pol', { title: 'Pomalować płot' })] });
    const ref = await makeOffer(t, provider, job);
    const faq = await t.http().get(`/api/job/${job}/faq`).set(as(provider)).expect(200);
    const direct = await createGroup(t, [provider, customer]);

    const list = await t.http().get('/api/message/groups?lang=pol&pageSize=100').set(as(provider)).expect(200);
    const titleOf = (code: string) => list.body.groups.find((g: { code: string }) => g.code === code)?.jobTitle;
    expect(titleOf(ref.group)).toBe('Pomalować płot');
    expect(faq.body.jobTitle).toBe('Paint the fence');
    expect(titleOf(faq.body.code)).toBe('Pomalować płot');
    expect(titleOf(direct)).toBeNull();
    // One group (as its header loads it): the default version's title.
    const one = await t.http().get(`/api/message/groups/${ref.group}`).set(as(customer)).expect(200);
    expect(one.body.jobTitle).toBe('Paint the fence');
    // A moderator's rooms view reads the group as an observer: the same title.
    const admin = await createUser(t, { role: Role.InstanceAdmin });
    expect((await t.http().get(`/api/message/groups/${ref.group}`).set(as(admin)).expect(200)).body.jobTitle).toBe('Paint the fence');
  });

  it('documents the new calls and fields in the OpenAPI document', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body;
    const schema = (name: string) => doc.components.schemas[name].properties;
    expect(schema('PriceDto').amount.oneOf).toEqual([{ type: 'string' }, { type: 'number' }]);
    expect(Object.keys(schema('CreateOfferDto'))).toEqual(expect.arrayContaining(['message', 'price', 'localPrice', 'deadline']));
    expect(schema('ChatGroupDto').jobTitle).toMatchObject({ type: 'string', nullable: true });
    expect(Object.keys(schema('PartyPaymentDto'))).toEqual(expect.arrayContaining(['offerCode', 'jobTitle', 'direction', 'otherParty', 'reference']));
    const ok = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
    expect(ok('/api/jobs/{jobId}/offers/{offerId}/events')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/OfferEventDto' } });
    expect(ok('/api/job-offers/payments')).toEqual({ $ref: '#/components/schemas/PartyPaymentPageDto' });
  });
});
