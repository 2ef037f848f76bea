import { DataSource } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { ManualPaymentProvider } from '../../server/src/modules/marketplace/payments/manual-payment.provider';
import { createUser, TestUser } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { as, future, move, OfferRef, offerIn } from './marketplace.helpers';
import { waitFor } from '../utils/wait';

describe('marketplace: money, payments and idempotency', () => {
  let t: TestApp;
  let db: DataSource;
  let customer: TestUser, provider: TestUser;

  const payments = (ref: OfferRef) =>
    db.query(`SELECT p.code, p.amount, p.currency FROM payment p JOIN job_offer o ON o.id = p.offer_id WHERE o.code = $1`, [ref.offer]);
  const outboxTo = (ref: OfferRef, to: number) =>
    db
      .query(`SELECT count(*)::int AS n FROM outbox WHERE topic = 'offer.status-changed' AND payload->>'offerCode' = $1 AND payload->>'to' = $2`, [
        ref.offer,
        String(to),
      ])
      .then((rows: { n: number }[]) => rows[0].n);
  const read = async (ref: OfferRef) =>
    (
      await t
        .http()
        .get(`/api/jobs/${ref.job}/offers/${ref.offer}`)
        .set({ Authorization: `Bearer ${customer.token}` })
        .expect(200)
    ).body;

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
    [customer, provider] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterAll(() => t.close());

  describe('prices', () => {
    let ref: OfferRef;
    beforeAll(async () => {
      ref = await offerIn(t, OfferStatus.Initial, customer, provider);
    });

    const update = (body: object) => move(t, provider, ref, 'update', {}, body);
    const withPrice = (amount: unknown, currency: unknown = 'USD') => ({ price: { amount, currency }, deadline: future(3) });

    it.each([
      ['0', 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['0.00', 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['-5', 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['-0.01', 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['1.234', 'VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'],
      ['0.001', 'VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'],
      ['100000000.01', 'VALIDATION.PRICE.AMOUNT.MAX'],
      ['99999999999999999999', 'VALIDATION.PRICE.AMOUNT.MAX'],
      // However long a well-formed amount is, it is too big, not malformed.
      ['1' + '0'.repeat(30), 'VALIDATION.PRICE.AMOUNT.MAX'],
      ['9'.repeat(60) + '.99', 'VALIDATION.PRICE.AMOUNT.MAX'],
      ['-' + '9'.repeat(60), 'VALIDATION.PRICE.AMOUNT.IS_POSITIVE'],
      ['1e9', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['abc', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      [' 12', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['12.', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['.5', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['1,50', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['+5', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['NaN', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['Infinity', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      ['0x10', 'VALIDATION.PRICE.AMOUNT.IS_DECIMAL'],
      // JSON numbers are read as the decimal they spell (12.5 is accepted, see marketplace-offer-screens); other types are not.
      [12.555, 'VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'],
      [true, 'VALIDATION.PRICE.AMOUNT.IS_STRING'],
      [null, 'VALIDATION.PRICE.AMOUNT.IS_STRING'],
    ])('refuses the amount %j with %s and changes nothing', async (amount, rule) => {
      const before = await read(ref);
      const res = await update(withPrice(amount)).expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: [rule] } });
      expect(await read(ref)).toEqual(before);
    });

    it.each([
      [{ amount: '10', currency: 'XYZ' }, 'VALIDATION.PRICE.CURRENCY.IS_IN'],
      [{ amount: '10', currency: 'usd' }, 'VALIDATION.PRICE.CURRENCY.IS_IN'],
      [{ amount: '10' }, 'VALIDATION.PRICE.CURRENCY.IS_STRING'],
      [{ amount: '10.5', currency: 'JPY' }, 'VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'],
      [{ amount: '10', currency: 'USD', extra: 1 }, 'VALIDATION.PRICE.EXTRA.UNKNOWN_FIELD'],
    ])('refuses the price %j with %s', async (p, rule) => {
      const res = await update({ price: p, deadline: future(3) }).expect(422);
      expect(res.body.data.brokenRules).toEqual([rule]);
    });

    it('refuses a missing price, a past or malformed deadline and a bad local price', async () => {
      expect((await update({ deadline: future(3) }).expect(422)).body.data.brokenRules).toContain('VALIDATION.PRICE.IS_OBJECT');
      expect((await update({ ...withPrice('10'), deadline: '2020-01-01T00:00:00Z' }).expect(422)).body.data.brokenRules).toEqual([
        'VALIDATION.DEADLINE.MIN_DATE',
      ]);
      expect((await update({ ...withPrice('10'), deadline: 'tomorrow' }).expect(422)).body.data.brokenRules).toEqual(['VALIDATION.DEADLINE.IS_ISO8601']);
      const local = await update({ ...withPrice('10'), localPrice: { amount: '0', currency: 'PLN' } }).expect(422);
      expect(local.body.data.brokenRules).toEqual(['VALIDATION.LOCAL_PRICE.AMOUNT.IS_POSITIVE']);
      expect((await read(ref)).status).toBe(OfferStatus.Initial);
    });

    it('accepts the largest amount and whole yen, answering decimal strings', async () => {
      const max = await update(withPrice('100000000.00')).expect(200);
      expect(max.body.price).toEqual({ amount: '100000000.00', currency: 'USD' });
      const yen = await update(withPrice('1500', 'JPY')).expect(200);
      expect(yen.body.price).toEqual({ amount: '1500', currency: 'JPY' });
      const padded = await update(withPrice('0'.repeat(40) + '5.5')).expect(200);
      expect(padded.body.price).toEqual({ amount: '5.50', currency: 'USD' });
      const cents = await update(withPrice('0.01', 'EUR')).expect(200);
      expect(cents.body.price).toEqual({ amount: '0.01', currency: 'EUR' });
      const [row] = await db.query(`SELECT price_amount FROM job_offer WHERE code = $1`, [ref.offer]);
      expect(row.price_amount).toBe('0.01');
    });
  });

  describe('payment provider', () => {
    it('changes nothing when the provider refuses the charge, and leaves the key free for the retry', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
      const before = await read(ref);
      const manual = t.app.get(ManualPaymentProvider);
      const key = { 'Idempotency-Key': 'declined-pay-0001' };
      for (const status of ['failed'] as const) {
        const charge = jest.spyOn(manual, 'charge').mockResolvedValueOnce({ status, reference: null });
        const res = await move(t, customer, ref, 'pay', key).expect(402);
        expect(res.body).toEqual({ code: 402, message: 'JOB_OFFER.PAYMENT_FAILED' });
        // The provider is asked for the offer's price, with what it needs to dedupe on its side.
        expect(charge).toHaveBeenCalledWith(
          expect.objectContaining({
            offerCode: ref.offer,
            amount: '120.50',
            currency: 'USD',
            payerCode: customer.user.code,
            idempotencyKey: 'declined-pay-0001',
          }),
        );
        charge.mockRestore();
      }
      expect(await read(ref)).toEqual(before);
      expect(await payments(ref)).toEqual([]);
      expect(await outboxTo(ref, OfferStatus.Closed)).toBe(0);
      const chat = await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(customer)).send({}).expect(200);
      expect(chat.body.messages.map((m: { message: string }) => m.message)).not.toContain('JOB_OFFER.MESSAGE.PAYMENT_DECLARED');

      // The manual provider's payment is the customer's word: it waits for the provider's confirmation.
      const paid = await move(t, customer, ref, 'pay', key).expect(200);
      expect(paid.body.offer.status).toBe(OfferStatus.PaymentDeclared);
      expect(paid.body.payment.status).toBe('pending');
      expect(await payments(ref)).toEqual([{ code: paid.body.payment.code, amount: '120.50', currency: 'USD' }]);
    });

    it('closes the offer in the same call when the provider took the money at once (settle), with no confirmation to wait for', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
      const charge = jest.spyOn(t.app.get(ManualPaymentProvider), 'charge').mockResolvedValueOnce({ status: 'succeeded', reference: 'card-1' });
      try {
        const paid = await move(t, customer, ref, 'pay').expect(200);
        expect(paid.body.offer.status).toBe(OfferStatus.Closed);
        expect(paid.body.payment).toMatchObject({ status: 'succeeded', reference: 'card-1' });
      } finally {
        charge.mockRestore();
      }
      const log = await db.query(`SELECT e.call FROM job_offer_event e JOIN job_offer o ON o.id = e.offer_id WHERE o.code = $1 ORDER BY e.id`, [ref.offer]);
      expect(log.map((e: { call: string }) => e.call).slice(-2)).toEqual(['pay', 'settle']);
      expect(await outboxTo(ref, OfferStatus.Closed)).toBe(1);
      await waitFor(async () => {
        const chat = await t.http().post(`/api/message/groups/${ref.group}/messages`).set(as(customer)).send({}).expect(200);
        return chat.body.messages.at(-1)?.message === 'JOB_OFFER.MESSAGE.PAID';
      });
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeated pay with the first result and charges once', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
      const key = { 'Idempotency-Key': 'pay-once-0001' };
      const first = await move(t, customer, ref, 'pay', key).expect(200);
      const second = await move(t, customer, ref, 'pay', key).expect(200);
      expect(second.body).toEqual(first.body);
      expect(first.body.offer.status).toBe(OfferStatus.PaymentDeclared);
      expect(await payments(ref)).toEqual([{ code: first.body.payment.code, amount: '120.50', currency: 'USD' }]);
      expect(await outboxTo(ref, OfferStatus.PaymentDeclared)).toBe(1);
      // Without the key a second pay is just an illegal move.
      expect((await move(t, customer, ref, 'pay').expect(409)).body.message).toBe('JOB_OFFER.ILLEGAL_TRANSITION');
    });

    it('charges once for a double click: two concurrent pays with one key get the same payment', async () => {
      const ref = await offerIn(t, OfferStatus.PaymentPending, customer, provider);
      const key = { 'Idempotency-Key': 'double-click-0001' };
      const [a, b] = await Promise.all([move(t, customer, ref, 'pay', key), move(t, customer, ref, 'pay', key)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(a.body.payment.code).toBe(b.body.payment.code);
      expect(await payments(ref)).toHaveLength(1);
      expect(await outboxTo(ref, OfferStatus.PaymentDeclared)).toBe(1);
    });

    it('replays a transition even after the offer moved on, and remembers no failure', async () => {
      const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
      const key = { 'Idempotency-Key': 'final-key-0001' };
      const first = await move(t, provider, ref, 'final', key).expect(200);
      await move(t, customer, ref, 'choose').expect(200);
      const replay = await move(t, provider, ref, 'final', key).expect(200);
      expect(replay.body).toEqual(first.body);
      expect((await read(ref)).status).toBe(OfferStatus.CustomerApproved);

      // A move that failed (409) with a key can be made with the same key once it is allowed.
      const later = { 'Idempotency-Key': 'finalize-key-0001' };
      await move(t, provider, ref, 'finalizeRequest', later).expect(409);
      await move(t, provider, ref, 'reapprove').expect(200);
      expect((await move(t, provider, ref, 'finalizeRequest', later).expect(200)).body.status).toBe(OfferStatus.FinalizeRequested);
    });

    it('refuses a key reused for another request, keeps keys per user, and checks their shape', async () => {
      const ref = await offerIn(t, OfferStatus.Proposal, customer, provider);
      const key = { 'Idempotency-Key': 'shared-key-0001' };
      await move(t, provider, ref, 'update', key).expect(200);
      const other = await move(t, provider, ref, 'update', key, { price: { amount: '1.00', currency: 'USD' }, deadline: future(2) }).expect(422);
      expect(other.body.data.brokenRules).toEqual(['VALIDATION.IDEMPOTENCY_KEY.REUSED']);
      const otherCall = await move(t, provider, ref, 'final', key).expect(422);
      expect(otherCall.body.data.brokenRules).toEqual(['VALIDATION.IDEMPOTENCY_KEY.REUSED']);
      // The customer's key of the same name is their own.
      await move(t, provider, ref, 'final').expect(200);
      await move(t, customer, ref, 'choose', key).expect(200);
      for (const bad of ['short', 'has spaces in it', 'x'.repeat(101)]) {
        const res = await move(t, provider, ref, 'reapprove', { 'Idempotency-Key': bad }).expect(422);
        expect(res.body.data.brokenRules).toEqual(['VALIDATION.IDEMPOTENCY_KEY.INVALID']);
      }
      expect((await read(ref)).status).toBe(OfferStatus.CustomerApproved);
    });

    it('keeps the key and the move together: a lost race leaves the key free', async () => {
      // From CustomerApproved, reapprove and reject exclude each other in either order.
      const ref = await offerIn(t, OfferStatus.CustomerApproved, customer, provider);
      const [reapprove, reject] = await Promise.all([
        move(t, provider, ref, 'reapprove', { 'Idempotency-Key': 'race-reapprove-01' }),
        move(t, customer, ref, 'reject', { 'Idempotency-Key': 'race-reject-01' }),
      ]);
      expect([reapprove.status, reject.status].sort()).toEqual([200, 409]);
      const [winner, loser] =
        reapprove.status === 200
          ? [
              [provider, 'race-reapprove-01'],
              [customer, 'race-reject-01'],
            ]
          : [
              [customer, 'race-reject-01'],
              [provider, 'race-reapprove-01'],
            ];
      const keyRows = ([who, key]: (TestUser | string)[]) =>
        db.query(`SELECT key FROM idempotency_key WHERE user_id = $1 AND key = $2`, [(who as TestUser).user.id, key]);
      expect(await keyRows(winner)).toHaveLength(1);
      expect(await keyRows(loser)).toEqual([]);
    });
  });
});
