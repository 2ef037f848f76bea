import { offerEntry } from './job-view-logic';

describe("the job view's offer entry", () => {
  const taking = { acceptingOffers: true };
  const stopped = { acceptingOffers: false };

  it('lets the customer manage the offers, whatever the job takes', () => {
    expect(offerEntry(taking, true, undefined)).toEqual({ kind: 'customer' });
    expect(offerEntry(stopped, true, [{ code: 'O1', status: 5 }])).toEqual({ kind: 'customer' });
  });

  it('shows a provider their open offer, even on a job that stopped taking offers', () => {
    expect(offerEntry(taking, false, [{ code: 'O_old', status: 200 }, { code: 'O_open', status: 10 }])).toEqual({ kind: 'view-mine', offerCode: 'O_open' });
    expect(offerEntry(stopped, false, [{ code: 'O_open', status: 160 }])).toEqual({ kind: 'view-mine', offerCode: 'O_open' });
  });

  it('invites an offer while the job takes them (a closed one frees the provider), else says it takes none', () => {
    expect(offerEntry(taking, false, [])).toEqual({ kind: 'make' });
    expect(offerEntry(taking, false, [{ code: 'O_old', status: 200 }])).toEqual({ kind: 'make' });
    expect(offerEntry(stopped, false, [])).toEqual({ kind: 'closed' });
    expect(offerEntry(taking, false, undefined)).toEqual({ kind: 'loading' });
  });
});
