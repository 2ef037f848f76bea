import { Role } from '@/features/session/roles';
import { offerEntry, seesAllOffers } from './job-view-logic';

describe("the job view's offer entry", () => {
  const taking = { acceptingOffers: true };
  const stopped = { acceptingOffers: false };

  it('lets the customer manage the offers, whatever the job takes', () => {
    expect(offerEntry(taking, true, undefined, 'U_me')).toEqual({ kind: 'customer' });
    expect(offerEntry(stopped, true, [{ code: 'O1', status: 5, providerCode: 'U_other' }], 'U_me')).toEqual({ kind: 'customer' });
  });

  it('shows a provider their open offer, even on a job that stopped taking offers', () => {
    expect(
      offerEntry(
        taking,
        false,
        [
          { code: 'O_old', status: 200, providerCode: 'U_me' },
          { code: 'O_open', status: 10, providerCode: 'U_me' },
        ],
        'U_me',
      ),
    ).toEqual({ kind: 'view-mine', offerCode: 'O_open' });
    expect(offerEntry(stopped, false, [{ code: 'O_open', status: 160, providerCode: 'U_me' }], 'U_me')).toEqual({ kind: 'view-mine', offerCode: 'O_open' });
  });

  it('invites an offer while the job takes them (a closed one frees the provider), else says it takes none', () => {
    expect(offerEntry(taking, false, [], 'U_me')).toEqual({ kind: 'make' });
    expect(offerEntry(taking, false, [{ code: 'O_old', status: 200, providerCode: 'U_me' }], 'U_me')).toEqual({ kind: 'make' });
    expect(offerEntry(stopped, false, [], 'U_me')).toEqual({ kind: 'closed' });
    expect(offerEntry(taking, false, undefined, 'U_me')).toEqual({ kind: 'loading' });
  });

  it("never takes someone else's offer for the reader's (a moderator sees everyone's)", () => {
    expect(offerEntry(taking, false, [{ code: 'O_theirs', status: 5, providerCode: 'U_other' }], 'U_me')).toEqual({ kind: 'make' });
    expect(seesAllOffers(true, Role.InstanceUser)).toBe(true);
    expect(seesAllOffers(false, Role.InstanceAdmin)).toBe(true);
    expect(seesAllOffers(false, Role.GlobalAdmin)).toBe(true);
    expect(seesAllOffers(false, Role.GlobalUser)).toBe(false);
    expect(seesAllOffers(false, Role.InstanceUser)).toBe(false);
  });
});
