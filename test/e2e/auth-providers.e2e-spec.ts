import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { LinkedIdentityEntity } from '../../server/src/modules/auth/oidc/linked-identity.entity';
import { UserEntity } from '../../server/src/modules/users/user.entity';
import { RedisService } from '#shared/redis/redis.service';
import { createInstance, createUser, DEFAULT_PASSWORD } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';
import { IDP_CLIENT, isActiveAtProvider, signInAtProvider, startTestIdentityProvider, TestIdentityProvider } from '../utils/identity-provider';

jest.setTimeout(60_000);

// Sign-in with a real OpenID provider (oidc-provider in a process of its own), through the public API.
const hostA = `oidc-a-${randomBytes(3).toString('hex')}.test`;
const hostB = `oidc-b-${randomBytes(3).toString('hex')}.test`;
const callbacks = [hostA, hostB].flatMap((host) => ['idp', 'corp'].map((name) => `http://${host}/auth/callback/${name}`));

describe('sign-in with an OpenID provider', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    idp = await startTestIdentityProvider(callbacks);
    const providers = [
      { name: 'idp', label: 'Test IdP', issuer: idp.issuer('good'), ...IDP_CLIENT },
      { name: 'corp', label: 'Corp SSO', issuer: idp.issuer('good'), ...IDP_CLIENT, emailDomains: ['example.com'] },
      { name: 'off', label: 'Off', issuer: idp.issuer('good'), ...IDP_CLIENT, enabled: false },
    ];
    t = await createTestApp({ AUTH_PROVIDERS: JSON.stringify(providers) });
    db = t.app.get(DataSource);
    await createInstance(t, { hosts: [hostA] });
    await createInstance(t, { hosts: [hostB] });
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  const agent = () => request.agent(t.app.getHttpServer());
  type Agent = ReturnType<typeof agent>;
  const loginUrl = async (a: Agent, host: string, provider: string, after?: string) =>
    (
      await a
        .get(`/api/User/AuthProviders/${provider}/LoginUrl`)
        .query(after ? { state: after } : {})
        .set('Host', host)
        .expect(200)
    ).body.url as string;
  const signIn = async (a: Agent, host: string, provider: string, login: string, after?: string) => {
    const callback = await signInAtProvider(await loginUrl(a, host, provider, after), login);
    return a.post(`/api/User/AuthProviders/${provider}/Login`).set('Host', host).send(callback);
  };
  const usersWithEmail = (email: string) => db.getRepository(UserEntity).findBy({ email });

  it('lists only the enabled providers', async () => {
    expect((await t.http().get('/api/User/AuthProviders').set('Host', hostA).expect(200)).body).toEqual([
      { name: 'idp', label: 'Test IdP' },
      { name: 'corp', label: 'Corp SSO' },
    ]);
  });

  it('builds an authorisation URL with PKCE, state and nonce, and keeps the after address out of it', async () => {
    const url = new URL(await loginUrl(agent(), hostA, 'idp', '/jobs/42'));
    expect(url.origin + url.pathname).toBe(`${idp.issuer('good')}/auth`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      client_id: 'parley',
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      redirect_uri: `http://${hostA}/auth/callback/idp`,
    });
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.nonce).toBeTruthy();
    expect(url.href).not.toContain('jobs');
  });

  it('creates the user on first sign-in, lands on the after address, and signs the same user in again by subject', async () => {
    const a = agent();
    const res = await signIn(a, hostA, 'idp', 'alice', '/jobs/42');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ redirectUrl: '/jobs/42', user: { email: 'alice@example.com', name: 'Alice', surname: 'Anders' } });
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.headers['set-cookie']!.toString()).toContain('parley_rt=');
    const [user] = await usersWithEmail('alice@example.com');
    expect(await db.getRepository(LinkedIdentityEntity).findBy({ userId: user!.id })).toMatchObject([{ provider: 'idp', subject: 'alice' }]);

    const me = await a.get('/api/me').set('Host', hostA).set('Authorization', `Bearer ${res.body.token}`).expect(200);
    expect(me.body.email).toBe('alice@example.com');
    expect((await a.get('/api/User/AuthProviders/Linked').set('Host', hostA).set('Authorization', `Bearer ${res.body.token}`).expect(200)).body).toEqual([
      { name: 'idp', label: 'Test IdP', email: 'alice@example.com', linkedAt: expect.any(String) },
    ]);

    // A changed e-mail at the provider does not matter: the subject finds the user.
    const again = await signIn(agent(), hostA, 'idp', 'alice');
    expect(again.status).toBe(200);
    expect(again.body.user.code).toBe(res.body.user.code);
    expect(again.body.redirectUrl).toBe('/');
    expect(await usersWithEmail('alice@example.com')).toHaveLength(1);
  });

  it('revokes the access token at the provider on logout', async () => {
    const redis = t.app.get(RedisService);
    const sessionKeys = () => redis.client.keys(redis.key('oidc:session', '*'));
    const before = new Set(await sessionKeys());
    const a = agent();
    expect((await signIn(a, hostA, 'idp', 'alice')).status).toBe(200);
    // The access token the app got, read from where the app keeps it for sign-out.
    const [key] = (await sessionKeys()).filter((k) => !before.has(k));
    const { accessToken } = JSON.parse((await redis.client.get(key!))!) as { accessToken: string };
    expect(await isActiveAtProvider(idp.issuer('good'), accessToken)).toBe(true);
    await a.post('/api/user/logout').set('Host', hostA).expect(204);
    expect(await isActiveAtProvider(idp.issuer('good'), accessToken)).toBe(false);
  });

  it('links to an existing password account only after its password is given', async () => {
    const existing = await createUser(t, { email: 'alice@example.com', instanceId: (await instanceOf(hostB)).id });
    const a = agent();
    const refused = await signIn(a, hostB, 'idp', 'alice');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: 409,
      message: 'SHARED.AUTH_PROVIDER.LINK_NEEDS_PASSWORD',
      data: { linkToken: expect.any(String), email: 'alice@example.com' },
    });
    expect(refused.headers['set-cookie']?.toString() ?? '').not.toContain('parley_rt=');
    expect(await db.getRepository(LinkedIdentityEntity).countBy({ userId: existing.user.id })).toBe(0);

    // A wrong password links nothing; the token still works for the right one.
    await a
      .post('/api/user/login')
      .set('Host', hostB)
      .send({ email: 'alice@example.com', password: 'wrong password', linkToken: refused.body.data.linkToken })
      .expect(401);
    expect(await db.getRepository(LinkedIdentityEntity).countBy({ userId: existing.user.id })).toBe(0);
    await a
      .post('/api/user/login')
      .set('Host', hostB)
      .send({ email: 'alice@example.com', password: DEFAULT_PASSWORD, linkToken: refused.body.data.linkToken })
      .expect(200);
    expect(await db.getRepository(LinkedIdentityEntity).findBy({ userId: existing.user.id })).toMatchObject([{ provider: 'idp', subject: 'alice' }]);

    const signedIn = await signIn(agent(), hostB, 'idp', 'alice');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.code).toBe(existing.user.code);
    // The token was used once; a replay links nothing.
    await a
      .post('/api/user/login')
      .set('Host', hostB)
      .send({ email: 'alice@example.com', password: DEFAULT_PASSWORD, linkToken: refused.body.data.linkToken })
      .expect(400);
  });

  it('removes a linked provider while another way in remains, never the last one', async () => {
    const bob = await signIn(agent(), hostB, 'idp', 'bob');
    expect(bob.status).toBe(200);
    const auth = { Authorization: `Bearer ${bob.body.token}` };
    expect((await t.http().delete('/api/User/AuthProviders/Linked/idp').set('Host', hostB).set(auth).expect(409)).body).toEqual({
      code: 409,
      message: 'SHARED.AUTH_PROVIDER.LAST_SIGN_IN_METHOD',
    });
    await t.http().delete('/api/User/AuthProviders/Linked/corp').set('Host', hostB).set(auth).expect(404);
    const aliceB = await signIn(agent(), hostB, 'idp', 'alice');
    await t
      .http()
      .delete('/api/User/AuthProviders/Linked/idp')
      .set('Host', hostB)
      .set({ Authorization: `Bearer ${aliceB.body.token}` })
      .expect(204);
    expect(
      (
        await t
          .http()
          .get('/api/User/AuthProviders/Linked')
          .set('Host', hostB)
          .set({ Authorization: `Bearer ${aliceB.body.token}` })
          .expect(200)
      ).body,
    ).toEqual([]);
  });

  const instanceOf = async (host: string) => (await db.query(`SELECT id FROM instance WHERE $1 = ANY(hosts)`, [host]))[0] as { id: string };
});
