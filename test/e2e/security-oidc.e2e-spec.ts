import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createInstance } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { Callback, IDP_CLIENT, signInAtProvider, startTestIdentityProvider, TestIdentityProvider } from '../utils/identity-provider';
import { pause } from '../utils/wait';

jest.setTimeout(60_000);

// Every way a sign-in with an OpenID provider can go wrong: a clear error in the envelope, no user created or
// changed, and a log line that says what to check. The provider is real (oidc-provider); the misbehaving
// ones are its test tenants (scripts/idp/identity-provider.mts), and one runs with its clock two hours behind.
const host = `oidc-bad-${randomBytes(3).toString('hex')}.test`;
const NAMES = ['good', 'wrong-key', 'wrong-nonce', 'wrong-aud', 'wrong-iss', 'short-code', 'expired', 'corp', 'off', 'down', 'slow'];

describe('sign-in with an OpenID provider: bad input', () => {
  let idp: TestIdentityProvider;
  let oldIdp: TestIdentityProvider;
  let t: TestApp;
  let db: DataSource;
  let instanceId: string;
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    const redirectUris = NAMES.map((name) => `http://${host}/auth/callback/${name}`);
    [idp, oldIdp] = await Promise.all([startTestIdentityProvider(redirectUris), startTestIdentityProvider(redirectUris, -7200)]);
    // Accepts connections and never answers: a provider that hangs.
    silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const provider = (name: string, issuer: string, extra: object = {}) => ({ name, label: name, issuer, ...IDP_CLIENT, ...extra });
    const providers = [
      ...['good', 'wrong-key', 'wrong-nonce', 'wrong-aud', 'wrong-iss', 'short-code'].map((name) => provider(name, idp.issuer(name))),
      provider('expired', oldIdp.issuer('good')),
      provider('corp', idp.issuer('good'), { emailDomains: ['example.com'] }),
      provider('off', idp.issuer('good'), { enabled: false }),
      provider('down', `http://127.0.0.1:${closedPort}/idp`),
      provider('slow', `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/idp`),
    ];
    t = await createTestApp({ AUTH_PROVIDERS: JSON.stringify(providers), AUTH_PROVIDER_TIMEOUT: '1' });
    db = t.app.get(DataSource);
    instanceId = (await createInstance(t, { hosts: [host] })).id;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    await t?.close();
    await Promise.all([idp?.close(), oldIdp?.close()]);
  });
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  const agent = () => request.agent(t.app.getHttpServer());
  type Agent = ReturnType<typeof agent>;
  const loginUrl = async (a: Agent, provider: string) =>
    (await a.get(`/api/User/AuthProviders/${provider}/LoginUrl`).set('Host', host).expect(200)).body.url as string;
  const post = (a: Agent, provider: string, callback: Callback) => a.post(`/api/User/AuthProviders/${provider}/Login`).set('Host', host).send(callback);
  const atProvider = async (a: Agent, provider: string, login = 'alice') => signInAtProvider(await loginUrl(a, provider), login);
  const counts = async () => {
    const [{ users, links }] = await db.query(
      `SELECT (SELECT count(*)::int FROM "user" WHERE instance_id = $1) AS users, (SELECT count(*)::int FROM linked_identity WHERE instance_id = $1) AS links`,
      [instanceId],
    );
    return { users, links };
  };
  const logged = () => warn.mock.calls.map(([message]) => String(message)).join('\n');

  /** The sign-in is refused with this envelope, changes nothing, and logs a line matching `log`. */
  async function expectRefused(res: request.Response, status: number, message: string, log: RegExp, before: { users: number; links: number }) {
    expect({ status: res.status, body: res.body }).toEqual({ status, body: { code: status, message } });
    expect(res.headers['set-cookie']?.toString() ?? '').not.toContain('parley_rt=');
    expect(await counts()).toEqual(before);
    expect(logged()).toMatch(log);
  }

  describe('state', () => {
    it('refuses a missing state (422) and one this server never issued (400)', async () => {
      const before = await counts();
      const a = agent();
      const callback = await atProvider(a, 'good');
      expect((await post(a, 'good', { code: callback.code }).expect(422)).body.data.brokenRules).toEqual(['VALIDATION.STATE.IS_STRING']);
      await expectRefused(
        await post(a, 'good', { ...callback, state: randomBytes(32).toString('base64url') }),
        400,
        'SHARED.AUTH_PROVIDER.STATE_INVALID',
        /good refused: the state is unknown, expired or already used/,
        before,
      );
    });

    it('refuses a replayed state, even with the same browser and code', async () => {
      const a = agent();
      const callback = await atProvider(a, 'good', 'bob');
      expect((await post(a, 'good', callback)).status).toBe(200);
      const before = await counts();
      await expectRefused(await post(a, 'good', callback), 400, 'SHARED.AUTH_PROVIDER.STATE_INVALID', /state is unknown, expired or already used/, before);
    });

    it("refuses a callback brought to another browser (login CSRF): the state is not that browser's", async () => {
      const before = await counts();
      const callback = await atProvider(agent(), 'good', 'carol');
      await expectRefused(await post(agent(), 'good', callback), 400, 'SHARED.AUTH_PROVIDER.STATE_INVALID', /not this browser's/, before);
    });

    it('refuses bad login URL queries', async () => {
      expect(
        (
          await t
            .http()
            .get(`/api/User/AuthProviders/good/LoginUrl?state=${'s'.repeat(513)}`)
            .set('Host', host)
            .expect(422)
        ).body.data.brokenRules,
      ).toEqual(['VALIDATION.STATE.MAX_LENGTH']);
      expect((await t.http().get('/api/User/AuthProviders/good/LoginUrl?state=a&state=b').set('Host', host).expect(422)).body.data.brokenRules).toEqual([
        'VALIDATION.STATE.IS_STRING',
      ]);
      expect((await t.http().get('/api/User/AuthProviders/good/LoginUrl?foo=1').set('Host', host).expect(422)).body.data.brokenRules).toEqual([
        'VALIDATION.FOO.UNKNOWN_FIELD',
      ]);
      expect((await t.http().get('/api/User/AuthProviders/good/LoginUrl?type=3').set('Host', host).expect(422)).body.data.brokenRules).toEqual([
        'VALIDATION.TYPE.IS_IN',
      ]);
    });
  });

  describe('code', () => {
    it('refuses a replayed code under a fresh state', async () => {
      const a = agent();
      const first = await atProvider(a, 'good', 'bob');
      expect((await post(a, 'good', first)).status).toBe(200);
      const before = await counts();
      const fresh = new URL(await loginUrl(a, 'good')).searchParams.get('state')!;
      await expectRefused(
        await post(a, 'good', { ...first, state: fresh }),
        401,
        'SHARED.AUTH_PROVIDER.CODE_REJECTED',
        /good refused: the provider rejected the code \(invalid_grant/,
        before,
      );
    });

    it('refuses an expired code', async () => {
      const before = await counts();
      const a = agent();
      const callback = await atProvider(a, 'short-code');
      // The provider's codes for this client live one second: it runs out meanwhile.
      await pause(2_500);
      await expectRefused(
        await post(a, 'short-code', callback),
        401,
        'SHARED.AUTH_PROVIDER.CODE_REJECTED',
        /short-code refused: the provider rejected the code \(invalid_grant/,
        before,
      );
    });
  });

  describe('ID token', () => {
    it.each([
      ['wrong-aud', 'issued to another client', /"aud"/],
      ['wrong-iss', 'naming another issuer', /"iss"/],
      ['wrong-nonce', 'with another nonce', /"nonce"/],
      ['wrong-key', 'signed with a key the provider does not publish', /signature|key/i],
      ['expired', 'already expired (the provider clock is two hours behind)', /"exp"|expired|timestamp/i],
    ])('refuses a token from %s: %s', async (provider, _what, reason) => {
      const before = await counts();
      const a = agent();
      const { iss: _iss, ...callback } = await atProvider(a, provider);
      // wrong-iss: the provider's own iss in the redirect would be refused first; leave the ID token to be checked.
      const res = await post(a, provider, provider === 'wrong-iss' ? callback : { ...callback, ...(_iss ? { iss: _iss } : {}) });
      await expectRefused(
        res,
        401,
        'SHARED.AUTH_PROVIDER.TOKEN_INVALID',
        new RegExp(`${provider} refused: the ID token or user-info did not pass the checks`),
        before,
      );
      expect(logged()).toMatch(reason);
    });
  });

  describe('providers', () => {
    it('answers 404 for an unknown provider', async () => {
      expect((await t.http().get('/api/User/AuthProviders/nope/LoginUrl').set('Host', host).expect(404)).body).toEqual({
        code: 404,
        message: 'SHARED.ERROR.NOT_FOUND',
      });
      await t.http().post('/api/User/AuthProviders/nope/Login').set('Host', host).send({ code: 'x', state: 'y' }).expect(404);
    });

    it('refuses a disabled provider, on the login URL and the exchange', async () => {
      const before = await counts();
      expect((await t.http().get('/api/User/AuthProviders').set('Host', host).expect(200)).body.map((p: { name: string }) => p.name)).not.toContain('off');
      expect((await t.http().get('/api/User/AuthProviders/off/LoginUrl').set('Host', host).expect(403)).body).toEqual({
        code: 403,
        message: 'SHARED.AUTH_PROVIDER.DISABLED',
      });
      await expectRefused(
        await t.http().post('/api/User/AuthProviders/off/Login').set('Host', host).send({ code: 'x', state: 'y' }),
        403,
        'SHARED.AUTH_PROVIDER.DISABLED',
        /off refused: the provider is disabled/,
        before,
      );
    });

    it('answers 503 when the provider is down', async () => {
      expect((await t.http().get('/api/User/AuthProviders/down/LoginUrl').set('Host', host).expect(503)).body).toEqual({
        code: 503,
        message: 'SHARED.AUTH_PROVIDER.UNAVAILABLE',
      });
      expect(logged()).toMatch(/down failed: discovery at http:\/\/127\.0\.0\.1:\d+\/idp did not answer/);
    });

    it('answers 503 within the timeout when the provider hangs', async () => {
      const started = Date.now();
      expect((await t.http().get('/api/User/AuthProviders/slow/LoginUrl').set('Host', host).expect(503)).body).toEqual({
        code: 503,
        message: 'SHARED.AUTH_PROVIDER.UNAVAILABLE',
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(logged()).toMatch(/slow failed: discovery/);
    });
  });

  describe('claims', () => {
    it('refuses an account without an e-mail', async () => {
      const before = await counts();
      const a = agent();
      await expectRefused(
        await post(a, 'good', await atProvider(a, 'good', 'carol')),
        422,
        'SHARED.AUTH_PROVIDER.EMAIL_MISSING',
        /refused for subject carol: the provider gave no e-mail/,
        before,
      );
    });

    it('refuses an e-mail the provider does not vouch for', async () => {
      const before = await counts();
      const a = agent();
      await expectRefused(
        await post(a, 'good', await atProvider(a, 'good', 'dave')),
        403,
        'SHARED.AUTH_PROVIDER.EMAIL_UNVERIFIED',
        /subject dave: the provider does not vouch/,
        before,
      );
    });

    it("refuses an e-mail outside the provider's allowed domains", async () => {
      const before = await counts();
      const a = agent();
      await expectRefused(
        await post(a, 'corp', await atProvider(a, 'corp', 'bob')),
        403,
        'SHARED.AUTH_PROVIDER.EMAIL_DOMAIN_REFUSED',
        /corp refused for subject bob: e-mail domain example\.org/,
        before,
      );
    });
  });
});
