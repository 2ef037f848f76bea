import { clearResponseCache, configureHttp } from '@/api/http';
import type { JobOffer } from '@/api/offer.api';
import { offerStatusLook } from './offer-status';
import { toJobOffer } from '@/routes/paths';
import { applyOfferStatus, loadOffer, offerStore, resetOffers } from './offer.store';

const OFFER: JobOffer = {
  code: 'O_one',
  status: 5,
  deadline: '2026-02-01T00:00:00.000Z',
  price: { amount: '12.50', currency: 'USD' },
  localPrice: { amount: '50.00', currency: 'PLN' },
  jobCode: 'J_one',
  groupCode: 'G_offer',
  providerCode: 'U_pro',
  customerCode: 'U_cus',
  createdAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  lapsesAt: null,
  job: { code: 'J_one', title: 'Paint the fence', description: 'A long enough description', lang: 'eng', deadline: null },
};

let answer: [number, unknown] = [200, OFFER];
const fetchMock = jest.fn(async () => ({
  status: answer[0],
  ok: answer[0] < 400,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify(answer[1]),
}));

beforeEach(() => {
  resetOffers();
  fetchMock.mockClear();
  answer = [200, OFFER];
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('offer store', () => {
  it('loads an offer once by its code', async () => {
    await loadOffer('O_one');
    await loadOffer('O_one');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The job's title comes in the interface language.
    expect(fetchMock.mock.calls[0]).toEqual(['/api/jobs/offers/O_one?lang=eng', expect.objectContaining({ method: 'GET' })]);
    expect(offerStore.byCode.O_one).toMatchObject({ state: 'loaded', offer: { jobCode: 'J_one', price: { amount: '12.50' } } });
  });

  it('holds a 404 as missing and a network failure as failed (tried again next time)', async () => {
    answer = [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
    await loadOffer('O_gone');
    expect(offerStore.byCode.O_gone).toEqual({ state: 'missing' });
    answer = [500, { code: 500, message: 'SHARED.ERROR.INTERNAL' }];
    await loadOffer('O_err');
    expect(offerStore.byCode.O_err).toEqual({ state: 'failed' });
    answer = [200, { ...OFFER, code: 'O_err' }];
    await loadOffer('O_err');
    expect(offerStore.byCode.O_err?.state).toBe('loaded');
  });

  it('moves a held offer to a pushed status, never back to an older one', async () => {
    await loadOffer('O_one');
    const push = { jobCode: 'J_one', offerCode: 'O_one', previousStatus: 5, actorCode: 'U_pro' };
    applyOfferStatus({ ...push, status: 10, at: '2026-01-02T00:00:02.000Z' });
    applyOfferStatus({ ...push, status: 5, at: '2026-01-02T00:00:01.000Z' });
    const entry = offerStore.byCode.O_one;
    expect(entry?.state === 'loaded' && entry.offer.status).toBe(10);
  });

  it('forgets a missing offer when a push names it, so it is fetched again', async () => {
    answer = [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
    await loadOffer('O_new');
    applyOfferStatus({ jobCode: 'J', offerCode: 'O_new', status: 5, previousStatus: 1, actorCode: 'U', at: '2026-01-01T00:00:00.000Z' });
    expect(offerStore.byCode.O_new).toBeUndefined();
  });

  it('has the spec colours and a link to the offer', () => {
    expect(offerStatusLook(160).color).toBe('red');
    expect(offerStatusLook(130).color).toBe('teal');
    expect(offerStatusLook(100).color).toBe('indigo');
    expect(offerStatusLook(50).color).toBe('grape');
    expect(offerStatusLook(10).color).toBe('lime');
    expect(offerStatusLook(5).color).toBe('orange');
    expect(offerStatusLook(1).color).toBeUndefined();
    expect(offerStatusLook(200).color).toBe('var(--mantine-color-text)');
    expect(offerStatusLook(999).label).toBe('OFFER.STATUS.UNKNOWN');
    expect(toJobOffer('J 1', 'O_1')).toBe('/jobs/J%201/offers/O_1');
  });
});
