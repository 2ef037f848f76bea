import { OfferStatus } from '#shared/contracts/offers';
import { offerEmailTarget, waitsFor } from './offer-email-target';

const S = OfferStatus;
const move = (to: OfferStatus, actor: 'customer' | 'provider') => ({ to, actorId: actor, customerId: 'customer', providerId: 'provider' });

describe('offerEmailTarget', () => {
  it('reads who an offer waits for from the transition table', () => {
    expect(
      [S.Initial, S.Proposal, S.FinalOffer, S.CustomerApproved, S.Agreed, S.FinalizeRequested, S.PaymentPending, S.PaymentDeclared, S.Closed].map(waitsFor),
    ).toEqual(['provider', 'provider', 'customer', 'provider', 'provider', 'customer', 'customer', 'provider', null]);
  });

  it('e-mails the party the move waits for, as an offer move or a payment', () => {
    expect(offerEmailTarget(move(S.FinalOffer, 'provider'))).toEqual({ userId: 'customer', kind: 'offers' });
    expect(offerEmailTarget(move(S.CustomerApproved, 'customer'))).toEqual({ userId: 'provider', kind: 'offers' });
    expect(offerEmailTarget(move(S.FinalizeRequested, 'provider'))).toEqual({ userId: 'customer', kind: 'offers' });
    expect(offerEmailTarget(move(S.PaymentDeclared, 'customer'))).toEqual({ userId: 'provider', kind: 'payments' });
    expect(offerEmailTarget(move(S.PaymentPending, 'provider'))).toEqual({ userId: 'customer', kind: 'payments' });
  });

  it('never e-mails anyone about their own offer move, but reminds a payer who made the payment due themselves', () => {
    expect(offerEmailTarget(move(S.Proposal, 'provider'))).toBeNull();
    expect(offerEmailTarget(move(S.Agreed, 'provider'))).toBeNull();
    expect(offerEmailTarget(move(S.Closed, 'customer'))).toBeNull();
    expect(offerEmailTarget(move(S.PaymentPending, 'customer'))).toEqual({ userId: 'customer', kind: 'payments' });
  });
});
