// Connection capacity: how long N idle authenticated sockets take to connect, and how much server heap each one
// costs after GC, for Parley and for the bare Socket.IO relay (scripts/load/bare-relay.mts) in the same run.
//   npm run bench:sockets -- [--users 10000] [--group-size 10] [--runs 3] [--connects-in-flight 200]
//                            [--port 5800] [--inspect-port 5801] [--profile DIR] [--no-bare] [--verbose] [--out result.json]
// It starts its own built server (dist/, `npm run build:server` first) and worker with the inspector on
// 127.0.0.1:--inspect-port, against DATABASE_URL (default: a local database parley_bench_sockets, created if
// missing) and REDIS_URL (default redis://127.0.0.1:6379) under REDIS_PREFIX (default parley-bench-sockets:).
// Users are inserted in SQL (N argon2 registrations would take minutes) as copies of one user registered
// through the API, their access tokens signed with the JWT_SECRET this script gives the server, and they are
// put in groups of --group-size through the API, as the app does.
// Heap is read through the inspector protocol, so no production code changes: HeapProfiler.collectGarbage, then
// Runtime.evaluate(process.memoryUsage()), before connecting and once every socket is connected and presence has
// settled; (after − before) / N is the heap per socket. RSS is printed beside it but is not the figure: it
// keeps pages the allocator has not handed back.
// Each process holds N sockets (the server and this generator): `ulimit -n` must be above N + a few hundred.
// --profile DIR writes, per run and process, a CPU profile of the connect phase (.cpuprofile) and a sampling heap
// profile of what is still alive after GC once all are connected (.heapprofile): open both in Chrome DevTools.
import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { SERVER_MAIN, SERVER_V8_FLAGS, WORKER_MAIN } from '../lib/build.mts';
import { sleep } from '../lib/common.mts';
import { ensureDatabase, startNode as startProcess, waitFor } from '../lib/node-process.mts';
import { cpuSecondsOf, inParallel, machineCpu } from '../lib/measure.mts';

const require = createRequire(import.meta.url);
const { io } = require('socket.io-client') as typeof import('socket.io-client');
type Socket = import('socket.io-client').Socket;
const { WebSocket } = require('ws') as typeof import('ws');
const pg = require('pg') as typeof import('pg');
const here = dirname(fileURLToPath(import.meta.url));
/** --verbose: the servers' own output goes to stderr as it comes. */
let verbose = false;

interface Options {
  users: number;
  groupSize: number;
  runs: number;
  connectsInFlight: number;
  port: number;
  inspectPort: number;
  profile: string | null;
  bare: boolean;
  out: string | null;
  settleMs: number;
}

/** The environment the server and worker start with: the process's own, plus what this script sets. */
interface BenchEnv extends NodeJS.ProcessEnv {
  DATABASE_URL: string;
  JWT_SECRET: string;
  ACCESS_TOKEN_TTL: string;
}

interface BenchUser {
  code: string;
  email?: string;
  token?: string;
  group?: string;
}

/** What a socket sends in its handshake: a token for Parley, its user and groups for the bare relay. */
type HandshakeAuth = (user: BenchUser) => Record<string, unknown>;

/** A process to measure: where to connect, its pid for /proc and its inspector port. */
interface Target {
  base: string;
  pid: number;
  inspectPort: number;
}

interface StartedTarget {
  base: string;
  pid: number;
  stop: () => Promise<unknown>;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    users: 10_000,
    groupSize: 10,
    runs: 3,
    connectsInFlight: 200,
    port: 5800,
    inspectPort: 5801,
    profile: null,
    bare: true,
    out: null,
    settleMs: 3000,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = (): string => inline ?? argv[++i];
    switch (flag) {
      case '--users':
        opts.users = Number(value());
        break;
      case '--group-size':
        opts.groupSize = Number(value());
        break;
      case '--runs':
        opts.runs = Number(value());
        break;
      case '--connects-in-flight':
        opts.connectsInFlight = Number(value());
        break;
      case '--port':
        opts.port = Number(value());
        break;
      case '--inspect-port':
        opts.inspectPort = Number(value());
        break;
      case '--profile':
        opts.profile = resolve(value());
        break;
      case '--settle-ms':
        opts.settleMs = Number(value());
        break;
      case '--no-bare':
        opts.bare = false;
        break;
      case '--verbose':
        verbose = true;
        break;
      case '--out':
        opts.out = value();
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (!(opts.users >= 2 && opts.groupSize >= 2 && opts.runs >= 1 && opts.connectsInFlight >= 1)) {
    throw new Error('need --users ≥ 2, --group-size ≥ 2, --runs ≥ 1, --connects-in-flight ≥ 1');
  }
  return opts;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// ------------------------------------------------------------------------------------------ processes

const startNode = (name: string, args: string[], env: NodeJS.ProcessEnv) => startProcess(name, args, env, { verbose });

async function startParley(opts: Options, env: BenchEnv): Promise<StartedTarget> {
  const server = startNode('server', ['--enable-source-maps', ...SERVER_V8_FLAGS, `--inspect=127.0.0.1:${opts.inspectPort}`, SERVER_MAIN], env);
  const base = `http://127.0.0.1:${opts.port}`;
  await waitFor('the server', async () => (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) })).status === 200, server);
  const worker = startNode('worker', ['--enable-source-maps', WORKER_MAIN], { ...env, PORT: '0' });
  return { base, pid: server.child.pid!, stop: () => Promise.all([server.stop(), worker.stop()]) };
}

