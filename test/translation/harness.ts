import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../server/src/database/data-source';
import { readTestRun, TestRun } from '../utils/test-env';

export interface IsolatedEnv {
  env: Record<string, string>;
  drop: () => Promise<void>;
}

/**
 * Its own migrated database and Redis prefix for one test file that boots a worker: the outbox relay takes every
 * pending row of its database, so such files must not share one.
 */
export async function isolatedEnv(name: string, overrides: Record<string, string> = {}, run: TestRun = readTestRun()): Promise<IsolatedEnv> {
  const database = `${run.database}_${name}_${randomBytes(2).toString('hex')}`.toLowerCase();
  const admin = new Client({ connectionString: run.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const url = new URL(run.adminUrl);
  url.pathname = `/${database}`;
  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: 2 })).initialize();
  await runMigrations(ds);
  await ds.destroy();
  return {
    env: {
      DATABASE_URL: url.toString(),
      REDIS_PREFIX: `${run.REDIS_PREFIX}${name}-${randomBytes(3).toString('hex')}:`,
      OUTBOX_POLL_MS: '50',
      HEARTBEAT_INTERVAL: '3600',
      PUSH_DELAY_MS: '3600000',
      // Not about overload: a machine busy with other work must not refuse these tests' sends.
      OVERLOAD_FANOUT_LAG_MS: '0',
      OVERLOAD_INSERT_WAIT_MS: '0',
      OVERLOAD_LOOP_DELAY_MS: '0',
      ...overrides,
    },
    drop: async () => {
      const c = new Client({ connectionString: run.adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Whether Debian's Apertium with the English–Spanish pair is installed (`.ci/run` installs it). */
export const APERTIUM_MODES = '/usr/share/apertium/modes';
