import type { RedisOptions } from 'ioredis';

/** ioredis options for BullMQ from a redis:// or rediss:// URL (BullMQ workers need maxRetriesPerRequest null). */
export function bullConnection(url: string): RedisOptions {
  const u = new URL(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: Number.isInteger(db) ? db : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

/** BullMQ's key prefix under the deployment's REDIS_PREFIX, so queues of two deployments or test runs never meet. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}bull`;
}
