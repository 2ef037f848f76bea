import { OfferStatus } from '#shared/contracts/offers';
import { NotifyOfferPayload } from '#shared/contracts/queues';
import { offerPushTargets } from './offer-push.decider';

const move = (to: OfferStatus, more: Partial<NotifyOfferPayload> = {}): NotifyOfferPayload => ({
  outboxId: '1',
  offerId: 'o',
  offerCode: 'OFFER',
  jobCode: 'JOB',
  groupCode: 'GROUP',
  from: OfferStatus.Proposal,
  to,
  actorId: 'customer',
  customerId: 'customer',
  providerId: 'provider',
  ...more,
});

describe('offerPushTargets', () => {
  it('tells the other party about a status change, never the actor', () => {
    expect(offerPushTargets(move(OfferStatus.FinalOffer))).toEqual([{ userId: 'provider', kind: 'offer-status' }]);
    expect(offerPushTargets(move(OfferStatus.Agreed, { actorId: null }))).toEqual([
      { userId: 'customer', kind: 'offer-status' },
      { userId: 'provider', kind: 'offer-status' },
    ]);
  });

  it('asks the customer to pay, and tells the provider a payment arrived', () => {
    expect(offerPushTargets(move(OfferStatus.PaymentPending, { actorId: 'provider' }))).toEqual([{ userId: 'customer', kind: 'payment-requested' }]);
    // The customer's word alone asks the provider to confirm; "received" only once confirmed (by the provider, so the customer is told).
    expect(offerPushTargets(move(OfferStatus.PaymentDeclared, { paymentId: 'p' }))).toEqual([{ userId: 'provider', kind: 'payment-declared' }]);
    expect(offerPushTargets(move(OfferStatus.Closed, { paymentId: 'p', actorId: 'provider' }))).toEqual([{ userId: 'customer', kind: 'offer-status' }]);
    // A provider that took the money at once settles it in the customer's call: the provider is told it arrived.
    expect(offerPushTargets(move(OfferStatus.Closed, { paymentId: 'p' }))).toEqual([{ userId: 'provider', kind: 'payment-received' }]);
    expect(offerPushTargets(move(OfferStatus.Closed, { actorId: 'provider' }))).toEqual([{ userId: 'customer', kind: 'offer-status' }]);
  });

  it("reminds only the party whose move the offer waits for (a timer's reminder has no actor)", () => {
    const reminder = { reminder: true, actorId: null };
    expect(offerPushTargets(move(OfferStatus.PaymentPending, { ...reminder, from: OfferStatus.PaymentPending }))).toEqual([
      { userId: 'customer', kind: 'offer-reminder' },
    ]);
    expect(offerPushTargets(move(OfferStatus.Proposal, reminder))).toEqual([{ userId: 'provider', kind: 'offer-reminder' }]);
    expect(offerPushTargets(move(OfferStatus.Closed, reminder))).toEqual([]);
  });
});
