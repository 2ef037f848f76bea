import type { AppConfig } from '#shared/config/config.schema';
import { RedisService } from '#shared/redis/redis.service';
import { readTestRun } from '../utils/test-env';
import { FanoutLag } from '../../server/src/fanout/fanout-lag';

/** The fan-out reader's lag from stream ids, on Redis' clock, with this node's clock given by the test. */
describe('FanoutLag', () => {
  let redis: RedisService;
  const redisNowMs = async () => {
    const [seconds, micros] = (await redis.client.time()) as unknown as [string, string];
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  };

  beforeAll(async () => {
    const run = readTestRun();
    redis = new RedisService({ REDIS_URL: run.REDIS_URL, REDIS_PREFIX: run.REDIS_PREFIX } as AppConfig);
    await redis.connect();
  });
  afterAll(() => redis.onApplicationShutdown());

  /** A started FanoutLag whose node clock reads `nodeNowMs`, handed to `use` and stopped after it. */
  const withLag = async (nodeNowMs: number, use: (lag: FanoutLag) => void) => {
    const lag = new FanoutLag(redis, () => nodeNowMs);
    await lag.onModuleInit();
    try {
      use(lag);
    } finally {
      lag.onModuleDestroy();
    }
  };

  // The node's clock stands still in these tests, so the offset is exact: Redis' clock when it answered TIME.
  it("measures an entry's age on Redis' clock even when this node's clock is minutes off", async () => {
    const before = await redisNowMs();
    // This node's clock is 5 minutes behind Redis'.
    await withLag(before - 300_000, (lag) => {
      lag.observe(`${before - 300}-0`);
      lag.observe(`${before - 100}-3`);
      const age = lag.take();
      // The older entry's age: 300 ms, plus however long Redis' clock moved between the two TIME calls.
      expect(age).toBeGreaterThanOrEqual(300);
      expect(age).toBeLessThan(300 + 1000);
    });
  });

  it("counts a delivery by the node's own gate call with the entries read from its inbox: the worst of them", async () => {
    const before = await redisNowMs();
    await withLag(before, (lag) => {
      lag.observe(`${before - 40}-0`);
      lag.observeDelivered(700);
      lag.observeDelivered(20);
      expect(lag.take()).toBe(700);
      expect(lag.take()).toBe(0);
    });
  });

  it('answers 0 when nothing was read since the last take (an idle reader is caught up)', async () => {
    const before = await redisNowMs();
    await withLag(before, (lag) => {
      lag.observe(`${before - 5000}-0`);
      expect(lag.take()).toBeGreaterThanOrEqual(5000);
      expect(lag.take()).toBe(0);
    });
  });
});
