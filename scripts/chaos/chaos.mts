// npm run chaos [-- --quick] [--faults server-kill,redis-restart,postgres-restart,worker-kill,client-offline]
//   [--sockets 100] [--rate 80] [--before 10] [--after 15] [--down 5] [--offline 60] [--burst 500] [--pushes 5]
//   [--redis-loading 2] [--port-base 4410] [--json result.json] [--keep-logs dir]
// The fault suite: its own Redis and PostgreSQL (never the shared ones), two servers, a worker and the local
// push service; real socket clients that reconnect, sync and dedupe; one fault after another while traffic
// flows; a table of what each fault cost. Exits 1 when any check fails, 2 when the suite itself could not run.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, portFree, setLogName, sleep, waitUntil } from '../lib/common.mts';
import { buildIfStale, tscBin } from '../lib/build.mts';
import { ChaosStack, type StackPorts } from './stack.mts';
import { ChatClient, type ChaosUser, api, newStats } from './clients.mts';
import { FAULTS, FAULT_ORDER } from './faults.mts';
import { deliveryFaults, liveMissedOf, settledUnreadDiffs } from './measure.mts';
import { checksOf, printTable } from './report.mts';
import type { ChaosOptions, Probe, PushUser, QuietChat, Row, World } from './types.mts';

const DEFAULTS = {
  sockets: 100,
  rate: 80,
  before: 10,
  after: 15,
  down: 5,
  offline: 60,
  burst: 500,
  pushes: 5,
  portBase: 4410,
  pushDelayMs: 1000,
  redisLoading: 2,
};
const QUICK = { sockets: 30, rate: 30, before: 3, after: 4, down: 3, offline: 20, burst: 500, pushes: 3 };
const GROUP_SIZE = 5;
const QUIET_PAIRS = 4;

export function parseArgs(argv: string[]): ChaosOptions {
  const opts: ChaosOptions = { ...DEFAULTS, faults: FAULT_ORDER, json: null };
  const numeric: Record<string, keyof typeof DEFAULTS> = {
    '--sockets': 'sockets',
    '--rate': 'rate',
    '--before': 'before',
    '--after': 'after',
    '--down': 'down',
    '--offline': 'offline',
    '--burst': 'burst',
    '--pushes': 'pushes',
    '--port-base': 'portBase',
    '--redis-loading': 'redisLoading',
  };
  const given: Partial<ChaosOptions> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = () => inline ?? argv[++i];
    if (flag === '--quick') Object.assign(opts, QUICK);
    else if (flag === '--faults') opts.faults = value().split(',').filter(Boolean);
    else if (flag === '--json') opts.json = value();
    else if (flag === '--keep-logs') opts.keepLogs = value();
    else if (numeric[flag]) {
      const n = Number(value());
      if (!Number.isFinite(n) || n < 0 || (n === 0 && flag !== '--redis-loading')) throw new Error(`${flag} needs a positive number`);
      given[numeric[flag]] = n;
    } else if (flag === '--help' || flag === '-h') opts.help = true;
    else throw new Error(`unknown option ${flag} (try --help)`);
  }
  Object.assign(opts, given);
  const unknown = opts.faults.filter((f) => !FAULTS[f]);
  if (unknown.length) throw new Error(`unknown fault ${unknown.join(', ')}: choose from ${FAULT_ORDER.join(', ')}`);
  if (opts.sockets < GROUP_SIZE * 2) throw new Error(`--sockets must be at least ${GROUP_SIZE * 2}`);
  if (opts.portBase < 1024 || opts.portBase > 65530) throw new Error('--port-base must leave room for 5 ports below 65536');
  return opts;
}

const log = (message: string): boolean => process.stdout.write(`[chaos] ${message}\n`);

