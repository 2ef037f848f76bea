// Load generator for Parley's realtime path (and, with --baseline, for a bare Socket.IO relay beside it).
//   npm run loadtest -- --url http://localhost:3000 --users 200 --groups 20 --rate 100 --duration 30 [--rates 100,200]
//   [--warmup 5] [--drain 5] [--baseline] [--relay-port 0] [--urls a,b] [--server-pids 123,456] [--connects-in-flight 100] [--source-addresses 64]
//   [--setup-file users.json] [--texts texts.txt] [--by-process] [--timeline] [--out result.json]
// Creates its users (POST /api/user) and groups (PUT /api/message/groups) through the API, connects one real
// socket.io-client socket per user (spread over --urls when given), sends --rate messages/s for --duration s,
// then prints send→ack and send→receive latency (p50/p95/p99/max), delivered vs expected, and lost, duplicated
// and out-of-order deliveries, and writes them as JSON (--out). It stops by itself and talks only to the URLs given.
// A send refused under load (503 with retryAfterMs) is sent again with the same client key after that delay,
// doubling per refusal with jitter, as the app does; refusals and retries are reported, and the delivery lag
// (receive − the accepted attempt) beside send→receive (receive − the first attempt). Refused messages are retried
// through --drain s after the run; those still refused then were never acknowledged, so they count as unsent, not lost.
// --server-pids (Linux, same machine) adds the servers' CPU time per message sent, read from /proc: a figure
// that stays comparable when the machine is busy with other work, unlike latency.
// --by-process (Linux, same machine) adds every kind of process's CPU per message sent (Parley's server and worker,
// Postgres, Redis, nginx, this generator, the bare relay, other) and the whole machine's, read from /proc: where a message's cost
// goes on a machine that runs everything, which a profile of the server alone does not show.
// --setup-file F keeps the users, their tokens and groups in F and takes them from there when F exists (the
// servers must share that database and JWT_SECRET, and the tokens must still be valid): registering thousands
// of users costs minutes of argon2.
// --texts F sends the lines of F in turn, each with the message's number after it (default: "load <number>"): what a
// send costs after its commit (machine translation of the text) depends on the text.
// --source-addresses K binds each socket to 127.0.k.1, k drawn from 1..K (all of 127/8 is loopback on Linux), so a proxy that
// balances by client network (nginx's ip_hash hashes the first three octets) spreads the sockets over its servers.
// --timeline adds each second of the measured window (by when its messages were sent, with the wall-clock time) and its
// deliveries' p50/p99/max: whether a tail is spread evenly or sits in a few seconds, to set beside a server's logs,
// and how late the generator's own event loop ran in that second (a delivery read late is timed late). The
// generator's lateness over the whole window is always printed.
// Registering many users needs the server's login rate limit raised: AUTH_RATE_LIMIT_IP=1000000 npm start.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { cpuByClass, cpuSecondsOf, inParallel, machineCpu, processCpu } from '../lib/measure.mts';

const require = createRequire(import.meta.url);
const { io } = require('socket.io-client') as typeof import('socket.io-client');
type Socket = import('socket.io-client').Socket;
const here = dirname(fileURLToPath(import.meta.url));

interface Options {
  url: string;
  urls: string[];
  users: number;
  groups: number;
  rate: number;
  rates?: number[];
  duration: number;
  out: string | null;
  baseline: boolean | 'only';
  /** the bare relay's port (0: any free one) */
  relayPort: number;
  drain: number;
  warmup: number;
  connectsInFlight: number;
  serverPids?: number[];
  sourceAddresses: number;
  setupFile: string | null;
  texts: string[] | null;
  byProcess: boolean;
  timeline: boolean;
}

interface LoadUser {
  code: string;
  token?: string;
  group?: string;
}

interface Setup {
  users: LoadUser[];
  groups: { code: string; size: number }[];
  auth: (u: LoadUser) => Record<string, unknown>;
}