async function startBareRelay(inspectPort: number): Promise<StartedTarget> {
  const relay = startNode('bare relay', [`--inspect=127.0.0.1:${inspectPort}`, '--import', 'tsx', join(here, 'bare-relay.mts'), '0'], process.env);
  let port: number | null = null;
  relay.child.stdout.on('data', (d: Buffer) => {
    const m = /listening (\d+)/.exec(String(d));
    if (m) port = Number(m[1]);
  });
  await waitFor('the bare relay', async () => port !== null, relay);
  return { base: `http://127.0.0.1:${port}`, pid: relay.child.pid!, stop: () => relay.stop() };
}

// ------------------------------------------------------------------------------------------ inspector

/** A protocol message: the answer to a command (id) or an event (none), with a result or an error. */
interface InspectorMessage {
  id?: number;
  result?: unknown;
  error?: { message: string };
}

interface Pending {
  ok: (result: unknown) => void;
  fail: (err: Error) => void;
}

/** A CPU or heap profile as the inspector gives it: written out as it is, for DevTools. */
type Profile = Record<string, unknown>;

interface Inspector {
  /** Full GC twice (weak maps and finalisers let go on the second), then the process's memory. */
  memoryAfterGc: () => Promise<NodeJS.MemoryUsage>;
  startProfiles: () => Promise<void>;
  stopCpuProfile: () => Promise<Profile>;
  /** The sampled allocations still alive now: call after memoryAfterGc(). */
  stopHeapProfile: () => Promise<Profile>;
  close: () => void;
}

/** A minimal Chrome DevTools protocol client over the inspector's WebSocket. */
async function inspect(port: number): Promise<Inspector> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(target.webSocketDebuggerUrl, { perMessageDeflate: false });
  await new Promise((ok, fail) => (ws.once('open', ok), ws.once('error', fail)));
  let id = 0;
  const waiting = new Map<number, Pending>();
  ws.on('message', (raw) => {
    const msg = JSON.parse(String(raw)) as InspectorMessage;
    const w = msg.id === undefined ? undefined : waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id!);
    if (msg.error) w.fail(new Error(msg.error.message));
    else w.ok(msg.result);
  });
  /** Sends a command; T is the shape of the result the protocol documents for it. */
  function send<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    return new Promise<T>((ok, fail) => {
      waiting.set(++id, { ok: (result) => ok(result as T), fail });
      ws.send(JSON.stringify({ id, method, params }));
    });
  }
  return {
    async memoryAfterGc() {
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const { result } = await send<{ result: { value: string } }>('Runtime.evaluate', {
        expression: 'JSON.stringify(process.memoryUsage())',
        returnByValue: true,
      });
      return JSON.parse(result.value) as NodeJS.MemoryUsage;
    },
    async startProfiles() {
      await send('Profiler.enable');
      await send('Profiler.setSamplingInterval', { interval: 200 });
      await send('Profiler.start');
      await send('HeapProfiler.enable');
      await send('HeapProfiler.startSampling', { samplingInterval: 4096 });
    },
    stopCpuProfile: async () => (await send<{ profile: Profile }>('Profiler.stop')).profile,
    async stopHeapProfile() {
      const { profile } = await send<{ profile: Profile }>('HeapProfiler.getSamplingProfile');
      await send('HeapProfiler.stopSampling');
      return profile;
    },
    close: () => ws.close(),
  };
}

// ------------------------------------------------------------------------------------------ users

/** The fields read here from POST /api/user and PUT /api/message/groups. */
interface RegisterResponse {
  user: { code: string };
}
interface GroupResponse {
  group: { code: string };
}

