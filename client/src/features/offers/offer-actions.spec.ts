import { OFFER_TRANSITIONS } from '@contracts/offers';
import { OFFER_MOVES, allowedCalls, countWaiting, nextMoveBy, offerGuide, sideOf, waitsFor } from './offer-actions';
import { OfferStatus } from './offer-status';

const S = OfferStatus;
const offer = (status: number) => ({ status, providerCode: 'U_p', customerCode: 'U_c' });

describe('allowed actions per status and side', () => {
  it("is the server's transition table, party rows only (closeOthers is a side effect)", () => {
    const server = OFFER_TRANSITIONS.filter((t) => t.actor !== 'system').map((t) => ({
      from: t.from as number,
      call: t.call,
      actor: t.actor,
      to: t.to as number,
    }));
    expect([...OFFER_MOVES]).toEqual(server);
  });

  it.each([
    [S.Initial, 'provider', ['update', 'withdraw']],
    [S.Initial, 'customer', ['reject']],
    [S.Proposal, 'provider', ['update', 'final', 'withdraw']],
    [S.Proposal, 'customer', ['reject']],
    [S.FinalOffer, 'provider', ['withdraw']],
    [S.FinalOffer, 'customer', ['choose', 'reject']],
    [S.CustomerApproved, 'provider', ['reapprove', 'withdraw']],
    [S.CustomerApproved, 'customer', ['reject']],
    [S.Agreed, 'provider', ['finalizeRequest']],
    [S.Agreed, 'customer', []],
    [S.FinalizeRequested, 'provider', []],
    [S.FinalizeRequested, 'customer', ['approveFinalizeRequest']],
    [S.PaymentPending, 'provider', []],
    [S.PaymentPending, 'customer', ['pay']],
    [S.Closed, 'provider', []],
    [S.Closed, 'customer', []],
  ] as const)('status %i, %s: %j', (status, side, calls) => {
    expect(allowedCalls(status, side)).toEqual(calls);
  });

  it('gives anyone who is not a party (a moderator) no moves, and an unknown status none', () => {
    expect(allowedCalls(S.Proposal, null)).toEqual([]);
    expect(allowedCalls(42, 'provider')).toEqual([]);
  });

  it('tells the sides apart by user code', () => {
    expect(sideOf(offer(S.Initial), 'U_p')).toBe('provider');
    expect(sideOf(offer(S.Initial), 'U_c')).toBe('customer');
    expect(sideOf(offer(S.Initial), 'U_admin')).toBeNull();
    expect(sideOf(offer(S.Initial), null)).toBeNull();
  });

  it('waits for the party with a forward move; withdraw or reject alone do not count', () => {
    const waiting = (status: number) => ({ provider: waitsFor(offer(status), 'U_p'), customer: waitsFor(offer(status), 'U_c') });
    expect(waiting(S.Initial)).toEqual({ provider: true, customer: false });
    expect(waiting(S.Proposal)).toEqual({ provider: true, customer: false });
    expect(waiting(S.FinalOffer)).toEqual({ provider: false, customer: true });
    expect(waiting(S.CustomerApproved)).toEqual({ provider: true, customer: false });
    expect(waiting(S.Agreed)).toEqual({ provider: true, customer: false });
    expect(waiting(S.FinalizeRequested)).toEqual({ provider: false, customer: true });
    expect(waiting(S.PaymentPending)).toEqual({ provider: false, customer: true });
    expect(waiting(S.Closed)).toEqual({ provider: false, customer: false });
    expect(nextMoveBy(S.FinalOffer)).toBe('customer');
    expect(nextMoveBy(S.Closed)).toBeNull();
  });
});

describe('the offer guide, read off the table', () => {
  it('at Proposal the customer waits for the final offer, then may choose; the provider is awaited; a moderator only reads', () => {
    expect(offerGuide(S.Proposal, 'customer')).toEqual({
      calls: ['reject'],
      awaited: { from: S.Proposal, call: 'final', actor: 'provider', to: S.FinalOffer },
      yours: false,
      then: ['choose'],
    });
    expect(offerGuide(S.Proposal, 'provider')).toMatchObject({ calls: ['update', 'final', 'withdraw'], yours: true, then: [] });
    expect(offerGuide(S.Proposal, null)).toMatchObject({ calls: [], yours: false, then: [], awaited: { call: 'final' } });
    expect(offerGuide(S.Closed, 'customer')).toEqual({ calls: [], awaited: null, yours: false, then: [] });
  });

  it('the awaited move is always by the side that waitsFor says', () => {
    for (const status of Object.values(S)) {
      const guide = offerGuide(status, 'provider');
      expect(guide.yours).toBe(waitsFor(offer(status), 'U_p'));
    }
  });

  it('counts open offers waiting for me and for the other side, closed and onlooked ones for neither', () => {
    const offers = [
      offer(S.Proposal),
      offer(S.FinalOffer),
      offer(S.PaymentPending),
      offer(S.Closed),
      { status: S.FinalOffer, providerCode: 'U_x', customerCode: 'U_y' },
    ];
    expect(countWaiting(offers, 'U_c')).toEqual({ forMe: 2, forOther: 1 });
    expect(countWaiting(offers, 'U_p')).toEqual({ forMe: 1, forOther: 2 });
  });
});
