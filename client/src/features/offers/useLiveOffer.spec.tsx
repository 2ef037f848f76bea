import { act, render } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { realtimeStore } from '@/realtime/connection';
import { offerStore, resetOffers } from './offer.store';
import { OFFER_POLL_MS, useLiveOffer } from './useLiveOffer';

function Probe({ code }: { code: string }) {
  useLiveOffer(code);
  return null;
}

let version = 1;
const fetchMock = jest.fn(async () => ({
  status: 200,
  ok: true,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify({ code: 'O_one', status: 5, version: version++, jobCode: 'J_one', providerCode: 'U_p', customerCode: 'U_c' }),
}));

beforeEach(() => {
  jest.useFakeTimers();
  resetOffers();
  fetchMock.mockClear();
  version = 1;
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});
afterEach(() => jest.useRealTimers());

describe('an open offer stays fresh', () => {
  it('loads when shown and again when the socket connects (a push sent meanwhile reached nobody), polling only while it is down', async () => {
    realtimeStore.status = 'connecting';
    render(<Probe code="O_one" />);
    await act(async () => undefined);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await act(async () => {
      jest.advanceTimersByTime(OFFER_POLL_MS);
    });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await act(async () => {
      realtimeStore.status = 'connected';
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(offerStore.byCode.O_one).toMatchObject({ state: 'loaded', offer: { version: 3 } });
    await act(async () => {
      jest.advanceTimersByTime(OFFER_POLL_MS * 3);
    });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});
