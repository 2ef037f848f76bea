import { Client } from 'pg';
import { createClient } from 'redis';
import { readTestRun } from './test-env';

/** Drops this run's database and deletes every Redis key under its prefix. */
export default async function globalTeardown(): Promise<void> {
  const run = readTestRun();
  const admin = new Client({ connectionString: run.adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${run.database}" WITH (FORCE)`);
  await admin.end();

  const redis = createClient({ url: run.REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${run.REDIS_PREFIX}*`, COUNT: 500 })) {
    if (keys.length) await redis.del(keys);
  }
  await redis.close();
}