/** The push service is TypeScript (test/push-service): compiled into dist/ when its source is newer. */
function buildPushService(): void {
  const source = path.join(ROOT, 'test/push-service/push-service.ts');
  const built = path.join(ROOT, 'dist/test/push-service/push-service.js');
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= fs.statSync(source).mtimeMs) return;
  const res = spawnSync(process.execPath, [tscBin(), '-p', 'test/push-service/tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`could not compile the push service:\n${res.stdout}${res.stderr}`);
}

/** Users, groups, sockets and push subscriptions for the run, through the API like real clients. */
async function populate(stack: ChaosStack, opts: ChaosOptions): Promise<World> {
  const base = stack.serverUrl(0);
  const urls = stack.ports.servers.map((_, i) => stack.serverUrl(i));
  let n = 0;
  // Random, so no password policy can find it common or derived from the user's name or e-mail.
  const password = `Ch-${randomBytes(12).toString('base64url')}`;
  const register = async (): Promise<ChaosUser> => {
    const i = n++;
    const res = await api(base, 'POST', '/api/user', { email: `chaos.${i}.${Date.now()}@chaos.invalid`, password, name: 'Chaos', surname: `User ${i}` });
    return { code: res.user.code, token: res.token, groups: [] };
  };
  const inBatches = async (count: number, fn: () => Promise<ChaosUser>) => {
    const out: ChaosUser[] = [];
    for (let i = 0; i < count; i += 10) out.push(...(await Promise.all(Array.from({ length: Math.min(10, count - i) }, fn))));
    return out;
  };
  const group = async (members: ChaosUser[]): Promise<string> => {
    const res = await api(base, 'PUT', '/api/message/groups', { userList: members.slice(1).map((u) => u.code), createNewGroup: true }, members[0].token);
    for (const u of members) u.groups.push(res.group.code);
    return res.group.code;
  };
  // Chats of GROUP_SIZE people (the sockets are rounded up to fill the last one).
  const traffic = await inBatches(Math.ceil(opts.sockets / GROUP_SIZE) * GROUP_SIZE, register);
  for (let i = 0; i < traffic.length; i += GROUP_SIZE) await group(traffic.slice(i, i + GROUP_SIZE));
  const quietUsers = await inBatches(QUIET_PAIRS * 2, register);
  const quiet: { sender: ChaosUser; recipient: ChaosUser; group: string }[] = [];
  for (let i = 0; i < quietUsers.length; i += 2)
    quiet.push({ sender: quietUsers[i], recipient: quietUsers[i + 1], group: await group([quietUsers[i], quietUsers[i + 1]]) });
  const [canaryA, canaryB] = await inBatches(2, register);
  await group([canaryA, canaryB]);
  const pushSenderUser = await register();
  const pushUsers: PushUser[] = [];
  for (let i = 0; i < opts.pushes; i++) {
    const user = await register();
    const sub = stack.push.subscribe(stack.vapidPublicKey);
    await api(base, 'POST', '/api/User/WebPush/Register', { endpoint: sub.endpoint, keys: sub.keys }, user.token);
    pushUsers.push({ user, sub, group: await group([pushSenderUser, user]) });
  }

  const stats = newStats();
  let k = 0;
  const client = (user: ChaosUser) => new ChatClient({ user, urls, urlIndex: k++, stats });
  const trafficClients = traffic.map(client);
  const quietChats: QuietChat[] = quiet.map((q) => ({ ...q, sender: client(q.sender), recipient: client(q.recipient) }));
  const canary: [ChatClient, ChatClient] = [client(canaryA), client(canaryB)];
  const pushSender = client(pushSenderUser);
  const world: World = {
    trafficClients,
    quiet: quietChats,
    canary,
    pushSender,
    pushUsers,
    all: [...trafficClients, ...quietChats.flatMap((q) => [q.sender, q.recipient]), ...canary, pushSender],
  };
  world.all.forEach((c) => c.connect());
  if (!(await waitUntil(async () => world.all.every((c) => c.connected), 60_000, 100))) throw new Error('not every socket connected');
  return world;
}

/** Sends at opts.rate from random traffic clients into their chats, and marks chats read now and then. */
function startTraffic(world: World, opts: ChaosOptions): () => void {
  const clients = world.trafficClients;
  let due = 0;
  const started = performance.now();
  let sent = 0;
  const sender = setInterval(() => {
    due = Math.floor(((performance.now() - started) / 1000) * opts.rate) - sent;
    for (; due > 0; due--, sent++) {
      const c = clients[Math.floor(Math.random() * clients.length)];
      if (c.online) void c.send(c.user.groups[0], `chaos ${sent}`);
    }
  }, 10);
  const reader = setInterval(() => {
    for (const c of clients) if (Math.random() < 0.2) void c.markRead(c.user.groups[0]);
  }, 1000);
  return () => {
    clearInterval(sender);
    clearInterval(reader);
  };
}

/** Time until every online socket is connected and a canary message goes from one client to another live. */
async function canaryRoundTrip(world: World, since: number, timeoutMs = 120_000): Promise<number> {
  const [a, b] = world.canary;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (world.all.every((c) => !c.online || c.connected)) {
      const message = await Promise.race([a.send(a.user.groups[0], `canary ${Date.now()}`), sleep(3000).then(() => null)]);
      if (message && (await waitUntil(async () => b.received.has(message.code), 3000, 20))) return Date.now() - since;
    }
    await sleep(100);
  }
  return Infinity;
}

/** Health of every running server every 500 ms: the status codes seen (0 = no answer). */
function watchHealth(stack: ChaosStack): () => Promise<Map<number, number>> {
  const codes = new Map<number, number>();
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      await Promise.all(
        stack.servers.map(async (s, i) => {
          if (!s.running) return;
          const code = await stack.health(i);
          codes.set(code, (codes.get(code) ?? 0) + 1);
        }),
      );
      await sleep(500);
    }
  })();
  return async () => {
    stop = true;
    await loop;
    return codes;
  };
}

