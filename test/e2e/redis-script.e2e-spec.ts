import { randomBytes } from 'node:crypto';
import { readTestRun } from '../utils/test-env';
import type { AppConfig } from '#shared/config/config.schema';
import { RedisScript } from '#shared/redis/redis-script';
import { RedisService } from '#shared/redis/redis.service';

describe('RedisScript', () => {
  let redis: RedisService;

  beforeAll(async () => {
    const run = readTestRun();
    redis = new RedisService({ REDIS_URL: run.REDIS_URL, REDIS_PREFIX: `${run.REDIS_PREFIX}script-spec:${randomBytes(4).toString('hex')}:` } as AppConfig);
    await redis.connect();
  });

  afterAll(async () => {
    await redis.client.del(redis.key('n'));
    await redis.onApplicationShutdown();
  });

  it('runs a script Redis does not know yet, and again after its script cache was emptied', async () => {
    // A script text of its own, so no other test has loaded it.
    const script = new RedisScript(`-- ${randomBytes(8).toString('hex')}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
    const key = redis.key('n');
    expect(await script.run(redis.client, { keys: [key], arguments: ['2'] })).toBe(2);
    expect(await script.run(redis.client, { keys: [key], arguments: ['3'] })).toBe(5);
    await redis.client.scriptFlush();
    expect(await script.run(redis.client, { keys: [key], arguments: ['1'] })).toBe(6);
  });

  it('passes on errors other than an unknown script', async () => {
    const script = new RedisScript(`return redis.error_reply('NOPE broken')`);
    await expect(script.run(redis.client, {})).rejects.toThrow('NOPE broken');
  });
});
