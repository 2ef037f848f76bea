import { ApiError } from './api-error';
import { clearResponseCache, configureHttp, http, isSameOrigin } from './http';
import { createResponseCache } from './response-cache';

const fetchMock = jest.fn();

// jsdom has no fetch Response; the client reads only these members.
function json(status: number, body: unknown) {
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
    text: async () => JSON.stringify(body),
  };
}

beforeEach(() => {
  fetchMock.mockReset();
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T0KEN', onError: jest.fn() });
});

const headersOf = (call: number) => fetchMock.mock.calls[call][1].headers as Record<string, string>;

describe('http client', () => {
  it('sends the token on same-origin calls only', async () => {
    fetchMock.mockImplementation(async () => json(200, { ok: true }));
    await http.get('/api/me', { cache: false });
    await http.get(`${window.location.origin}/api/x`, { cache: false });
    await http.get('https://elsewhere.example/api/x', { cache: false });
    expect(headersOf(0).Authorization).toBe('Bearer T0KEN');
    expect(headersOf(1).Authorization).toBe('Bearer T0KEN');
    expect(headersOf(2).Authorization).toBeUndefined();
    expect(isSameOrigin('//elsewhere.example/x')).toBe(false);
  });

  it('sends extra headers such as an Idempotency-Key, without letting them replace the token', async () => {
    fetchMock.mockImplementation(async () => json(200, { ok: true }));
    await http.post('/api/jobs/J/offers/O/final', {}, { headers: { 'Idempotency-Key': 'tab:O:final:v3', Authorization: 'Bearer forged' } });
    expect(headersOf(0)['Idempotency-Key']).toBe('tab:O:final:v3');
    expect(headersOf(0).Authorization).toBe('Bearer T0KEN');
  });

  it('reuses a GET answer for 10 s, but never caches changes', async () => {
    jest.useFakeTimers();
    try {
      fetchMock.mockImplementation(async () => json(200, { n: fetchMock.mock.calls.length }));
      expect(await http.get('/api/timezone')).toEqual({ n: 1 });
      expect(await http.get('/api/timezone')).toEqual({ n: 1 });
      jest.advanceTimersByTime(10_000);
      expect(await http.get('/api/timezone')).toEqual({ n: 2 });
      await http.patch('/api/me', { name: 'x' });
      await http.patch('/api/me', { name: 'x' });
      expect(fetchMock).toHaveBeenCalledTimes(4);
      // A change drops cached lookups.
      expect(await http.get('/api/timezone')).toEqual({ n: 5 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('caches a POST lookup only when asked to, keyed by its body', async () => {
    fetchMock.mockImplementation(async () => json(200, []));
    await http.post('/api/user/search', { query: 'abcd' }, { cache: true });
    await http.post('/api/user/search', { query: 'abcd' }, { cache: true });
    await http.post('/api/user/search', { query: 'abcde' }, { cache: true });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('turns failures into ApiError with the envelope, hands them to the error handler and rethrows', async () => {
    const onError = jest.fn();
    configureHttp({ onError });
    fetchMock.mockResolvedValue(json(422, { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['A'] } }));
    const failure = await http.post('/api/job', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body?.data?.brokenRules).toEqual(['A']);
    expect(onError).toHaveBeenCalledWith(failure);

    onError.mockClear();
    await http.post('/api/user/login', {}, { handleErrors: false }).catch(() => undefined);
    expect(onError).not.toHaveBeenCalled();
  });

  it('reads file renditions as a blob, with the token', async () => {
    const bytes = { size: 3 };
    fetchMock.mockResolvedValueOnce({ status: 200, ok: true, headers: { get: () => 'image/png' }, blob: async () => bytes });
    expect(await http.get('/api/File/F1/S1/Thumbnail', { responseType: 'blob' })).toBe(bytes);
    expect(headersOf(0).Authorization).toBe('Bearer T0KEN');
    expect(headersOf(0).Accept).toBe('*/*');
  });

  it('does not keep failed lookups in the cache', async () => {
    fetchMock.mockResolvedValueOnce(json(500, { code: 500, message: 'x' })).mockResolvedValueOnce(json(200, { ok: 1 }));
    await expect(http.get('/api/timezone')).rejects.toBeInstanceOf(ApiError);
    expect(await http.get('/api/timezone')).toEqual({ ok: 1 });
  });
});

describe('response cache', () => {
  it('expires entries after the ttl', async () => {
    let now = 0;
    const cache = createResponseCache(10_000, () => now);
    cache.set('k', Promise.resolve(1));
    now = 9_999;
    expect(cache.get('k')).toBeDefined();
    now = 10_000;
    expect(cache.get('k')).toBeUndefined();
  });
});
