import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { createUser, TestUser } from '../factories';
import { closeAllSockets, connect, ListeningApp, listenTestApp, record } from '../utils/sockets';
import { as, future, move, OfferRef, offerIn, postJob } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

interface NoteMessage {
  message: string;
  offerNote?: true;
  offerNoteData?: { status: number; terms?: { price: unknown; localPrice: unknown; deadline: string | null } };
}

/** What an offer's chat notes and payments carry for the screens: each note's own status and terms, readable payment references. */
describe('marketplace: offer notes and payment references', () => {
  let t: ListeningApp;
  let customer: TestUser, provider: TestUser;

  beforeAll(async () => {
    t = await listenTestApp();
    [customer, provider] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  const notes = async (group: string): Promise<NoteMessage[]> =>
    (await t.http().post(`/api/message/groups/${group}/messages`).set(as(customer)).send({}).expect(200)).body.messages;

  it("carries each note's own status and the terms a price, a revision and a final offer set, on the page and live", async () => {
    const job = await postJob(t, customer);
    const first = future(10);
    const created = await t
      .http()
      .post(`/api/jobs/${job}/offers`)
      .set(as(provider))
      .send({ price: { amount: '100', currency: 'USD' }, deadline: first })
      .expect(201);
    const ref: OfferRef = { job, offer: created.body.code, group: created.body.groupCode };
    const sc = await connect(t.url, customer.token);
    const live = record(sc, 'message:new');

    const revised = future(20);
    await move(
      t,
      provider,
      ref,
      'update',
      {},
      { price: { amount: '150', currency: 'USD' }, localPrice: { amount: '600', currency: 'PLN' }, deadline: revised },
    ).expect(200);
    await move(t, provider, ref, 'final').expect(200);
    await move(t, customer, ref, 'choose').expect(200);
    // A user who types a note's key writes plain text: no mark, no data.
    await t.http().post(`/api/message/groups/${ref.group}`).set(as(customer)).send({ message: 'JOB_OFFER.MESSAGE.FINAL_OFFER' }).expect(201);

    const page = await notes(ref.group);
    const offerNotes = page.filter((m) => m.offerNote);
    expect(offerNotes.map((m) => [m.message, m.offerNoteData])).toEqual([
      [
        'JOB_OFFER.MESSAGE.PROPOSAL',
        {
          status: OfferStatus.Proposal,
          terms: { price: { amount: '100.00', currency: 'USD' }, localPrice: { amount: '100.00', currency: 'USD' }, deadline: first },
        },
      ],
      [
        'JOB_OFFER.MESSAGE.REVISED',
        {
          status: OfferStatus.Proposal,
          terms: { price: { amount: '150.00', currency: 'USD' }, localPrice: { amount: '600.00', currency: 'PLN' }, deadline: revised },
        },
      ],
      [
        'JOB_OFFER.MESSAGE.FINAL_OFFER',
        {
          status: OfferStatus.FinalOffer,
          terms: { price: { amount: '150.00', currency: 'USD' }, localPrice: { amount: '600.00', currency: 'PLN' }, deadline: revised },
        },
      ],
      ['JOB_OFFER.MESSAGE.APPROVED', { status: OfferStatus.CustomerApproved }],
    ]);
    expect(page.filter((m) => !m.offerNote).every((m) => m.offerNoteData === undefined)).toBe(true);

    // Each live message:new of a note carries the same data.
    await waitFor(() => live.filter((m: NoteMessage) => m.offerNote).length === 3);
    expect(live.filter((m: NoteMessage) => m.offerNote).map((m: NoteMessage) => m.offerNoteData?.status)).toEqual([
      OfferStatus.Proposal,
      OfferStatus.FinalOffer,
      OfferStatus.CustomerApproved,
    ]);
    expect(live.find((m: NoteMessage) => m.offerNote)).toMatchObject({ offerNoteData: { terms: { price: { amount: '150.00' }, deadline: revised } } });
  });

  it('gives a payment declared without a reference a readable one, PAY-<year>-<number>, never an internal id', async () => {
    const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
    const paid = await move(t, customer, ref, 'pay', {}, {}).expect(200);
    const year = new Date().getUTCFullYear();
    expect(paid.body.payment.reference).toMatch(new RegExp(`^PAY-${year}-\\d{6,}$`));
    expect(paid.body.payment.reference).not.toContain(paid.body.payment.code);
    const listed = await t.http().get('/api/job-offers/payments?lang=eng').set(as(provider)).expect(200);
    const mine = listed.body.payments.find((p: { code: string }) => p.code === paid.body.payment.code);
    expect(mine.reference).toBe(paid.body.payment.reference);

    // The next one is numbered after it; a reference the payer gave is kept as they wrote it.
    const next = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
    const again = await move(t, customer, next, 'pay', {}, {}).expect(200);
    const number = (r: string) => Number(r.split('-')[2]);
    expect(number(again.body.payment.reference)).toBeGreaterThan(number(paid.body.payment.reference));
    const own = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
    expect((await move(t, customer, own, 'pay').expect(200)).body.payment.reference).toBe('bank transfer 1');
  });

  it('renumbers payments stored with the old internal reference (the migration), oldest first', async () => {
    const db = t.app.get(DataSource);
    const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
    const paid = await move(t, customer, ref, 'pay', {}, {}).expect(200);
    const { PaymentNumbers1764760100000: Migration } = await import('../../migrations/1764760100000-PaymentNumbers');
    // In a transaction rolled back at the end: the run's other payments keep their sequence (a concurrent one waits for it).
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    try {
      await runner.query(`UPDATE payment SET provider_reference = 'manual-' || code WHERE code = $1`, [paid.body.payment.code]);
      await runner.query(`DROP SEQUENCE payment_number_seq`);
      await new Migration().up(runner);
      const [row] = await runner.query(`SELECT provider_reference FROM payment WHERE code = $1`, [paid.body.payment.code]);
      expect(row.provider_reference).toBe(`PAY-${new Date(paid.body.payment.createdAt).getUTCFullYear()}-000001`);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});
