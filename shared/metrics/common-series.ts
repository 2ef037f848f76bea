import type { Queue } from 'bullmq';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { RedisService } from '../redis/redis.service';

/** The state of pg's Pool a gauge reads. */
interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * A registry for one process: Node's own series (event-loop lag, heap, GC, CPU, handles) and a `service`
 * label, so the server's and the worker's series can be told apart on one dashboard.
 */
export function createRegistry(service: 'server' | 'worker'): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  return registry;
}

/** Connections of each Postgres pool: open, idle, and queries waiting for one (read at scrape time). */
export function registerPoolGauges(registry: Registry, pools: () => Record<string, PgPool | undefined>): void {
  const read = (field: keyof PgPool) =>
    function (this: Gauge<'pool'>) {
      for (const [pool, stats] of Object.entries(pools())) if (stats) this.set({ pool }, stats[field]);
    };
  new Gauge({
    name: 'parley_pg_pool_connections',
    help: 'Postgres connections open in the pool',
    labelNames: ['pool'],
    registers: [registry],
    collect: read('totalCount'),
  });
  new Gauge({
    name: 'parley_pg_pool_idle',
    help: 'Postgres connections idle in the pool',
    labelNames: ['pool'],
    registers: [registry],
    collect: read('idleCount'),
  });
  new Gauge({
    name: 'parley_pg_pool_waiting',
    help: 'queries waiting for a Postgres connection',
    labelNames: ['pool'],
    registers: [registry],
    collect: read('waitingCount'),
  });
}

/** A PING's round trip at scrape time: Redis' responsiveness without timing every command of the send path. */
export function registerRedisPing(registry: Registry, redis: RedisService): void {
  new Gauge({
    name: 'parley_redis_ping_seconds',
    help: 'round trip of a PING to Redis at scrape time (-1: no answer)',
    registers: [registry],
    async collect() {
      const started = process.hrtime.bigint();
      const ok = await redis.ping().catch(() => false);
      this.set(ok ? Number(process.hrtime.bigint() - started) / 1e9 : -1);
    },
  });
}

const JOB_STATES = ['waiting', 'prioritized', 'delayed', 'active', 'failed'] as const;

/** Jobs per queue and state (the same for every process that reports it: take max() across instances). */
export function registerQueueDepths(registry: Registry, queues: Queue[]): void {
  new Gauge({
    name: 'parley_queue_jobs',
    help: 'BullMQ jobs per queue and state',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      await Promise.all(
        queues.map(async (queue) => {
          const counts = await queue.getJobCounts(...JOB_STATES).catch(() => null);
          if (counts) for (const state of JOB_STATES) this.set({ queue: queue.name, state }, counts[state] ?? 0);
        }),
      );
    },
  });
}
