// One Redis keyspace per Parley: the key prefix defaults to one derived from the database, and a prefix is
// claimed for one database, so two checkouts (or a test instance beside a dev one) on one Redis never share
// BullMQ queues, fan-out streams, presence, rate limits or the worker heartbeat.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { LaunchError } from './common.mts';

const require = createRequire(import.meta.url);

/** What names the database this launch uses: the embedded cluster's folder, or DATABASE_URL's host, port and name. */
export function databaseIdentity({ databaseUrl, embeddedDir }: { databaseUrl?: string; embeddedDir?: string }): string {
  if (embeddedDir) {
    const dir = fs.existsSync(embeddedDir) ? fs.realpathSync(embeddedDir) : embeddedDir;
    return `embedded postgres in ${dir}`;
  }
  const u = new URL(databaseUrl!);
  return `postgres at ${u.hostname.toLowerCase()}:${u.port || 5432}${u.pathname}`;
}

/** parley:<10 hex of the identity's SHA-256>: — stable for a database, different for another one. */
export function derivedPrefix(identity: string): string {
  return `parley:${createHash('sha256').update(identity).digest('hex').slice(0, 10)}:`;
}

/** The Redis URL without its password, for messages. */
export function safeRedisUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

export const ownerKey = (prefix: string): string => `${prefix}owner`;

/**
 * Claims the prefix for this database (SET NX), or refuses when another database already holds it, with what to do.
 * Answers whether the claim is new.
 */
export async function claimPrefix(redisUrl: string, prefix: string, identity: string): Promise<boolean> {
  const { createClient } = require('redis') as typeof import('redis');
  const client = createClient({ url: redisUrl, socket: { connectTimeout: 5000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const fresh = (await client.set(ownerKey(prefix), identity, { NX: true })) === 'OK';
    if (fresh) return true;
    const owner = await client.get(ownerKey(prefix));
    if (owner === identity) return false;
    throw new LaunchError(
      `the Redis key prefix "${prefix}" on ${safeRedisUrl(redisUrl)} belongs to another Parley (${owner});\n` +
        `  this one uses ${identity}. Two Parleys on one prefix take each other's jobs, fan-out, presence and rate limits.\n` +
        '  Give this one its own prefix:   REDIS_PREFIX=parley-2: npm start\n' +
        '  or unset REDIS_PREFIX:          each database then gets its own prefix, derived from it\n' +
        `  or, if that other one is gone:  redis-cli -u ${safeRedisUrl(redisUrl)} DEL ${ownerKey(prefix)}`,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}