function signToken(secret: string, user: BenchUser, ttl: number): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ unique_name: user.code, nameid: user.email, role: 0, nbf: iat, iat, exp: iat + ttl })}`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

/** T is the shape of the JSON the route answers with (the fields the caller reads). */
async function api<T>(base: string, method: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json: unknown = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

/** N users of the default instance, in groups of groupSize, each with a fresh access token. */
async function setUpUsers(opts: Options, env: BenchEnv, base: string): Promise<BenchUser[]> {
  const started = performance.now();
  const run = randomBytes(4).toString('hex');
  const first = await api<RegisterResponse>(base, 'POST', '/api/user', {
    email: `sock.${run}.0@loadtest.invalid`,
    password: `load-${randomBytes(8).toString('hex')}`,
    name: 'Load',
    surname: 'User 0',
  });
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  const users: BenchUser[] = [{ code: first.user.code, email: `sock.${run}.0@loadtest.invalid` }];
  try {
    for (let i = 1; i < opts.users; i++) users.push({ code: randomBytes(12).toString('base64url'), email: `sock.${run}.${i}@loadtest.invalid` });
    for (let i = 1; i < users.length; i += 5000) {
      const chunk = users.slice(i, i + 5000);
      await db.query(
        `INSERT INTO "user" (code, instance_id, email, password_hash, name, surname)
         SELECT c, t.instance_id, e, t.password_hash, 'Load', 'User' FROM unnest($1::text[], $2::text[]) AS u(c, e)
         CROSS JOIN (SELECT instance_id, password_hash FROM "user" WHERE code = $3) t`,
        [chunk.map((u) => u.code), chunk.map((u) => u.email), first.user.code],
      );
    }
  } finally {
    await db.end();
  }
  for (const u of users) u.token = signToken(env.JWT_SECRET, u, Number(env.ACCESS_TOKEN_TTL));
  const groups: BenchUser[][] = [];
  for (let i = 0; i < users.length; i += opts.groupSize) groups.push(users.slice(i, i + opts.groupSize));
  await inParallel(groups, 8, async (members) => {
    if (members.length < 2) return;
    const res = await api<GroupResponse>(
      base,
      'PUT',
      '/api/message/groups',
      { userList: members.slice(1).map((u) => u.code), createNewGroup: true },
      members[0].token,
    );
    for (const u of members) u.group = res.group.code;
  });
  console.log(`set up ${users.length} users in ${groups.length} groups in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return users;
}

// ------------------------------------------------------------------------------------------ the measure

interface RunResult {
  label: string;
  sockets: number;
  connectS: number;
  /** null when the server's /proc entry could not be read. */
  serverCpuS: number | null;
  generatorCpuS: number;
  /** null when /proc/stat cannot be read */
  machineBusyPercent: number | null;
  heapPerSocketKB: number;
  rssPerSocketKB: number;
  retainedPerSocketKB: number;
  heapBeforeMB: number;
  heapAfterMB: number;
}

/** The figures the summary shows min / median of. */
type SummaryKey = 'connectS' | 'heapPerSocketKB' | 'rssPerSocketKB' | 'serverCpuS' | 'generatorCpuS';

/** Connects one socket per user, measures, disconnects them all. */
async function measure(label: string, target: Target, users: BenchUser[], auth: HandshakeAuth, opts: Options): Promise<RunResult> {
  const inspector = await inspect(target.inspectPort);
  try {
    const before = await inspector.memoryAfterGc();
    if (opts.profile) await inspector.startProfiles();
    const cpuBefore = cpuSecondsOf(target.pid);
    const generatorBefore = process.cpuUsage();
    const machineBefore = machineCpu();
    const started = performance.now();
    const sockets = await inParallel(
      users,
      opts.connectsInFlight,
      (u, i) =>
        new Promise<Socket>((ok, fail) => {
          const socket = io(target.base, { auth: auth(u), transports: ['websocket'], reconnection: false, forceNew: true });
          socket.once('connect', () => ok(socket));
          socket.once('connect_error', (err) => fail(new Error(`${label}: socket ${i} could not connect: ${err.message}`)));
        }),
    );
    const connectS = (performance.now() - started) / 1000;
    const cpuAfter = cpuSecondsOf(target.pid);
    const cpuConnect = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
    const generator = process.cpuUsage(generatorBefore);
    const machineAfter = machineCpu();
    const name = `${label.replace(/\W+/g, '-')}-${users.length}-${Date.now()}`;
    if (opts.profile) writeFileSync(join(opts.profile, `${name}.cpuprofile`), JSON.stringify(await inspector.stopCpuProfile()));
    // Presence writes and announcements that trail the connects finish before the heap is read.
    await sleep(opts.settleMs);
    const after = await inspector.memoryAfterGc();
    if (opts.profile) writeFileSync(join(opts.profile, `${name}.heapprofile`), JSON.stringify(await inspector.stopHeapProfile()));
    for (const s of sockets) s.close();
    // The next run starts from a heap that has let go of these sockets (disconnects, offline grace, buckets),
    // else it would count their release against its own; what stays after 30 s is printed as retained.
    let left = await inspector.memoryAfterGc();
    for (const until = Date.now() + 30_000; left.heapUsed > before.heapUsed + 2 ** 20 * 5 && Date.now() < until;) {
      await sleep(2000);
      left = await inspector.memoryAfterGc();
    }
    const n = users.length;
    return {
      label,
      sockets: n,
      connectS,
      serverCpuS: cpuConnect,
      generatorCpuS: (generator.user + generator.system) / 1e6,
      machineBusyPercent: machineBefore && machineAfter ? ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100 : null,
      heapPerSocketKB: (after.heapUsed - before.heapUsed) / n / 1024,
      rssPerSocketKB: (after.rss - before.rss) / n / 1024,
      retainedPerSocketKB: (left.heapUsed - before.heapUsed) / n / 1024,
      heapBeforeMB: before.heapUsed / 2 ** 20,
      heapAfterMB: after.heapUsed / 2 ** 20,
    };
  } finally {
    inspector.close();
  }
}

