// The fault suite's own stack: a redis-server (append-only) and an embedded PostgreSQL in a temp folder, two
// built server processes, one worker and the local push service, on fixed loopback ports. Every process is
// tracked so an exit the suite did not cause is counted, and stop() removes everything, whatever happened.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { ROOT, isAlive, sleep, waitUntil } from '../lib/common.mts';
import { SERVER_MAIN, SERVER_V8_FLAGS, WORKER_MAIN } from '../lib/build.mts';
import { type StartedService, redisPing, startEmbeddedPostgres } from '../lib/services.mts';
import { LocalPushService } from '../../test/push-service/push-service.ts';

const require = createRequire(import.meta.url);
/** Microseconds redis-server spends per key when it loads its RDB data (a development setting of Redis 7). */
const KEY_LOAD_DELAY_US = 100;

/** A server or worker process; exits the suite did not ask for are counted per fault. */
class AppProcess {
  child: ChildProcess | undefined = undefined;
  expectExit = false;
  readonly logFile: string;
  lastLines: string[] | undefined;

  constructor(
    readonly stack: ChaosStack,
    readonly name: string,
    readonly script: string,
    readonly env: NodeJS.ProcessEnv,
    readonly nodeFlags: readonly string[] = [],
  ) {
    this.logFile = path.join(stack.dir, `${name}.log`);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  start(): this {
    this.expectExit = false;
    const out = fs.createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['--enable-source-maps', ...this.nodeFlags, this.script], {
      cwd: ROOT,
      env: this.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.pipe(out, { end: false });
      readline.createInterface({ input: stream }).on('line', (line) => {
        if (/unhandled ?rejection|uncaught ?exception/i.test(line)) this.stack.note('unhandled', `${this.name}: ${line.slice(0, 300)}`);
        // The first lines of what it said last: a crash's error and where it was thrown.
        this.lastLines = [...(this.lastLines ?? []).slice(-19), line];
      });
    }
    child.once('exit', (code, signal) => {
      out.end();
      if (this.expectExit || this.stack.stopping) return;
      const said = (this.lastLines ?? [])
        .find((l) => /Error|error/.test(l))
        ?.trim()
        .slice(0, 200);
      this.stack.note('exit', `${this.name} (pid ${child.pid}) ${signal ? `killed by ${signal}` : `exited ${code}`}${said ? `: ${said}` : ''}`);
      // As npm start's supervisor does: counted, then started again, so the run goes on.
      setTimeout(() => !this.stack.stopping && !this.running && this.start(), 1000);
    });
    return this;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (!this.running) return;
    this.expectExit = true;
    const child = this.child!;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
    const timer = setTimeout(() => this.running && process.kill(-child.pid!, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
}

export interface StackPorts {
  redis: number;
  postgres: number;
  servers: number[];
  push: number;
}

/** Something the report counts: 'exit' (unexpected process exit), 'unhandled' (a logged unhandled rejection). */
export type NoteKind = 'exit' | 'unhandled';

export interface Note {
  kind: NoteKind;
  text: string;
  at: number;
}

export class ChaosStack {
  readonly ports: StackPorts;
  readonly log: (message: string) => void;
  readonly dir: string;
  readonly prefix: string;
  notes: Note[] = [];
  stopping = false;
  stopped = false;
  servers: AppProcess[] = [];
  worker: AppProcess | undefined = undefined;
  redis: (ChildProcess & { expectExit?: boolean }) | undefined = undefined;
  // Set by start(): the run never reads them before.
  pg!: StartedService;
  push!: LocalPushService;
  vapidPublicKey = '';
  ballast: number | undefined;

  constructor({ ports, log }: { ports: StackPorts; log: (message: string) => void }) {
    this.ports = ports;
    this.log = log;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-chaos-'));
    fs.chmodSync(this.dir, 0o755);
    this.prefix = `chaos:${randomBytes(3).toString('hex')}:`;
  }

  note(kind: NoteKind, text: string): void {
    this.notes.push({ kind, text, at: Date.now() });
  }

  notesSince(at: number, kind: NoteKind): Note[] {
    return this.notes.filter((n) => n.at >= at && n.kind === kind);
  }

  serverUrl(i: number): string {
    return `http://127.0.0.1:${this.ports.servers[i]}`;
  }

  get redisUrl(): string {
    return `redis://127.0.0.1:${this.ports.redis}`;
  }

  async start({ pushDelayMs }: { pushDelayMs: number }): Promise<void> {
    await this.startRedis();
    await this.startPostgres();
    this.push = await LocalPushService.start(this.ports.push);
    const vapid = (require('web-push') as typeof import('web-push')).generateVAPIDKeys();
    this.vapidPublicKey = vapid.publicKey;
    const shared = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      DATABASE_URL: this.pg.url,
      DATABASE_POOL_SIZE: '10',
      REDIS_URL: this.redisUrl,
      REDIS_PREFIX: this.prefix,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ACCESS_TOKEN_TTL: String(24 * 3600),
      AUTH_RATE_LIMIT_IP: '1000000',
      AUTH_RATE_LIMIT_EMAIL: '1000000',
      LOG_LEVEL: 'warn',
      FILES_DIR: path.join(this.dir, 'files'),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      PUSH_CA_FILE: this.push.caFile,
      PUSH_DELAY_MS: String(pushDelayMs),
      HEARTBEAT_INTERVAL: '5',
    };
    const serverEnv = (port: number) => ({ ...shared, PORT: String(port) });
    this.servers = this.ports.servers.map((port, i) => new AppProcess(this, `server-${'ab'[i]}`, SERVER_MAIN, serverEnv(port), SERVER_V8_FLAGS));
    this.worker = new AppProcess(this, 'worker', WORKER_MAIN, { ...shared, MIGRATIONS_RUN: 'false' });
    // The first server runs the migrations; the others start once it answers.
    this.servers[0].start();
    await this.waitHealthy(0, 120_000);
    for (const s of this.servers.slice(1)) s.start();
    this.worker.start();
    for (let i = 1; i < this.servers.length; i++) await this.waitHealthy(i, 120_000);
  }

  async waitHealthy(i: number, timeoutMs = 60_000): Promise<void> {
    const ok = await waitUntil(async () => (await this.health(i)) === 200, timeoutMs, 200);
    if (!ok) throw new Error(`${this.servers[i].name} did not answer /api/health 200 within ${timeoutMs / 1000} s (log: ${this.servers[i].logFile})`);
  }

  /** Waits until every server answers /api/health 200 (a crashed one is back). */
  async waitAllHealthy(timeoutMs = 120_000): Promise<void> {
    for (let i = 0; i < this.servers.length; i++) await this.waitHealthy(i, timeoutMs);
  }

  /** The status of GET /api/health, or 0 when nothing answers. */
  async health(i: number): Promise<number> {
    try {
      const res = await fetch(`${this.serverUrl(i)}/api/health`, { signal: AbortSignal.timeout(3000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  // ------------------------------------------------------------------------------------------ Redis

  async startRedis(): Promise<void> {
    const dir = path.join(this.dir, 'redis');
    fs.mkdirSync(dir, { recursive: true });
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.ports.redis),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
        '--daemonize',
        'no',
        '--logfile',
        path.join(this.dir, 'redis.log'),
        // Each key read from the RDB part of the data takes this long to load: with the ballast below, a restart
        // spends seconds answering LOADING, as a production Redis with a real dataset does.
        '--key-load-delay',
        String(KEY_LOAD_DELAY_US),
      ],
      { detached: true, stdio: 'ignore' },
    ) as ChildProcess & { expectExit?: boolean };
    this.redis = child;
    child.once('exit', (code, signal) => {
      if (this.redis === child && !child.expectExit && !this.stopping) this.note('exit', `redis-server ${signal ?? code}`);
    });
    if (!(await waitUntil(() => redisPing(this.ports.redis), 15_000, 50))) throw new Error(`redis-server did not start on ${this.ports.redis}`);
  }

  /**
   * Ballast for the next Redis start to load: enough keys (under the prefix) for `seconds` of LOADING, folded
   * into the append-only file's RDB base by a rewrite (only that part is loaded key by key).
   */
  async prepareRedisLoading(seconds: number): Promise<void> {
    const wanted = Math.round((seconds * 1e6) / KEY_LOAD_DELAY_US);
    const { createClient } = require('redis') as typeof import('redis');
    const client = createClient({ url: this.redisUrl, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    await client.connect();
    try {
      for (let i = this.ballast ?? 0; i < wanted; i += 1000) {
        const multi = client.multi();
        for (let k = i; k < Math.min(i + 1000, wanted); k++) multi.set(`${this.prefix}chaos-ballast:${k}`, 'x');
        await multi.exec();
      }
      this.ballast = Math.max(this.ballast ?? 0, wanted);
      await client.sendCommand(['BGREWRITEAOF']).catch(() => undefined);
      await waitUntil(
        async () => /aof_rewrite_in_progress:0/.test(await client.info('persistence')) && !/aof_rewrite_scheduled:1/.test(await client.info('persistence')),
        60_000,
        100,
      );
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  async stopRedis(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.redis;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.expectExit = true;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  // ------------------------------------------------------------------------------------------ Postgres

  /** The launcher's embedded PostgreSQL, with its data (and remembered port) in this run's temp folder. */
  async startPostgres(): Promise<void> {
    const home = path.join(this.dir, 'pg');
    fs.mkdirSync(home, { recursive: true, mode: 0o755 });
    const state = path.join(home, 'state.json');
    if (!fs.existsSync(state)) fs.writeFileSync(state, JSON.stringify({ postgresPort: this.ports.postgres }), { mode: 0o600 });
    const before = process.env.PARLEY_DATA_DIR;
    process.env.PARLEY_DATA_DIR = home;
    try {
      this.pg = await startEmbeddedPostgres();
    } finally {
      if (before === undefined) delete process.env.PARLEY_DATA_DIR;
      else process.env.PARLEY_DATA_DIR = before;
    }
    const port = Number(new URL(this.pg.url).port);
    if (port !== this.ports.postgres) this.log(`note: port ${this.ports.postgres} was busy, PostgreSQL is on ${port}`);
  }

  async stopPostgres(): Promise<void> {
    await this.pg?.stop();
  }

  /** SQL against the suite's own database (a short-lived connection, so a restart never leaves one broken). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows as the caller's SQL shapes them
  async query(sql: string, params?: unknown[]): Promise<any[]> {
    const { Client } = require('pg') as typeof import('pg');
    const client = new Client({ connectionString: this.pg.url, connectionTimeoutMillis: 5000 });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query(sql, params)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Keys in the suite's own Redis outside the deployment's prefix (every Redis user must use it). */
  async strayKeys(): Promise<string[]> {
    const { createClient } = require('redis') as typeof import('redis');
    const client = createClient({ url: this.redisUrl, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const stray: string[] = [];
      for await (const keys of client.scanIterator({ COUNT: 1000 })) stray.push(...keys.filter((k) => !k.startsWith(this.prefix)));
      return stray;
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /** Copies the processes' logs (servers, worker, Redis, PostgreSQL) out of the temp folder before it goes. */
  copyLogs(target: string): void {
    fs.mkdirSync(target, { recursive: true });
    for (const file of fs.readdirSync(this.dir).filter((f) => f.endsWith('.log'))) fs.copyFileSync(path.join(this.dir, file), path.join(target, file));
    const pgLog = path.join(this.dir, 'pg', 'postgres.log');
    if (fs.existsSync(pgLog)) fs.copyFileSync(pgLog, path.join(target, 'postgres.log'));
  }

  /** Stops everything this stack started and removes its temp folder; safe to call twice and after a failed start. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopping = true;
    await Promise.all([...this.servers, this.worker].filter((p): p is AppProcess => !!p).map((p) => p.kill('SIGKILL').catch(() => undefined)));
    await this.push?.stop().catch(() => undefined);
    await this.stopPostgres().catch(() => undefined);
    await this.stopRedis('SIGKILL').catch(() => undefined);
    // Leftovers a crash of ours could not reach: a postmaster still holding the data folder.
    try {
      const pid = Number(fs.readFileSync(path.join(this.dir, 'pg', 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (isAlive(pid)) process.kill(pid, 'SIGQUIT');
      await sleep(200);
    } catch {
      // no postmaster.pid: stopped cleanly
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
