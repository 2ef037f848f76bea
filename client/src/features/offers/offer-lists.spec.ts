import { filterOffers, waitingFirst } from './offer-lists';
import { OfferStatus } from './offer-status';

const o = (code: string, status: number, providerCode = 'U_me', customerCode = 'U_c') => ({ code, status, providerCode, customerCode });

describe('offers list order and filter', () => {
  // Server order: latest change first.
  const offers = [o('a', OfferStatus.FinalOffer), o('b', OfferStatus.Proposal), o('c', OfferStatus.PaymentPending, 'U_p', 'U_me'), o('d', OfferStatus.Closed)];

  it('puts the offers waiting for my move first, keeping the latest-change order within each part', () => {
    expect(waitingFirst(offers, 'U_me').map((x) => x.code)).toEqual(['b', 'c', 'a', 'd']);
  });

  it('filters by status or by "waiting for me"', () => {
    expect(filterOffers(offers, 'all', 'U_me').map((x) => x.code)).toEqual(['a', 'b', 'c', 'd']);
    expect(filterOffers(offers, 'waiting', 'U_me').map((x) => x.code)).toEqual(['b', 'c']);
    expect(filterOffers(offers, String(OfferStatus.Closed) as `${number}`, 'U_me').map((x) => x.code)).toEqual(['d']);
  });
});
