// Node processes a benchmark starts and stops (the built server, the worker, the bare relay), and the database
// it runs against: shared by the socket benchmark and the cluster run.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { type ExitResult, ROOT, sleep } from './common.mts';

const require = createRequire(import.meta.url);
const pg = require('pg') as typeof import('pg');

export interface NodeProcess {
  name: string;
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The last 200 lines of its output, for error messages. */
  lines: string[];
  exited: Promise<ExitResult>;
  stop: () => Promise<void>;
}

/** Starts `node args` (or another program) from the repository root; `verbose` copies its output to stderr as it comes. */
export function startNode(name: string, args: string[], env: NodeJS.ProcessEnv, { verbose = false, program = process.execPath } = {}): NodeProcess {
  const child = spawn(program, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const keep = (d: Buffer) => {
    if (verbose) process.stderr.write(`[${name}] ${d}`);
    for (const line of String(d).split('\n')) if (line.trim()) lines.push(line);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<ExitResult>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return {
    name,
    child,
    lines,
    exited,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `check` until it passes; fails with the process's last lines if it exits or time runs out. */
export async function waitFor(what: string, check: () => Promise<boolean>, proc: NodeProcess, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`${proc.name} exited while waiting for ${what}:\n${proc.lines.slice(-30).join('\n')}`);
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}:\n${proc.lines.slice(-30).join('\n')}`);
}

async function onAdminDatabase<T>(url: string, fn: (client: import('pg').Client, dbName: string) => Promise<T>): Promise<T> {
  const dbName = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await fn(client, dbName.replace(/"/g, ''));
  } finally {
    await client.end();
  }
}

/** Creates the URL's database if it does not exist. */
export function ensureDatabase(url: string): Promise<void> {
  return onAdminDatabase(url, async (client, dbName) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${dbName}"`);
  });
}

/** Drops the URL's database (its connections are ended first). */
export function dropDatabase(url: string): Promise<void> {
  return onAdminDatabase(url, async (client, dbName) => {
    await client.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  });
}
