// The throw-away database every benchmark seeds: created on the PostgreSQL at BENCH_DATABASE_URL (the local
// one by default), with the app environment that points at it and a Redis prefix of its own; drop() removes it.
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';

const require = createRequire(import.meta.url);
const { Client } = require('pg') as typeof import('pg');

export async function createBenchDatabase() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `parley_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  return {
    databaseUrl: url.toString(),
    /** What the app under benchmark boots with; callers add their own settings. */
    env: {
      NODE_ENV: 'test',
      DATABASE_URL: url.toString(),
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `parley-bench:${database}:`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
    },
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
