import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UserEntity } from '../../server/src/modules/users/user.entity';
import { createUser, DEFAULT_PASSWORD, uniqueEmail } from '../factories';
import { createTestApp, TestApp } from '../utils/create-app';

jest.setTimeout(60_000);

// Each test uses addresses of its own: the counters live in Redis, shared with every app of this run.
const randomIp = () => `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
const TOO_MANY = { code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: expect.any(Number) } };

describe('rate limits on login and register', () => {
  let t: TestApp;
  const login = (ip: string, email: string, password = 'wrong password') =>
    t.http().post('/api/user/login').set('X-Forwarded-For', ip).send({ email, password });
  const register = (ip: string, email: string) =>
    t.http().post('/api/user').set('X-Forwarded-For', ip).send({ email, password: DEFAULT_PASSWORD, name: 'Flood' });

  beforeAll(async () => {
    t = await createTestApp({ AUTH_RATE_LIMIT_EMAIL: '3', AUTH_RATE_LIMIT_IP: '5', AUTH_RATE_LIMIT_WINDOW: '120', TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  it('limits attempts per e-mail whatever the IP, with Retry-After, even for the right password', async () => {
    const email = uniqueEmail('flood');
    await register(randomIp(), email).expect(201);
    for (let i = 0; i < 3; i++) await login(randomIp(), email).expect(401);
    const blocked = await login(randomIp(), email.toUpperCase(), DEFAULT_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(TOO_MANY);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(100);
    expect(retryAfter).toBeLessThanOrEqual(120);
    expect(blocked.body.data.retryAfter).toBe(retryAfter);
    expect(blocked.headers['set-cookie']).toBeUndefined();
    // Another e-mail from the same address is not affected.
    const other = uniqueEmail('flood');
    await register(randomIp(), other).expect(201);
    await login(randomIp(), other, DEFAULT_PASSWORD).expect(200);
  });

  it('limits attempts per client IP across e-mails; other IPs go on', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) await login(ip, uniqueEmail('ip')).expect(401);
    const blocked = await login(ip, uniqueEmail('ip'));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    await login(randomIp(), uniqueEmail('ip')).expect(401);
  });

  it('limits registrations per IP, and a refused registration creates nothing', async () => {
    const ip = randomIp();
    for (let i = 0; i < 5; i++) await register(ip, uniqueEmail('reg-flood')).expect(201);
    const email = uniqueEmail('reg-flood');
    const blocked = await register(ip, email);
    expect([blocked.status, blocked.body]).toEqual([429, TOO_MANY]);
    expect(await t.app.get(DataSource).getRepository(UserEntity).countBy({ email })).toBe(0);
    // Registration and login count separately.
    await login(ip, email).expect(401);
  });

  it('does not count successful logins against the IP: an office behind one NAT address is never locked out', async () => {
    const office = randomIp();
    const staff = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    for (let round = 0; round < 3; round++) {
      for (const u of staff) await login(office, u.user.email, DEFAULT_PASSWORD).expect(200);
    }
    // Failures from that address still count: 5 allowed, then 429.
    for (let i = 0; i < 5; i++) await login(office, uniqueEmail('typo')).expect(401);
    expect((await login(office, uniqueEmail('typo'))).status).toBe(429);
  });

  it('an attacker flooding an account from elsewhere does not lock its owner out of a known address', async () => {
    const owner = await createUser(t);
    const home = randomIp();
    await login(home, owner.user.email, DEFAULT_PASSWORD).expect(200);
    // Ten wrong passwords from rotating addresses (the probe's lock-out): the account's counter is full.
    const attempts = await Promise.all(Array.from({ length: 10 }, () => login(randomIp(), owner.user.email)));
    expect(attempts.filter((r) => r.status === 401)).toHaveLength(3);
    expect((await login(randomIp(), owner.user.email, DEFAULT_PASSWORD)).status).toBe(429);
    // The owner, from the address they logged in from before, still gets in (and again after a typo).
    await login(home, owner.user.email, DEFAULT_PASSWORD).expect(200);
    await login(home, owner.user.email).expect(401);
    await login(home, owner.user.email, DEFAULT_PASSWORD).expect(200);
    // Guessing from the known address is still limited, by that address's own counter.
    for (let i = 0; i < 3; i++) await login(home, owner.user.email).expect(401);
    expect((await login(home, owner.user.email, DEFAULT_PASSWORD)).status).toBe(429);
  });

  it('a registration makes its address known to the new account', async () => {
    const email = uniqueEmail('known');
    const ip = randomIp();
    await register(ip, email).expect(201);
    for (let i = 0; i < 3; i++) await login(randomIp(), email).expect(401);
    await login(ip, email, DEFAULT_PASSWORD).expect(200);
  });

  it('believes only the last X-Forwarded-For hop (TRUST_PROXY=1): a client cannot rotate its address', async () => {
    const real = randomIp();
    for (let i = 0; i < 5; i++) {
      await t
        .http()
        .post('/api/user/login')
        .set('X-Forwarded-For', `${randomIp()}, ${real}`)
        .send({ email: uniqueEmail('xff'), password: 'x' })
        .expect(401);
    }
    const blocked = await t
      .http()
      .post('/api/user/login')
      .set('X-Forwarded-For', `${randomIp()}, ${real}`)
      .send({ email: uniqueEmail('xff'), password: 'x' });
    expect(blocked.status).toBe(429);
  });

  it('counts many parallel attempts exactly', async () => {
    const email = uniqueEmail('burst');
    const results = await Promise.all(Array.from({ length: 8 }, () => login(randomIp(), email)));
    expect(results.map((r) => r.status).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });
});
