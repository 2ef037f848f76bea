import { randomBytes } from 'node:crypto';
import { readTestRun } from '../utils/test-env';
import { AppConfig } from '#shared/config/config.schema';
import { RedisService } from '#shared/redis/redis.service';
import { AppError } from '../../server/src/common/errors';
import { RateLimitRule, RateLimitService } from '../../server/src/common/rate-limit/rate-limit.service';
import { waitFor } from '../utils/wait';

describe('RateLimitService (real Redis)', () => {
  let redis: RedisService;
  let limiter: RateLimitService;
  const rule = (limit: number, windowSeconds = 60, name = 'spec'): RateLimitRule => ({ name, id: randomBytes(6).toString('hex'), limit, windowSeconds });

  beforeAll(async () => {
    const run = readTestRun();
    redis = new RedisService({ REDIS_URL: run.REDIS_URL, REDIS_PREFIX: run.REDIS_PREFIX } as AppConfig);
    await redis.connect();
    limiter = new RateLimitService(redis);
  });
  afterAll(() => redis.onApplicationShutdown());

  it('allows up to the limit, then refuses with the seconds left in the window', async () => {
    const r = rule(3, 60);
    for (let i = 0; i < 3; i++) expect(await limiter.hit([r])).toEqual({ allowed: true, retryAfter: 0 });
    const refused = await limiter.hit([r]);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeGreaterThan(58);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    const key = redis.key('ratelimit', r.name, r.id);
    expect(await redis.client.get(key)).toBe('4');
    expect(await redis.client.pTTL(key)).toBeGreaterThan(58_000);
  });

  it('opens a new window when the old one ends', async () => {
    const r = rule(1, 1);
    expect((await limiter.hit([r])).allowed).toBe(true);
    expect((await limiter.hit([r])).allowed).toBe(false);
    const key = redis.key('ratelimit', r.name, r.id);
    await waitFor(async () => (await redis.client.exists(key)) === 0, { message: 'the window to end' });
    expect((await limiter.hit([r])).allowed).toBe(true);
  });

  it('checks several rules in one call and answers the longest wait of those exceeded', async () => {
    const short = rule(1, 10);
    const long = rule(1, 100);
    const roomy = rule(100, 1000);
    await limiter.hit([short, long, roomy]);
    const result = await limiter.hit([short, long, roomy]);
    expect(result.allowed).toBe(false);
    expect(result.retryAfter).toBeGreaterThan(90);
    expect(result.retryAfter).toBeLessThanOrEqual(100);
    expect((await limiter.hit([rule(1)])).allowed).toBe(true);
    expect(await limiter.hit([])).toEqual({ allowed: true, retryAfter: 0 });
  });

  it('counts a hit by its cost', async () => {
    const r = rule(10, 60);
    expect((await limiter.hit([{ ...r, cost: 4 }])).allowed).toBe(true);
    expect((await limiter.hit([{ ...r, cost: 6 }])).allowed).toBe(true);
    expect(await redis.client.get(redis.key('ratelimit', r.name, r.id))).toBe('10');
    expect((await limiter.hit([r])).allowed).toBe(false);
  });

  it('repairs a counter that lost its expiry', async () => {
    const r = rule(5, 30);
    await redis.client.set(redis.key('ratelimit', r.name, r.id), '2');
    await limiter.hit([r]);
    expect(await redis.client.pTTL(redis.key('ratelimit', r.name, r.id))).toBeGreaterThan(29_000);
  });

  it('consume() throws 429 with Retry-After', async () => {
    const r = rule(1, 60);
    await limiter.consume([r]);
    const err = await limiter.consume([r]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).getStatus()).toBe(429);
    expect(Number((err as AppError).headers['Retry-After'])).toBeGreaterThan(0);
  });
});