async function runFault(name: string, stack: ChaosStack, world: World, opts: ChaosOptions): Promise<Row> {
  const fault = FAULTS[name];
  const stats = newStats();
  world.all.forEach((c) => (c.stats = stats));
  const startedAt = Date.now();
  log(`${fault.title}: traffic for ${opts.before} s, then the fault`);
  const stopHealth = watchHealth(stack);
  const stopTraffic = startTraffic(world, opts);
  await sleep(opts.before * 1000);

  const probes: Probe[] = [];
  const sendQuiet = () =>
    world.quiet.map((q) => {
      const probe: Probe = { recipient: q.recipient, ackedAt: null, code: null };
      probes.push(probe);
      probe.done = q.sender.send(q.group, `quiet ${name}`).then((m) => Object.assign(probe, { ackedAt: Date.now(), code: m.code }));
      return probe;
    });
  const result = await fault.inject({ stack, world, opts, sendQuiet });
  const recoveryMs = result.recoveryMs ?? (await canaryRoundTrip(world, result.endedAt));
  await result.after?.();
  log(`${fault.title}: recovered in ${(recoveryMs / 1000).toFixed(1)} s; traffic for ${opts.after} s more`);
  await sleep(opts.after * 1000);
  stopTraffic();

  // Drain: every send acknowledged, the last unread:count pushes in, then every client syncs once more.
  // (A send never acknowledged within the drain shows as sends > acked; a probe never sent as live-missed.)
  await waitUntil(async () => world.all.every((c) => c.outbox.size === 0), 120_000, 100);
  await Promise.race([Promise.all(probes.map((p) => p.done)), sleep(30_000)]);
  await sleep(2000);
  await Promise.all(world.all.map((c) => (c.online && c.connected ? c.syncAll() : undefined)));
  const healthCodes = await stopHealth();
  await stack.waitAllHealthy();

  const { lost, duplicated } = await deliveryFaults(stack, world, stats);
  const liveMissed = liveMissedOf(probes, result.endedAt);
  const unreadDiffs = await settledUnreadDiffs(world.all.filter((x) => x.online));
  const row: Row = {
    fault: name,
    title: fault.title,
    sends: stats.sends,
    acked: stats.acked,
    lost,
    duplicated,
    outOfOrder: stats.outOfOrder,
    liveMissed,
    quietProbes: probes.length,
    reconnects: stats.reconnects,
    unreadMismatches: unreadDiffs.length,
    unreadDiffs: unreadDiffs.slice(0, 10),
    recoveryMs,
    exits: stack.notesSince(startedAt, 'exit').map((n) => n.text),
    unhandled: stack.notesSince(startedAt, 'unhandled').map((n) => n.text),
    healthCodes: Object.fromEntries([...healthCodes].sort(([a], [b]) => a - b)),
    pushDelaysMs: result.pushDelays ?? null,
    burst: result.burst ?? null,
  };
  log(`${fault.title}: done`);
  return row;
}

async function main(): Promise<number | undefined> {
  setLogName('chaos');
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) {
    const header = fs.readFileSync(new URL(import.meta.url), 'utf8').split('\n');
    console.log(
      header
        .slice(
          0,
          header.findIndex((l) => !l.startsWith('//')),
        )
        .map((l) => l.replace(/^\/\/ ?/, ''))
        .join('\n'),
    );
    return 0;
  }
  const ports: StackPorts = { redis: opts.portBase, postgres: opts.portBase + 1, servers: [opts.portBase + 2, opts.portBase + 3], push: opts.portBase + 4 };
  const busy: number[] = [];
  for (const port of [ports.redis, ports.postgres, ...ports.servers, ports.push]) if (!(await portFree(port))) busy.push(port);
  if (busy.length) throw new Error(`port(s) ${busy.join(', ')} in use (another chaos run?): stop it, or pick others with --port-base`);
  await buildIfStale({ client: false });
  buildPushService();

  const stack = new ChaosStack({ ports, log });
  const stopAll = async (code: number) => {
    if (opts.keepLogs) stack.copyLogs(opts.keepLogs);
    log('cleaning up…');
    world?.all.forEach((c) => c.close());
    await stack.stop();
    process.exit(code);
  };
  let world: World | undefined;
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      log(`${signal}: stopping`);
      void stopAll(130);
    });
  }
  try {
    log(
      `own Redis on ${ports.redis}, PostgreSQL on ${ports.postgres}, servers on ${ports.servers.join(' and ')}, push service on ${ports.push} (temp folder ${stack.dir})`,
    );
    await stack.start({ pushDelayMs: opts.pushDelayMs });
    world = await populate(stack, opts);
    log(
      `${world.all.length} sockets (${world.trafficClients.length} sending ${opts.rate} msg/s), ${world.quiet.length} quiet chats, ${world.pushUsers.length} push subscribers`,
    );
    const rows: Row[] = [];
    for (const name of opts.faults) rows.push(await runFault(name, stack, world, opts));
    const stray = await stack.strayKeys();
    const checks = checksOf(rows, { stray, burstMin: opts.burst });
    printTable(rows, checks, stray);
    if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ at: new Date().toISOString(), options: opts, rows, stray, checks }, null, 2));
    await stopAll(checks.every((c) => c.ok) ? 0 : 1);
  } catch (err) {
    log(`error: ${(err as Error | undefined)?.stack ?? err}`);
    await stopAll(2);
  }
}

process.on('unhandledRejection', (err) => log(`unhandled rejection in the suite: ${(err as Error | undefined)?.stack ?? err}`));
main().catch((err) => {
  log(`error: ${(err as Error | undefined)?.message ?? err}`);
  process.exit(2);
});
