import './shared-alias';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../server/src/database/data-source';
import { RUN_VAR, TestRun } from './test-env';

/** Creates this run's own database (migrated) and Redis prefix, so runs never share state. */
export default async function globalSetup(): Promise<void> {
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

  process.env[RUN_VAR] = JSON.stringify(run);
}
