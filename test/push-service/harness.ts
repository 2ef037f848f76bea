import { Test, TestingModule } from '@nestjs/testing';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import { APP_CONFIG } from '#shared/config/config.module';
import { loadConfig } from '#shared/config/load-config';
import { dataSourceOptions, runMigrations } from '../../server/src/database/data-source';
import { WorkerModule } from '../../workers/src/worker.module';
import { readTestRun, testEnv } from '../utils/test-env';
import { LocalPushService } from './push-service';

export const ROOT = join(__dirname, '..', '..');

export interface PushTestEnv {
  env: Record<string, string>;
  vapidPublicKey: string;
  drop: () => Promise<void>;
}

/**
 * Its own database (migrated) and Redis prefix for one push test file: the outbox relay takes every pending
 * row of its database, so push tests must not share a database with each other or with other workers.
 */
export async function pushTestEnv(name: string, push: LocalPushService, overrides: Record<string, string> = {}): Promise<PushTestEnv> {
  const run = readTestRun();
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
  const keys = webpush.generateVAPIDKeys();
  const env: Record<string, string> = {
    DATABASE_URL: url.toString(),
    REDIS_PREFIX: `${run.REDIS_PREFIX}${name}-${randomBytes(3).toString('hex')}:`,
    VAPID_PUBLIC_KEY: keys.publicKey,
    VAPID_PRIVATE_KEY: keys.privateKey,
    VAPID_SUBJECT: 'mailto:push-tests@parley.test',
    PUSH_CA_FILE: push.caFile,
    PUSH_DELAY_MS: '700',
    PUSH_BACKOFF_MS: '200',
    OUTBOX_POLL_MS: '50',
    HEARTBEAT_INTERVAL: '3600',
    ...overrides,
  };
  return {
    env,
    vapidPublicKey: keys.publicKey,
    drop: async () => {
      const c = new Client({ connectionString: run.adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The worker module in this process (outbox relay + processors), with this config. */
export async function bootWorker(env: Record<string, string>): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ imports: [WorkerModule] })
    .overrideProvider(APP_CONFIG)
    .useValue(loadConfig(testEnv(env)))
    .compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return moduleRef;
}

/** The built worker (dist/workers/src/main.js) as a child process; resolves once it logged that it started. */
export async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/workers/src/main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...testEnv(env), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker started')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output.slice(-2000)}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}