/** A figure with its decimals, or '-' when it could not be measured. */
const fixed = (x: number | null, digits: number): string => (x === null ? '-' : x.toFixed(digits));

function printRun(r: RunResult): void {
  console.log(
    `   ${r.label.padEnd(14)} ${r.sockets} sockets in ${r.connectS.toFixed(2)} s (CPU: server ${fixed(r.serverCpuS, 1)} s, generator ${r.generatorCpuS.toFixed(1)} s; machine ${fixed(r.machineBusyPercent, 0)} % busy), ` +
      `heap ${r.heapPerSocketKB.toFixed(1)} KB/socket after GC (${r.heapBeforeMB.toFixed(0)} → ${r.heapAfterMB.toFixed(0)} MB), RSS ${r.rssPerSocketKB.toFixed(1)} KB/socket; ${r.retainedPerSocketKB.toFixed(1)} KB/socket still held after disconnecting`,
  );
}

function printSummary(results: RunResult[]): void {
  console.log('\n== summary (min / median over runs)');
  for (const label of [...new Set(results.map((r) => r.label))]) {
    const rs = results.filter((r) => r.label === label);
    const f = (key: SummaryKey): string => {
      const xs = rs.map((r) => r[key]).filter((x): x is number => x !== null);
      return xs.length ? `${Math.min(...xs).toFixed(2)} / ${median(xs).toFixed(2)}` : '- / -';
    };
    console.log(
      `   ${label.padEnd(14)} connect ${f('connectS')} s   heap ${f('heapPerSocketKB')} KB/socket   RSS ${f('rssPerSocketKB')} KB/socket   server CPU ${f('serverCpuS')} s   generator CPU ${f('generatorCpuS')} s   (${rs.length} runs, ${rs[0].sockets} sockets)`,
    );
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const env: BenchEnv = {
    ...process.env,
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(opts.port),
    DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/parley_bench_sockets',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'parley-bench-sockets:',
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ACCESS_TOKEN_TTL: String(4 * 3600),
    AUTH_RATE_LIMIT_IP: '1000000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    FILES_DIR: process.env.FILES_DIR ?? mkdtempSync(join(tmpdir(), 'parley-bench-sockets-')),
  };
  await ensureDatabase(env.DATABASE_URL);
  if (opts.profile) mkdirSync(opts.profile, { recursive: true });
  const results: (RunResult & { run: number })[] = [];
  const parley = await startParley(opts, env);
  try {
    const users = await setUpUsers(opts, env, parley.base);
    const target: Target = { ...parley, inspectPort: opts.inspectPort };
    for (let run = 1; run <= opts.runs; run++) {
      console.log(`run ${run}/${opts.runs}`);
      const r = await measure('parley', target, users, (u) => ({ token: u.token }), opts);
      printRun(r);
      results.push({ run, ...r });
    }
  } finally {
    await parley.stop();
  }
  if (opts.bare) {
    const relay = await startBareRelay(opts.inspectPort + 1);
    try {
      const users = Array.from({ length: opts.users }, (_, i): BenchUser => ({ code: `u${i}`, group: `g${Math.floor(i / opts.groupSize)}` }));
      const target: Target = { ...relay, inspectPort: opts.inspectPort + 1 };
      for (let run = 1; run <= opts.runs; run++) {
        const r = await measure('bare socket.io', target, users, (u) => ({ userCode: u.code, groups: [u.group] }), opts);
        printRun(r);
        results.push({ run, ...r });
      }
    } finally {
      await relay.stop();
    }
  }
  printSummary(results);
  if (opts.profile) console.log(`\nprofiles written under ${opts.profile}`);
  if (opts.out) {
    writeFileSync(opts.out, JSON.stringify({ at: new Date().toISOString(), options: opts, results }, null, 2));
    console.log(`wrote ${opts.out}`);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err) : err);
    process.exit(1);
  },
);
