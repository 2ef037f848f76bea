import { createHmac } from 'node:crypto';
import { createUser, DEFAULT_PASSWORD, uniqueEmail } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';
import { ConfigError, loadConfig } from '../../server/src/config/load-config';
import { testEnv } from '../utils/test-env';

// Replays of the security probe's findings on authentication (issue 16): each one must be refused.
jest.setTimeout(60_000);

const SECRET = testEnv().JWT_SECRET!;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const signed = (claims: object) => {
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${body}.${createHmac('sha256', SECRET).update(body).digest('base64url')}`;
};
const now = () => Math.floor(Date.now() / 1000);
const LONE_SURROGATES = '\ud800x\udfff@example.test';
const ILL_FORMED = { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: [expect.stringMatching(/\.ILL_FORMED_STRING$/)] } };

describe('security: authentication', () => {
  let t: ListeningApp;

  beforeAll(async () => {
    t = await listenTestApp();
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  describe('item 5: X-Forwarded-For is believed only for the proxies there are', () => {
    const production = (TRUST_PROXY: string) =>
      testEnv({ NODE_ENV: 'production', TRUST_PROXY, VAPID_PUBLIC_KEY: 'public', VAPID_PRIVATE_KEY: 'private' });

    it('refuses trust-all in production, naming the variable, and takes hop counts or addresses', () => {
      expect(() => loadConfig(production('true'))).toThrow(ConfigError);
      expect(() => loadConfig(production('true'))).toThrow(/TRUST_PROXY: true trusts every X-Forwarded-For hop/);
      expect(loadConfig(production('1')).TRUST_PROXY).toBe(1);
      expect(loadConfig(production('10.0.0.0/8, loopback')).TRUST_PROXY).toEqual(['10.0.0.0/8', 'loopback']);
      expect(loadConfig(production('false')).TRUST_PROXY).toBe(false);
      expect(() => loadConfig(production('everything'))).toThrow(/TRUST_PROXY/);
      expect(() => loadConfig(production('10.0.0.0/99'))).toThrow(/TRUST_PROXY/);
      // Outside production "true" still works, as one hop.
      expect(loadConfig(testEnv({ TRUST_PROXY: 'true' })).TRUST_PROXY).toBe(1);
    });
  });

  describe('item 7: ill-formed strings are 422, never 500', () => {
    it('refuses a lone surrogate in the e-mail on register and login', async () => {
      const reg = await t.http().post('/api/user').send({ email: LONE_SURROGATES, password: DEFAULT_PASSWORD, name: 'Ada' });
      expect([reg.status, reg.body]).toEqual([422, ILL_FORMED]);
      const login = await t.http().post('/api/user/login').send({ email: LONE_SURROGATES, password: 'whatever' });
      expect([login.status, login.body]).toEqual([422, ILL_FORMED]);
    });

    it('refuses them in keys, nested values, query strings and socket payloads alike', async () => {
      const u = await createUser(t);
      const auth = `Bearer ${u.token}`;
      const nested = await t.http().patch('/api/me').set('Authorization', auth).send({ name: 'A\udc00' });
      expect([nested.status, nested.body]).toEqual([422, ILL_FORMED]);
      const key = await t.http().post('/api/user/search').set('Authorization', auth).send({ query: 'abcd', '\ud800': 1 });
      expect(key.status).toBe(422);
      const query = await t.http().get('/api/Instance').query({ page: '1\ud800' }).set('Authorization', auth);
      expect(query.status).toBe(422);
      const paramPath = await t.http().get(`/api/user/${encodeURIComponent('ab')}%ED%A0%80`).set('Authorization', auth);
      expect(paramPath.status).toBeLessThan(500);

      const socket = await connect(t.url, u.token);
      expect(await call(socket, 'presence:watch', { userCodes: ['\ud83dabc'] })).toEqual({ ok: false, error: expect.objectContaining({ code: 422 }) });
      expect(await call(socket, 'sync', { groups: [{ groupCode: 'abcde', afterSeq: 0 }], '\udfff': 1 })).toMatchObject({ ok: false });
    });
  });

  describe('item 17: access tokens must carry bounded claims', () => {
    it('refuses a signed token without exp, with a 100-year exp, issued in the future, or naming two users', async () => {
      const a = await createUser(t);
      const b = await createUser(t);
      const base = { unique_name: a.user.code, nameid: a.user.email, role: a.user.role, nbf: now(), iat: now() };
      const me = (token: string) => t.http().get('/api/me').set('Authorization', `Bearer ${token}`);

      await me(signed({ ...base, exp: now() + 600 })).expect(200);
      await me(signed(base)).expect(401);
      await me(signed({ ...base, exp: now() + 100 * 365 * 24 * 3600 })).expect(401);
      await me(signed({ ...base, iat: now() + 3600, nbf: now() + 3600, exp: now() + 3600 + 600 })).expect(401);
      await me(signed({ ...base, iat: now() + 3600, nbf: now(), exp: now() + 600 })).expect(401);
      await me(signed({ ...base, nameid: b.user.email, exp: now() + 600 })).expect(401);
      const { nameid: _nameid, ...withoutLogin } = base;
      await me(signed({ ...withoutLogin, exp: now() + 600 })).expect(401);
    });

    it('applies the same rules to the socket handshake', async () => {
      const a = await createUser(t);
      const attempt = (token: string) =>
        connect(t.url, token).then(
          () => 'connected',
          (err: Error) => err.message,
        );
      const base = { unique_name: a.user.code, nameid: a.user.email, role: a.user.role, nbf: now(), iat: now() };
      expect(await attempt(signed({ ...base, exp: now() + 600 }))).toBe('connected');
      expect(await attempt(signed({ ...base, exp: now() + 100 * 365 * 24 * 3600 }))).toBe('unauthorized');
      expect(await attempt(signed(base))).toBe('unauthorized');
    });
  });

  describe('item 9: login CSRF', () => {
    it('refuses form-encoded bodies on login and register (415), setting no cookie', async () => {
      const u = await createUser(t);
      const form = await t
        .http()
        .post('/api/user/login')
        .type('form')
        .send({ email: u.user.email, password: DEFAULT_PASSWORD });
      expect([form.status, form.body.message]).toEqual([415, 'SHARED.ERROR.UNSUPPORTED_MEDIA_TYPE']);
      expect(form.headers['set-cookie']).toBeUndefined();
      const multipart = await t.http().post('/api/user/login').field('email', u.user.email).field('password', DEFAULT_PASSWORD);
      expect(multipart.status).toBe(415);
      const reg = await t.http().post('/api/user').type('form').send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, name: 'X' });
      expect(reg.status).toBe(415);
    });

    it('refuses cookie-bearing calls from another origin, and accepts its own', async () => {
      const u = await createUser(t);
      const login = (origin?: string) => {
        const req = t.http().post('/api/user/login').set('Host', 'parley.test:8080');
        if (origin !== undefined) req.set('Origin', origin);
        return req.send({ email: u.user.email, password: DEFAULT_PASSWORD });
      };
      const evil = await login('https://evil.example');
      expect([evil.status, evil.body]).toEqual([403, { code: 403, message: 'SHARED.ERROR.CROSS_ORIGIN' }]);
      expect(evil.headers['set-cookie']).toBeUndefined();
      expect((await login('null')).status).toBe(403);
      expect((await login('http://parley.test')).status).toBe(403);
      const own = await login('http://parley.test:8080').expect(200);
      await login().expect(200);

      const cookie = ([] as string[]).concat(own.headers['set-cookie']).find((c) => c.startsWith('parley_rt='))!.split(';')[0];
      for (const path of ['/api/user/refresh-token', '/api/user/logout']) {
        const res = await t.http().post(path).set('Host', 'parley.test:8080').set('Origin', 'https://evil.example').set('Cookie', cookie);
        expect(res.status).toBe(403);
      }
      const crossSite = await t.http().post('/api/user/refresh-token').set('Sec-Fetch-Site', 'cross-site').set('Cookie', cookie);
      expect(crossSite.status).toBe(403);
      await t.http().post('/api/user/refresh-token').set('Host', 'parley.test:8080').set('Origin', 'http://parley.test:8080').set('Cookie', cookie).expect(200);
    });
  });
});
