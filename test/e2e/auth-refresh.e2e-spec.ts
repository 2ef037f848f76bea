import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RefreshTokenEntity } from '../../server/src/modules/auth/refresh-token.entity';
import { UserEntity } from '../../server/src/modules/users/user.entity';
import { uniqueEmail } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

jest.setTimeout(60_000);

type Res = { status: number; body: { token?: string; user?: { code: string } }; headers: Record<string, unknown> };
const setCookie = (res: Res) => ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('parley_rt='));
/** The `parley_rt=<token>` pair a browser would send back. */
const cookieOf = (res: Res) => setCookie(res)!.split(';')[0];
const tokenOf = (cookie: string) => cookie.slice('parley_rt='.length);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const EXPIRED = { code: 401, message: 'SHARED.USER.SESSION_EXPIRED' };

describe('POST /api/user/refresh-token', () => {
  let t: TestApp;
  let db: DataSource;
  const rows = () => db.getRepository(RefreshTokenEntity);
  const refresh = (cookie?: string) => {
    const req = t.http().post('/api/user/refresh-token');
    return (cookie ? req.set('Cookie', cookie) : req) as unknown as Promise<Res>;
  };
  /** A fresh user logged in through the API; answers its first refresh cookie. */
  const login = async (rememberMe = false) => {
    const email = uniqueEmail('rt');
    const reg = await t.http().post('/api/user').send({ email, password: 'long enough, really', name: 'Refresh' }).expect(201);
    if (!rememberMe) return { cookie: cookieOf(reg), code: reg.body.user.code as string };
    const res = await t.http().post('/api/user/login').send({ email, password: 'long enough, really', rememberMe }).expect(200);
    return { cookie: cookieOf(res), code: res.body.user.code as string };
  };
  const expectCleared = (res: Res) => expect(setCookie(res)).toMatch(/^parley_rt=;.*Path=\/api\/user.*Expires=Thu, 01 Jan 1970/);

  beforeAll(async () => {
    t = await createTestApp();
    db = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('rotates the cookie and answers like login; only hashes are stored', async () => {
    const { cookie, code } = await login();
    const res = await refresh(cookie);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['redirectUrl', 'token', 'user']);
    expect(res.body.user).toMatchObject({ code, email: expect.any(String), role: expect.any(Number) });
    const next = cookieOf(res);
    expect(next).not.toBe(cookie);
    expect(setCookie(res)).toMatch(/HttpOnly/);
    expect(setCookie(res)).not.toMatch(/Max-Age/);

    const [used, fresh] = await Promise.all([
      rows().findOneByOrFail({ tokenHash: sha256(tokenOf(cookie)) }),
      rows().findOneByOrFail({ tokenHash: sha256(tokenOf(next)) }),
    ]);
    expect(used.usedAt).not.toBeNull();
    expect(fresh).toMatchObject({ familyId: used.familyId, usedAt: null, revokedAt: null, remember: false });
    expect(await rows().countBy({ tokenHash: tokenOf(next) })).toBe(0);
    const ttl = (fresh.expiresAt.getTime() - Date.now()) / 1000;
    expect(ttl).toBeGreaterThan(24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);

    const again = await refresh(next);
    expect(again.status).toBe(200);
  });

  it('keeps rememberMe through rotations: a persistent cookie and the long lifetime', async () => {
    const { cookie } = await login(true);
    const res = await refresh(cookie);
    expect(res.status).toBe(200);
    expect(setCookie(res)).toMatch(/Max-Age=2592000/);
    const row = await rows().findOneByOrFail({ tokenHash: sha256(tokenOf(cookieOf(res))) });
    expect(row.remember).toBe(true);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan((30 * 24 * 3600 - 60) * 1000);
  });

  it('revokes the whole family when a used cookie comes back, so the newest one stops working too', async () => {
    const { cookie: first } = await login();
    const second = cookieOf(await refresh(first));
    const third = cookieOf(await refresh(second));

    const replay = await refresh(first);
    expect([replay.status, replay.body]).toEqual([401, EXPIRED]);
    expectCleared(replay);
    const family = (await rows().findOneByOrFail({ tokenHash: sha256(tokenOf(first)) })).familyId;
    const members = await rows().findBy({ familyId: family });
    expect(members).toHaveLength(3);
    expect(members.every((m) => m.revokedAt !== null)).toBe(true);

    const newest = await refresh(third);
    expect([newest.status, newest.body]).toEqual([401, EXPIRED]);
  });

  it('lets exactly one of several concurrent refreshes with the same cookie win', async () => {
    const { cookie } = await login();
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => refresh(cookie)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401, 401]);
    const family = (await rows().findOneByOrFail({ tokenHash: sha256(tokenOf(cookie)) })).familyId;
    // One successor only; the loser presented a used token, which revoked the family.
    expect(await rows().countBy({ familyId: family })).toBe(2);
    const winner = results.find((r) => r.status === 200)!;
    expect((await refresh(cookieOf(winner))).status).toBe(401);
  });

  it('refuses a missing, malformed, unknown, expired or revoked cookie and clears it', async () => {
    const missing = await refresh();
    expect([missing.status, missing.body]).toEqual([401, EXPIRED]);
    expectCleared(missing);
    for (const cookie of ['parley_rt=junk', `parley_rt=${'A'.repeat(43)}`, `parley_rt=${'A'.repeat(44)}`]) {
      const res = await refresh(cookie);
      expect([res.status, res.body]).toEqual([401, EXPIRED]);
      expectCleared(res);
    }

    const { cookie: expiring } = await login();
    await rows().update({ tokenHash: sha256(tokenOf(expiring)) }, { expiresAt: new Date(Date.now() - 1000) });
    const expired = await refresh(expiring);
    expect([expired.status, expired.body]).toEqual([401, EXPIRED]);
    expectCleared(expired);

    const { cookie: revoked } = await login();
    await t.http().post('/api/user/logout').set('Cookie', revoked).expect(204);
    expect((await refresh(revoked)).status).toBe(401);
  });

  it('ends the session of a deleted user', async () => {
    const { cookie, code } = await login();
    await db.getRepository(UserEntity).delete({ code });
    const res = await refresh(cookie);
    expect([res.status, res.body]).toEqual([401, EXPIRED]);
  });

  it('ignores a body and an access token: only the cookie counts', async () => {
    const { cookie } = await login();
    const other = await login();
    const res = (await t
      .http()
      .post('/api/user/refresh-token')
      .set('Cookie', cookie)
      .set('Authorization', 'Bearer junk')
      .send({ refreshToken: tokenOf(other.cookie) })) as unknown as Res;
    expect(res.status).toBe(200);
    expect(res.body.user!.code).not.toBe(other.code);
  });
});
