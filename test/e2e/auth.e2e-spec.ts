import { createHmac, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { UserEntity } from '../../server/src/modules/users/user.entity';
import { createInstance, createUser, DEFAULT_PASSWORD, uniqueEmail } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { testEnv } from '../utils/test-env';

const SECRET = testEnv().JWT_SECRET!;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A JWT made by hand, so tests can forge what the server must refuse. */
function jwt(claims: object, { secret = SECRET, alg = 'HS256' }: { secret?: string; alg?: string } = {}): string {
  const body = `${b64({ alg, typ: 'JWT' })}.${b64(claims)}`;
  const signature = alg === 'none' ? '' : createHmac('sha256', secret).update(body).digest('base64url');
  return `${body}.${signature}`;
}

jest.setTimeout(60_000);

const decode = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
const refreshCookie = (res: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('parley_rt='));

describe('auth: register, login, me, logout', () => {
  let t: TestApp;
  let db: DataSource;
  const userCount = async (email: string) => db.getRepository(UserEntity).countBy({ email: email.toLowerCase() });

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  describe('POST /api/user (register)', () => {
    it('creates the user and logs in at once, with the refresh cookie', async () => {
      const email = uniqueEmail('Reg').replace('reg', 'ReG');
      const res = await t
        .http()
        .post('/api/user')
        .send({ email, password: 'long enough, really', name: '  Ada ', surname: 'Lovelace', type: 2, country: 'pl', lang: 'pol', timezone: 'europe/warsaw' })
        .expect(201);
      expect(res.body).toEqual({
        token: expect.any(String),
        redirectUrl: '/',
        user: {
          code: expect.any(String),
          name: 'Ada',
          surname: 'Lovelace',
          type: 2,
          avatar: { code: 'initials', url: null },
          country: 'PL',
          lang: 'pol',
          timezone: { name: 'Europe/Warsaw', abbr: expect.stringMatching(/^CES?T$/), offset: expect.any(Number) },
          jobIds: [],
          away: 0,
          email: email.toLowerCase(),
          role: expect.any(Number),
          instanceCode: expect.any(String),
        },
      });
      expect(decode(res.body.token)).toMatchObject({ unique_name: res.body.user.code, nameid: email.toLowerCase(), role: res.body.user.role });
      const cookie = refreshCookie(res)!;
      expect(cookie).toMatch(/^parley_rt=[A-Za-z0-9_-]{43};/);
      expect(cookie).toMatch(/Path=\/api\/user/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).not.toMatch(/Max-Age|Expires/);
      expect(cookie).not.toMatch(/Secure/);

      const me = await t.http().get('/api/me').set('Authorization', `Bearer ${res.body.token}`).expect(200);
      expect(me.body).toEqual(res.body.user);
      const row = await db.getRepository(UserEntity).findOneByOrFail({ code: res.body.user.code });
      expect(row.passwordHash).toMatch(/^\$argon2id\$/);
      expect(JSON.stringify(res.body)).not.toMatch(/argon2|passwordHash|"id"/);
    });

    it('keeps e-mails unique per instance, whatever their case', async () => {
      const email = uniqueEmail();
      await t.http().post('/api/user').send({ email, password: 'long enough, really', name: 'A' }).expect(201);
      const again = await t.http().post('/api/user').send({ email: email.toUpperCase(), password: 'long enough, really', name: 'B' }).expect(409);
      expect(again.body).toEqual({ code: 409, message: 'SHARED.USER.EMAIL_TAKEN' });
      expect(await userCount(email)).toBe(1);

      const host = `reg-${randomBytes(4).toString('hex')}.test`;
      await createInstance(t, { hosts: [host] });
      await t.http().post('/api/user').set('Host', host).send({ email, password: 'long enough, really', name: 'C' }).expect(201);
      expect(await userCount(email)).toBe(2);
    });

    it('makes nobody admin by registering first on a tenant instance, even when they race', async () => {
      const host = `first-${randomBytes(4).toString('hex')}.test`;
      const instance = await createInstance(t, { hosts: [host] });
      const register = () => t.http().post('/api/user').set('Host', host).send({ email: uniqueEmail(), password: 'long enough, really', name: 'X' });
      const racing = await Promise.all([register(), register(), register()]);
      expect(racing.map((r) => r.status)).toEqual([201, 201, 201]);
      expect(racing.map((r) => r.body.user.role)).toEqual([0, 0, 0]);
      expect(racing.every((r) => r.body.user.instanceCode === instance.code)).toBe(true);
      expect(racing.map((r) => decode(r.body.token).role)).toEqual([0, 0, 0]);
    });

    it('refuses bad bodies with 422 and one key per broken rule, creating nothing', async () => {
      const email = uniqueEmail();
      const ok = { email, password: 'long enough, really', name: 'Ok' };
      const cases: [object, string[]][] = [
        [{}, ['VALIDATION.EMAIL.IS_STRING', 'VALIDATION.PASSWORD.IS_STRING', 'VALIDATION.NAME.IS_STRING']],
        [{ ...ok, email: 'not-an-email' }, ['VALIDATION.EMAIL.IS_EMAIL']],
        [{ ...ok, email: 42 }, ['VALIDATION.EMAIL.IS_STRING']],
        [{ ...ok, email: `${'a'.repeat(250)}@x.test` }, ['VALIDATION.EMAIL.MAX_LENGTH']],
        [{ ...ok, password: 'short77' }, ['VALIDATION.PASSWORD.MIN_LENGTH']],
        [{ ...ok, password: 'x'.repeat(129) }, ['VALIDATION.PASSWORD.MAX_LENGTH']],
        [{ ...ok, password: 12345678 }, ['VALIDATION.PASSWORD.IS_STRING']],
        [{ ...ok, name: '   ' }, ['VALIDATION.NAME.MIN_LENGTH']],
        [{ ...ok, name: 'n'.repeat(101) }, ['VALIDATION.NAME.MAX_LENGTH']],
        [{ ...ok, name: null }, ['VALIDATION.NAME.IS_STRING']],
        [{ ...ok, surname: 's'.repeat(101) }, ['VALIDATION.SURNAME.MAX_LENGTH']],
        [{ ...ok, type: 3 }, ['VALIDATION.TYPE.IS_IN']],
        [{ ...ok, type: '1' }, ['VALIDATION.TYPE.IS_INT']],
        [{ ...ok, country: 'XX' }, ['VALIDATION.COUNTRY.IS_ISO31661_ALPHA2']],
        [{ ...ok, country: 'POL' }, ['VALIDATION.COUNTRY.MAX_LENGTH']],
        [{ ...ok, lang: 'en' }, ['VALIDATION.LANG.IS_IN']],
        [{ ...ok, timezone: 'Mars/Olympus' }, ['VALIDATION.TIMEZONE.IS_TIMEZONE']],
        [{ ...ok, timezone: '+01:00' }, ['VALIDATION.TIMEZONE.IS_TIMEZONE']],
        [{ ...ok, role: 100 }, ['VALIDATION.ROLE.UNKNOWN_FIELD']],
      ];
      for (const [body, rules] of cases) {
        const res = await t.http().post('/api/user').send(body);
        expect([res.status, res.body.code, res.body.message]).toEqual([422, 422, 'SHARED.ERROR.VALIDATION']);
        expect(res.body.data.brokenRules).toEqual(expect.arrayContaining(rules));
      }
      const malformed = await t.http().post('/api/user').set('Content-Type', 'application/json').send('{"email":');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ code: 400, message: 'SHARED.ERROR.MALFORMED_JSON' });
      expect(await userCount(email)).toBe(0);
    });
  });

  describe('POST /api/user/login', () => {
    it('answers {token, user, redirectUrl} and a session cookie; the e-mail is case-insensitive', async () => {
      const { user } = await createUser(t, { role: Role.GlobalUser });
      const res = await t.http().post('/api/user/login').send({ email: user.email.toUpperCase(), password: DEFAULT_PASSWORD, rememberMe: false }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['redirectUrl', 'token', 'user']);
      expect(res.body.redirectUrl).toBe('/');
      expect(res.body.user).toMatchObject({ code: user.code, email: user.email, role: Role.GlobalUser, away: 0 });
      const claims = decode(res.body.token);
      expect(claims).toMatchObject({ unique_name: user.code, nameid: user.email, role: Role.GlobalUser });
      expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
      expect(claims.nbf).toBe(claims.iat);
      expect(refreshCookie(res)).not.toMatch(/Max-Age/);
    });

    it('makes the cookie persistent with rememberMe', async () => {
      const { user } = await createUser(t);
      const res = await t.http().post('/api/user/login').send({ email: user.email, password: DEFAULT_PASSWORD, rememberMe: true }).expect(200);
      expect(refreshCookie(res)).toMatch(/Max-Age=2592000/);
    });

    it('honours only a same-origin returnUrl', async () => {
      const { user } = await createUser(t);
      const login = (returnUrl: string) => t.http().post('/api/user/login').send({ email: user.email, password: DEFAULT_PASSWORD, returnUrl });
      expect((await login('/jobs/abc?x=1')).body.redirectUrl).toBe('/jobs/abc?x=1');
      for (const evil of ['//evil.test', 'https://evil.test', '/\\evil.test', 'jobs']) {
        expect((await login(evil)).body.redirectUrl).toBe('/');
      }
    });

    it('answers a wrong password and an unknown e-mail alike, in body and roughly in time', async () => {
      // Registered through the API, so the stored hash has the service's argon2 parameters, like the dummy's.
      const email = uniqueEmail();
      await t.http().post('/api/user').send({ email, password: 'long enough, really', name: 'Timing' }).expect(201);
      const user = { email };
      const attempt = async (email: string, password: string) => {
        const started = process.hrtime.bigint();
        const res = await t.http().post('/api/user/login').send({ email, password, rememberMe: false });
        return { res, ms: Number(process.hrtime.bigint() - started) / 1e6 };
      };
      const wrong = [];
      const unknown = [];
      for (let i = 0; i < 3; i++) {
        wrong.push(await attempt(user.email, 'wrong password'));
        unknown.push(await attempt(uniqueEmail('nobody'), 'wrong password'));
      }
      for (const { res } of [...wrong, ...unknown]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 401, message: 'SHARED.USER.INVALID_CREDENTIALS' });
        expect(refreshCookie(res)).toBeUndefined();
      }
      const median = (xs: { ms: number }[]) => xs.map((x) => x.ms).sort((a, b) => a - b)[1];
      // Without the dummy hash an unknown e-mail answers in ~2 ms against ~50 ms for a real verification.
      expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.4);
    });

    it('logs in only in the instance the user belongs to', async () => {
      const host = `login-${randomBytes(4).toString('hex')}.test`;
      const instance = await createInstance(t, { hosts: [host] });
      const { user } = await createUser(t, { instanceId: instance.id });
      await t.http().post('/api/user/login').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(401);
      const res = await t.http().post('/api/user/login').set('Host', host).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(200);
      expect(res.body.user.instanceCode).toBe(instance.code);
    });

    it('refuses bad bodies with 422', async () => {
      const ok = { email: uniqueEmail(), password: 'whatever', rememberMe: true };
      const cases: [object, string][] = [
        [{ ...ok, email: undefined }, 'VALIDATION.EMAIL.IS_STRING'],
        [{ ...ok, password: undefined }, 'VALIDATION.PASSWORD.IS_STRING'],
        [{ ...ok, password: '' }, 'VALIDATION.PASSWORD.IS_NOT_EMPTY'],
        [{ ...ok, password: 'x'.repeat(129) }, 'VALIDATION.PASSWORD.MAX_LENGTH'],
        [{ ...ok, email: `${'a'.repeat(250)}@x.test` }, 'VALIDATION.EMAIL.MAX_LENGTH'],
        [{ ...ok, rememberMe: 'yes' }, 'VALIDATION.REMEMBER_ME.IS_BOOLEAN'],
        [{ ...ok, rememberMe: null }, 'VALIDATION.REMEMBER_ME.IS_BOOLEAN'],
        [{ ...ok, returnUrl: 5 }, 'VALIDATION.RETURN_URL.IS_STRING'],
        [{ ...ok, returnUrl: `/${'x'.repeat(2048)}` }, 'VALIDATION.RETURN_URL.MAX_LENGTH'],
        [{ ...ok, admin: true }, 'VALIDATION.ADMIN.UNKNOWN_FIELD'],
      ];
      for (const [body, rule] of cases) {
        const res = await t.http().post('/api/user/login').send(body);
        expect(res.status).toBe(422);
        expect(res.body.data.brokenRules).toContain(rule);
      }
      const array = await t.http().post('/api/user/login').send([ok]);
      expect(array.status).toBe(422);
      const malformed = await t.http().post('/api/user/login').set('Content-Type', 'application/json').send('{"email": "a@b.c",}');
      expect(malformed.body).toEqual({ code: 400, message: 'SHARED.ERROR.MALFORMED_JSON' });
    });
  });

  describe('access tokens (on GET /api/me)', () => {
    const me = (token?: string) => {
      const req = t.http().get('/api/me');
      return token === undefined ? req : req.set('Authorization', `Bearer ${token}`);
    };

    it('answers the full profile of the caller', async () => {
      const { user, token } = await createUser(t, { role: Role.InstanceAdmin, country: 'DE', timezone: 'America/New_York' });
      const res = await me(token).expect(200);
      expect(res.body).toMatchObject({
        code: user.code,
        email: user.email,
        role: 50,
        country: 'DE',
        timezone: { name: 'America/New_York', abbr: expect.stringMatching(/^E[SD]T$/), offset: expect.any(Number) },
      });
      expect(res.body.instanceCode).toEqual(expect.any(String));
      expect(res.body).not.toHaveProperty('id');
      expect(res.body).not.toHaveProperty('passwordHash');
    });

    it('refuses missing, malformed, forged, unsigned, expired and not-yet-valid tokens', async () => {
      const { user } = await createUser(t);
      const now = Math.floor(Date.now() / 1000);
      const claims = { unique_name: user.code, nameid: user.email, role: 100, iat: now, nbf: now, exp: now + 600 };
      const cases: [string | undefined, string][] = [
        [undefined, 'SHARED.ERROR.UNAUTHORIZED'],
        ['garbage', 'SHARED.ERROR.UNAUTHORIZED'],
        [jwt(claims, { secret: 'another-secret-another-secret-another-secret' }), 'SHARED.ERROR.UNAUTHORIZED'],
        [jwt(claims, { alg: 'none' }), 'SHARED.ERROR.UNAUTHORIZED'],
        [jwt(claims, { alg: 'HS512' }), 'SHARED.ERROR.UNAUTHORIZED'],
        [jwt({ ...claims, iat: now - 1000, nbf: now - 1000, exp: now - 100 }), 'SHARED.USER.SESSION_EXPIRED'],
        [jwt({ ...claims, nbf: now + 600, exp: now + 1200 }), 'SHARED.ERROR.UNAUTHORIZED'],
        [jwt({ ...claims, unique_name: 42 }), 'SHARED.ERROR.UNAUTHORIZED'],
      ];
      for (const [token, key] of cases) {
        const res = await me(token);
        expect([res.status, res.body]).toEqual([401, { code: 401, message: key }]);
      }
      const basic = await t
        .http()
        .get('/api/me')
        .set('Authorization', `Basic ${jwt(claims)}`);
      expect(basic.status).toBe(401);
      // The same claims, properly signed, work: the refusals above are about the signature and times.
      expect((await me(jwt(claims))).status).toBe(200);
    });

    it("takes the role from the database, not from a token's claim", async () => {
      const { user } = await createUser(t);
      const now = Math.floor(Date.now() / 1000);
      const res = await me(jwt({ unique_name: user.code, nameid: user.email, role: 100, iat: now, nbf: now, exp: now + 60 })).expect(200);
      expect(res.body.role).toBe(0);
    });

    it('stops accepting the token of a deleted user', async () => {
      const { user, token } = await createUser(t);
      await me(token).expect(200);
      await db.getRepository(UserEntity).delete({ id: user.id });
      const res = await me(token);
      expect([res.status, res.body]).toEqual([401, { code: 401, message: 'SHARED.ERROR.UNAUTHORIZED' }]);
    });
  });

  describe('POST /api/user/logout', () => {
    it('revokes the refresh family and clears the cookie', async () => {
      const { user } = await createUser(t);
      const login = await t.http().post('/api/user/login').send({ email: user.email, password: DEFAULT_PASSWORD }).expect(200);
      const cookie = refreshCookie(login)!.split(';')[0];
      const out = await t.http().post('/api/user/logout').set('Cookie', cookie).expect(204);
      expect(refreshCookie(out)).toMatch(/^parley_rt=;.*Expires=Thu, 01 Jan 1970/);
      const refresh = await t.http().post('/api/user/refresh-token').set('Cookie', cookie);
      expect([refresh.status, refresh.body]).toEqual([401, { code: 401, message: 'SHARED.USER.SESSION_EXPIRED' }]);
    });

    it('is harmless without a cookie or with a foreign one', async () => {
      await t.http().post('/api/user/logout').expect(204);
      await t
        .http()
        .post('/api/user/logout')
        .set('Cookie', `parley_rt=${'A'.repeat(43)}`)
        .expect(204);
      await t.http().post('/api/user/logout').set('Cookie', 'parley_rt=junk').expect(204);
    });
  });
});
