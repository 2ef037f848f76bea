import './shared-alias';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../server/src/database/data-source';
import { RUN_VAR, TestRun } from './test-env';

/** The projects that need services share one run: the first to start makes it. */
export default async function globalSetup(): Promise<void> {
  if (process.env[RUN_VAR]) return;
  process.env[RUN_VAR] = JSON.stringify(await createTestRun());
}

/** A database of its own (migrated) and a Redis prefix of its own, so runs never share state. */
export async function createTestRun(): Promise<TestRun> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const id = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const database = `parley_test_${id}`;

  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();

  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const run: TestRun = { DATABASE_URL: url.toString(), REDIS_URL: redisUrl, REDIS_PREFIX: `parley-test:${id}:`, database, adminUrl };

  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: run.DATABASE_URL, DATABASE_POOL_SIZE: 2 })).initialize();
  await runMigrations(ds);
  await ds.destroy();
  return run;
}