/** A delivered message as the server broadcasts it (the fields read here). */
interface NewMessage {
  code: string;
  userCode: string;
  clientKey: string;
  groupCode: string;
  seq: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Omit<Options, 'urls'> & { urls?: string[] } = {
    url: 'http://localhost:3000',
    users: 100,
    groups: 10,
    rate: 100,
    duration: 20,
    out: null,
    baseline: false,
    relayPort: 0,
    drain: 5,
    warmup: 5,
    connectsInFlight: 100,
    sourceAddresses: 0,
    setupFile: null,
    texts: null,
    byProcess: false,
    timeline: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--url':
        opts.url = value();
        break;
      case '--urls':
        opts.urls = value().split(',').filter(Boolean);
        break;
      case '--users':
        opts.users = Number(value());
        break;
      case '--groups':
        opts.groups = Number(value());
        break;
      case '--rate':
        opts.rate = Number(value());
        break;
      case '--rates':
        opts.rates = value().split(',').map(Number);
        break;
      case '--duration':
        opts.duration = Number(value());
        break;
      case '--out':
        opts.out = value();
        break;
      case '--drain':
        opts.drain = Number(value());
        break;
      case '--warmup':
        opts.warmup = Number(value());
        break;
      case '--connects-in-flight':
        opts.connectsInFlight = Number(value());
        break;
      case '--baseline':
        opts.baseline = true;
        break;
      case '--relay-port':
        opts.relayPort = Number(value());
        break;
      case '--server-pids':
        opts.serverPids = value().split(',').filter(Boolean).map(Number);
        break;
      case '--source-addresses':
        opts.sourceAddresses = Number(value());
        break;
      case '--setup-file':
        opts.setupFile = value();
        break;
      case '--texts':
        opts.texts = readFileSync(value(), 'utf8')
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
        break;
      case '--baseline-only':
        opts.baseline = 'only';
        break;
      case '--by-process':
        opts.byProcess = true;
        break;
      case '--timeline':
        opts.timeline = true;
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  const urls = (opts.urls ??= [opts.url]);
  for (const u of urls) {
    const host = new URL(u).hostname;
    if (!['localhost', '127.0.0.1', '::1', '[::1]'].includes(host) && !host.startsWith('127.')) {
      throw new Error(`refusing to load ${u}: only loopback targets are allowed`);
    }
  }
  if (!(
    opts.users >= 2 &&
    opts.groups >= 1 &&
    opts.groups <= opts.users &&
    opts.rate > 0 &&
    opts.duration > 0 &&
    opts.connectsInFlight >= 1 &&
    opts.sourceAddresses >= 0 &&
    opts.sourceAddresses <= 254
  )) {
    throw new Error('need --users ≥ 2, 1 ≤ --groups ≤ --users, --rate > 0, --duration > 0, --connects-in-flight ≥ 1, 0 ≤ --source-addresses ≤ 254');
  }
  return { ...opts, urls };
}

function serverCpu(pids: number[]): number | null {
  const each = pids.map(cpuSecondsOf);
  return each.includes(null) ? null : (each as number[]).reduce((a, b) => a + b, 0);
}

const percentile = (sorted: Float64Array, p: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);
function summary(values: number[]) {
  const s = Float64Array.from(values).sort();
  return { n: s.length, p50: percentile(s, 0.5), p95: percentile(s, 0.95), p99: percentile(s, 0.99), max: s.length ? s[s.length - 1] : NaN };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, read by the caller
async function api(base: string, method: string, path: string, body: unknown, token?: string): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(base + path, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = res.status === 204 ? null : await res.json();
    if (res.status === 429) {
      throw new Error(`${method} ${path}: 429 rate limited — start the server with AUTH_RATE_LIMIT_IP=1000000 for load tests`);
    }
    if (!res.ok) {
      if (attempt < 3 && res.status >= 500) continue;
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    }
    return json;
  }
}

/** Users and groups through Parley's API, or from --setup-file; every user ends up in exactly one group. */
async function setUpParley(opts: Options): Promise<Setup> {
  const auth = (u: LoadUser) => ({ token: u.token });
  if (opts.setupFile && existsSync(opts.setupFile)) {
    const saved = JSON.parse(readFileSync(opts.setupFile, 'utf8')) as Omit<Setup, 'auth'>;
    if (saved.users.length !== opts.users || saved.groups.length !== opts.groups) throw new Error(`${opts.setupFile} holds another --users / --groups`);
    console.log(`took ${saved.users.length} users in ${saved.groups.length} groups from ${opts.setupFile}`);
    return { ...saved, auth };
  }
  const run = randomBytes(4).toString('hex');
  const base = opts.urls[0];
  const password = `load-${randomBytes(8).toString('hex')}`;
  const started = performance.now();
  const users = await inParallel([...Array(opts.users).keys()], 8, async (i): Promise<LoadUser> => {
    const res = await api(base, 'POST', '/api/user', { email: `load.${run}.${i}@loadtest.invalid`, password, name: 'Load', surname: `User ${i}` });
    return { code: res.user.code, token: res.token };
  });
  const members = Array.from({ length: opts.groups }, (): LoadUser[] => []);
  users.forEach((u, i) => members[i % opts.groups].push(u));
  const groups = await inParallel(members, 8, async (list) => {
    const res = await api(base, 'PUT', '/api/message/groups', { userList: list.slice(1).map((u) => u.code), createNewGroup: true }, list[0].token);
    for (const u of list) u.group = res.group.code;
    return { code: res.group.code, size: list.length };
  });
  console.log(`set up ${users.length} users in ${groups.length} groups in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (opts.setupFile) writeFileSync(opts.setupFile, JSON.stringify({ users, groups }));
  return { users, groups, auth };
}

/** The same shape for the bare relay: synthetic users, the group named in the handshake. */
function setUpBaseline(opts: Options): Setup {
  const users = Array.from({ length: opts.users }, (_, i): LoadUser => ({ code: `u${i}`, group: `g${i % opts.groups}` }));
  const groups = Array.from({ length: opts.groups }, (_, g) => ({ code: `g${g}`, size: users.filter((u) => u.group === `g${g}`).length }));
  return { users, groups, auth: (u: LoadUser) => ({ userCode: u.code, groups: [u.group] }) };
}

/**
 * How late this process's event loop runs while it measures: a delivery that arrives while the loop is busy
 * (its own garbage collection, a burst of frames, or no core free on a loaded machine) is read, and timed, late.
 * Overall p99 and max, and the max of each second, in ms.
 */
function watchGeneratorDelay() {
  // The histograms hold the time between checks made every RESOLUTION_MS: lateness is what exceeds it.
  const RESOLUTION_MS = 5;
  const late = (ns: number) => Math.max(0, ns / 1e6 - RESOLUTION_MS);
  const overall = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const second = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const maxBySecond: number[] = [];
  overall.enable();
  second.enable();
  const tick = setInterval(() => {
    maxBySecond.push(late(second.max));
    second.reset();
  }, 1000);
  return {
    stop() {
      clearInterval(tick);
      overall.disable();
      second.disable();
      // Two histograms sample a moment apart, so the overall max is taken over both.
      const max = Math.max(late(overall.max), ...maxBySecond);
      return { overall: { p99: Math.min(late(overall.percentile(99)), max), max }, maxBySecond };
    },
  };
}

/** One message of the run: its first attempt, the attempt in flight now, and what became of it. */
interface Outgoing {
  firstAt: number;
  attemptAt: number;
  group: string;
  warmup: boolean;
  attempts: number;
}

/** A send refused under load (503 SHARED.ERROR.OVERLOADED) is sent again after retryAfterMs, doubling per refusal up to this, with jitter (as the app does). */
const RETRY_CAP_MS = 30_000;
const ACK_TIMEOUT_MS = 10_000;

function retryDelay(retryAfterMs: number, attempts: number): number {
  const backoff = Math.min(RETRY_CAP_MS, retryAfterMs * 2 ** (attempts - 1));
  // Full jitter between half and all of it, so refused senders do not come back together.
  return backoff * (0.5 + Math.random() / 2);
}

async function drive(label: string, urls: string[], setup: Setup, opts: Options) {
  const { users, groups, auth } = setup;
  const sizeOf = new Map(groups.map((g) => [g.code, g.size]));
  const sent = new Map<string, Outgoing>();
  const ackLatency: number[] = [];
  const receiveLatency: number[] = [];
  const deliveryLag: number[] = [];
  /** with --timeline: send→receive latencies by the second of the measured window their message was sent in */
  const bySecond: number[][] = [];
  let measuredFrom = 0;
  let measuredFromClock = 0;
  let expected = 0;
  let delivered = 0;
  let duplicated = 0;
  let outOfOrder = 0;
  let failedAcks = 0;
  let refusals = 0;
  let retries = 0;
  let acceptedAfterRefusal = 0;
  let inFlight = 0;
  /** refused messages waiting for their next attempt */
  const waiting = new Map<string, NodeJS.Timeout>();
  /** set once the drain ends: refusals from then on are not retried */
  let stopping = false;
  /** messages never acknowledged: still refused when the drain ended */
  let unsent = 0;

  // Handshakes are paced (--connects-in-flight), as real users arrive: 2,000 at once overflow the server's listen
  // backlog (511), and the figures measured afterwards were worse for the bare relay as well as for Parley.
  const sockets = await inParallel(
    users,
    opts.connectsInFlight,
    (u, i) =>
      new Promise<Socket>((resolve, reject) => {
        // engine.io-client's websocket transport hands localAddress to ws (its types do not list it).
        // Drawn at random, not from i: ip_hash maps consecutive networks round-robin, so i % K would put the two
        // members of a direct chat (users i and i + groups) on the same server whenever N divides the gap.
        const network = 1 + Math.floor(Math.random() * opts.sourceAddresses);
        const source = opts.sourceAddresses ? ({ localAddress: `127.0.${network}.1` } as object) : {};
        const socket = io(urls[i % urls.length], { auth: auth(u), transports: ['websocket'], reconnection: false, forceNew: true, ...source });
        const seen = new Set<string>();
        const lastSeq = new Map<string, number>();
        socket.on('message:new', (m: NewMessage) => {
          if (m.userCode === u.code) return;
          const origin = sent.get(m.clientKey);
          if (origin?.warmup) return;
          if (seen.has(m.code)) {
            duplicated++;
            return;
          }
          seen.add(m.code);
          delivered++;
          if (origin) {
            const now = performance.now();
            receiveLatency.push(now - origin.firstAt);
            if (opts.timeline) (bySecond[Math.floor((origin.firstAt - measuredFrom) / 1000)] ??= []).push(now - origin.firstAt);
            // A refused attempt stores nothing, so what arrives is the attempt in flight.
            deliveryLag.push(now - origin.attemptAt);
          }
          if (m.seq <= (lastSeq.get(m.groupCode) ?? 0)) outOfOrder++;
          lastSeq.set(m.groupCode, m.seq);
        });
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', (err: Error & { description?: { message?: string } }) =>
          reject(new Error(`${label}: socket ${i} could not connect: ${err.message}${err.description?.message ? ` (${err.description.message})` : ''}`)),
        );
      }),
  );
  console.log(
    `${label}: ${sockets.length} sockets connected over ${urls.length} URL(s); sending ${opts.rate} msg/s, ${opts.warmup} s warm-up then ${opts.duration} s measured`,
  );

  /** One attempt of a message; a refusal under load sends it again later with the same client key. */
  const attempt = (i: number, clientKey: string, text: string) => {
    const out = sent.get(clientKey)!;
    out.attemptAt = performance.now();
    out.attempts++;
    inFlight++;
    sockets[i]
      .timeout(ACK_TIMEOUT_MS)
      .emit(
        'message:send',
        { groupCode: out.group, clientKey, message: text },
        (err: Error | null, reply?: { ok?: boolean; error?: { code?: number; data?: { retryAfterMs?: number } } }) => {
          inFlight--;
          const retryAfterMs = reply?.error?.code === 503 ? reply.error.data?.retryAfterMs : undefined;
          if (!err && retryAfterMs !== undefined) {
            if (out.warmup) return;
            refusals++;
            if (stopping) {
              unsent++;
              return;
            }
            retries++;
            waiting.set(
              clientKey,
              setTimeout(
                () => {
                  waiting.delete(clientKey);
                  attempt(i, clientKey, text);
                },
                retryDelay(retryAfterMs, out.attempts),
              ),
            );
            return;
          }
          if (out.warmup) return;
          // A timed-out send may still have been stored: its deliveries are expected, as before retries existed.
          expected += sizeOf.get(out.group)! - 1;
          if (err || !reply?.ok) failedAcks++;
          else {
            ackLatency.push(performance.now() - out.attemptAt);
            if (out.attempts > 1) acceptedAfterRefusal++;
          }
        },
      );
  };

  /** Sends at the rate for `seconds`; a warm-up's messages (caches filling, JIT) count in no figure. */
  const traffic = (seconds: number, warmup: boolean) =>
    new Promise<number>((resolve) => {
      const started = performance.now();
      let count = 0;
      const timer = setInterval(() => {
        const elapsed = (performance.now() - started) / 1000;
        if (elapsed >= seconds) {
          clearInterval(timer);
          return resolve(count);
        }
        const due = Math.floor(elapsed * opts.rate) - count;
        for (let k = 0; k < due; k++) {
          const i = Math.floor(Math.random() * users.length);
          const clientKey = `${warmup ? 'w' : 'k'}${count}-${randomBytes(3).toString('hex')}`;
          const now = performance.now();
          sent.set(clientKey, { firstAt: now, attemptAt: now, group: users[i].group!, warmup, attempts: 0 });
          count++;
          attempt(i, clientKey, opts.texts?.length ? `${opts.texts[count % opts.texts.length]} ${count}` : `load ${count}`);
        }
      }, 5);
    });
  const warmupSent = opts.warmup > 0 ? await traffic(opts.warmup, true) : 0;
  if (opts.warmup > 0) await new Promise((r) => setTimeout(r, 1000));
  const cpuBefore = opts.serverPids ? serverCpu(opts.serverPids) : null;
  const cpuBeforeByPid = (opts.serverPids ?? []).map(cpuSecondsOf);
  const machineBefore = machineCpu();
  const processesBefore = opts.byProcess ? processCpu() : null;
  const generatorBefore = process.cpuUsage();
  const delayWatch = watchGeneratorDelay();
  measuredFrom = performance.now();
  measuredFromClock = Date.now();
  const sentCount = await traffic(opts.duration, false);
  const generatorDelay = delayWatch.stop();
  const byProcess = processesBefore ? cpuByClass(processesBefore, processCpu()) : null;
  const cpuAfter = opts.serverPids ? serverCpu(opts.serverPids) : null;
  const cpuAfterByPid = (opts.serverPids ?? []).map(cpuSecondsOf);
  const machineAfter = machineCpu();
  const generatorCpu = process.cpuUsage(generatorBefore);
  // Refused messages keep being retried during the drain; those still refused when it ends were never
  // acknowledged (not lost: the sender still holds them). Then what is in flight is answered and delivered.
  const pause = () => new Promise((r) => setTimeout(r, 50));
  const drainUntil = performance.now() + opts.drain * 1000;
  while ((waiting.size || inFlight || delivered < expected) && performance.now() < drainUntil) await pause();
  stopping = true;
  unsent += waiting.size;
  waiting.forEach((timer) => clearTimeout(timer));
  waiting.clear();
  const settleUntil = performance.now() + ACK_TIMEOUT_MS;
  while ((inFlight || delivered < expected) && performance.now() < settleUntil) await pause();
  sockets.forEach((s) => s.close());
  const accepted = ackLatency.length;

  return {
    label,
    sockets: sockets.length,
    groups: groups.length,
    targetRate: opts.rate,
    achievedRate: sentCount / opts.duration,
    durationS: opts.duration,
    sent: sentCount,
    warmupSent,
    acked: accepted,
    failedAcks,
    refusals,
    retries,
    acceptedAfterRefusal,
    unsent,
    expectedDeliveries: expected,
    delivered,
    lost: Math.max(0, expected - delivered),
    duplicated,
    outOfOrder,
    sendToAckMs: summary(ackLatency),
    sendToReceiveMs: summary(receiveLatency),
    deliveryLagMs: summary(deliveryLag),
    /** with --timeline: each second of the measured window (its start as epoch ms) and its deliveries' latencies */
    timeline: opts.timeline
      ? Array.from(bySecond, (ms, k) => ({ at: measuredFromClock + k * 1000, ...summary(ms ?? []), generatorDelayMax: generatorDelay.maxBySecond[k] ?? NaN }))
      : null,
    serverCpuMsPerMessage: cpuBefore !== null && cpuAfter !== null && sentCount > 0 ? ((cpuAfter - cpuBefore) * 1000) / sentCount : null,
    /** per --server-pids entry, in its order: that process's CPU per message sent (all servers' messages) */
    serverCpuMsPerMessageByPid: (opts.serverPids ?? []).map((pid, k) => {
      const [before, after] = [cpuBeforeByPid[k], cpuAfterByPid[k]];
      return { pid, ms: before !== null && after !== null && sentCount > 0 ? ((after - before) * 1000) / sentCount : null };
    }),
    serverCpuPercent: cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) / opts.duration) * 100 : null,
    generatorCpuPercent: ((generatorCpu.user + generatorCpu.system) / 1e6 / opts.duration) * 100,
    /** how late the generator's own event loop ran over the measured window (ms): a delivery read late was measured late */
    generatorDelayMs: generatorDelay.overall,
    /** the longest such delay in each second of the measured window (by the clock, as the timeline's seconds) */
    generatorDelayMaxMsBySecond: generatorDelay.maxBySecond,
    /** with --by-process: CPU ms per message sent of each kind of process on the machine, and of the machine */
    cpuMsPerMessageByProcess:
      byProcess && sentCount > 0
        ? {
            processes: Object.fromEntries(Object.entries(byProcess).map(([cls, seconds]) => [cls, (seconds * 1000) / sentCount])),
            machine: machineBefore && machineAfter ? ((machineAfter.busy - machineBefore.busy) * 1000) / sentCount : null,
          }
        : null,
    machineBusyPercent: machineBefore && machineAfter ? ((machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)) * 100 : null,
  };
}

type Result = Awaited<ReturnType<typeof drive>>;

function print(r: Result): void {
  const f = (x: number | null) => (x !== null && Number.isFinite(x) ? x.toFixed(1) : '-');
  console.log(`\n== ${r.label}: ${r.sockets} sockets, ${r.groups} groups, ${f(r.achievedRate)} msg/s for ${r.durationS} s`);
  console.log(
    `   send→ack      p50 ${f(r.sendToAckMs.p50)}  p95 ${f(r.sendToAckMs.p95)}  p99 ${f(r.sendToAckMs.p99)}  max ${f(r.sendToAckMs.max)} ms (${r.acked}/${r.sent} acked, ${r.failedAcks} failed)`,
  );
  console.log(
    `   send→receive  p50 ${f(r.sendToReceiveMs.p50)}  p95 ${f(r.sendToReceiveMs.p95)}  p99 ${f(r.sendToReceiveMs.p99)}  max ${f(r.sendToReceiveMs.max)} ms (from the first attempt)`,
  );
  if (r.refusals > 0) {
    console.log(
      `   delivery lag  p50 ${f(r.deliveryLagMs.p50)}  p95 ${f(r.deliveryLagMs.p95)}  p99 ${f(r.deliveryLagMs.p99)}  max ${f(r.deliveryLagMs.max)} ms (from the accepted attempt)`,
    );
    console.log(
      `   refused       ${r.refusals} attempts (503 overloaded); ${r.retries} retries; ${r.acceptedAfterRefusal} messages accepted after a refusal, ${r.unsent} still refused when the drain ended`,
    );
  }
  if (r.serverCpuMsPerMessage != null)
    console.log(`   server CPU    ${f(r.serverCpuMsPerMessage * 1000)} µs per message sent, ${f(r.serverCpuPercent)} % of one core`);
  console.log(`   generator CPU ${f(r.generatorCpuPercent)} % of one core (near 100 % the generator itself adds latency)`);
  console.log(
    `   generator     event loop late by p99 ${f(r.generatorDelayMs.p99)}  max ${f(r.generatorDelayMs.max)} ms (what arrives meanwhile is read, and timed, that much later)`,
  );
  if (r.machineBusyPercent != null)
    console.log(`   machine CPU   ${f(r.machineBusyPercent)} % busy (all cores, every process: the generator, databases and anything else running)`);
  if (r.cpuMsPerMessageByProcess) {
    const { processes, machine } = r.cpuMsPerMessageByProcess;
    const list = Object.entries(processes)
      .sort(([, a], [, b]) => b - a)
      .map(([cls, ms]) => `${cls} ${f(ms * 1000)}`)
      .join(' · ');
    console.log(`   by process    ${list} µs per message sent; the machine ${f(machine === null ? null : machine * 1000)} (with the kernel's own)`);
  }
  console.log(`   delivered ${r.delivered}/${r.expectedDeliveries}  lost ${r.lost}  duplicated ${r.duplicated}  out of order ${r.outOfOrder}`);
  for (const [k, s] of (r.timeline ?? []).entries()) {
    const clock = new Date(s.at).toISOString().slice(11, 19);
    console.log(
      `   second ${String(k + 1).padStart(3)} (${clock})  ${String(s.n).padStart(6)} deliveries  p50 ${f(s.p50)}  p99 ${f(s.p99)}  max ${f(s.max)} ms  (generator late by up to ${f(s.generatorDelayMax)} ms)`,
    );
  }
}

async function startBareRelay(asked: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'bare-relay.mts'), String(asked)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`bare relay exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill('SIGTERM') };
}

const results: Result[] = [];
try {
  const opts = parseArgs(process.argv.slice(2));
  // --rates 200,400,600 steps through several rates with the same users and groups.
  const rates = opts.rates ?? [opts.rate];
  if (opts.baseline !== 'only') {
    const setup = await setUpParley(opts);
    for (const rate of rates) results.push(await drive('parley', opts.urls, setup, { ...opts, rate }));
  }
  if (opts.baseline) {
    const relay = await startBareRelay(opts.relayPort);
    try {
      // Its CPU is the relay's own (with --server-pids), not the Parley servers'.
      const relayPids = opts.serverPids ? [relay.pid] : undefined;
      for (const rate of rates) results.push(await drive('bare socket.io', [relay.url], setUpBaseline(opts), { ...opts, rate, serverPids: relayPids }));
    } finally {
      relay.stop();
    }
  }
  results.forEach(print);
  if (opts.out) {
    writeFileSync(opts.out, JSON.stringify({ at: new Date().toISOString(), options: opts, results }, null, 2));
    console.log(`\nwrote ${opts.out}`);
  }
  process.exit(0);
} catch (err) {
  console.error((err as Error).message ?? err);
  process.exit(1);
}
