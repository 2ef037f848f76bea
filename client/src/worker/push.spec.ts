import { urlBase64ToBytes } from './push';

describe('push key', () => {
  it('decodes the URL-safe base64 VAPID key into bytes', () => {
    expect(Array.from(urlBase64ToBytes('AQID_-8'))).toEqual([1, 2, 3, 255, 239]);
    expect(urlBase64ToBytes('BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U')).toHaveLength(65);
  });
});

describe('unregisterPush (on logout)', () => {
  const fetchMock = jest.fn();
  afterEach(() => {
    delete (navigator as unknown as Record<string, unknown>).serviceWorker;
  });

  it("tells the server to forget this browser's subscription, with the token", async () => {
    const { configureHttp } = await import('@/api/http');
    const { unregisterPush } = await import('./push');
    fetchMock.mockReset();
    fetchMock.mockImplementation(async () => ({ status: 204, ok: true, headers: { get: () => null }, text: async () => '' }));
    Object.assign(globalThis, { fetch: fetchMock });
    configureHttp({ getToken: () => 'T0KEN', onError: jest.fn() });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => ({ pushManager: { getSubscription: async () => ({ endpoint: 'https://push.example/abc' }) } }) },
    });
    await unregisterPush();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/User/WebPush/Unregister');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body)).toEqual({ endpoint: 'https://push.example/abc' });
    expect(init.headers.Authorization).toBe('Bearer T0KEN');
  });

  it('does nothing without a subscription or a service worker', async () => {
    const { unregisterPush } = await import('./push');
    fetchMock.mockReset();
    Object.assign(globalThis, { fetch: fetchMock });
    await unregisterPush();
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => ({ pushManager: { getSubscription: async () => null } }) },
    });
    await unregisterPush();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
