// The docker-compose topology as processes on this machine, and the load generator through it:
//   npm run loadtest:cluster -- [--servers 1,2,4] [--users 2000] [--groups 1000] [--rate 300] [--duration 20]
//                               [--warmup 5] [--port-base 4510] [--source-addresses 64] [--verbose] [--out result.json]
// For each server count N: N built server processes (dist/, `npm run build:server` first) with the production
// environment, one worker, and Debian's nginx (/usr/sbin/nginx, `apt-get install nginx`) in front of them
// with deploy/nginx.conf as it is, except what running unprivileged in a temp folder needs: the upstream's
// servers, the listen address, and the pid, log and temp paths (test/utils/nginx.ts, shared with the
// rolling-restart test). They share one PostgreSQL database of their own
// (DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432, database parley_cluster_<random>, dropped
// at the end) and Redis (REDIS_URL, default redis://127.0.0.1:6379) under a prefix of their own (removed at the
// end). nginx listens on --port-base, the servers on the ports after it.
// Then it runs scripts/load/loadtest.mts against nginx (its sockets spread over --source-addresses loopback
// networks, which ip_hash balances) with every server's pid, and prints per N: send→receive p50/p99, lost,
// duplicated and out of order, the servers' CPU per message sent (total and per node), and per node the fan-out
// entries it received (from its inbox, or in its own gate calls' answers) ÷ the messages sent (the node's own
// counters, from its fan-out stats in Redis).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SERVER_MAIN, SERVER_V8_FLAGS, WORKER_MAIN } from '../lib/build.mts';
import { ROOT, sleep } from '../lib/common.mts';
import { cpuSecondsOf } from '../lib/measure.mts';
import { dropDatabase, ensureDatabase, type NodeProcess, startNode, waitFor } from '../lib/node-process.mts';
import { NGINX, nginxArgs, nginxConfig, requireNginx } from '../../test/utils/nginx.ts';

const require = createRequire(import.meta.url);
const { createClient } = require('redis') as typeof import('redis');
const webPush = require('web-push') as { generateVAPIDKeys: () => { publicKey: string; privateKey: string } };

const IDLE_SAMPLE_MS = 5000;

interface Options {
  servers: number[];
  users: number;
  groups: number;
  rate: number;
  duration: number;
  warmup: number;
  portBase: number;
  sourceAddresses: number;
  verbose: boolean;
  out: string | null;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = {
    servers: [1, 2, 4],
    users: 2000,
    groups: 1000,
    rate: 300,
    duration: 20,
    warmup: 5,
    portBase: 4510,
    sourceAddresses: 64,
    verbose: false,
    out: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = (): string => inline ?? argv[++i];
    switch (flag) {
      case '--servers':
        opts.servers = value().split(',').map(Number);
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
      case '--duration':
        opts.duration = Number(value());
        break;
      case '--warmup':
        opts.warmup = Number(value());
        break;
      case '--port-base':
        opts.portBase = Number(value());
        break;
      case '--source-addresses':
        opts.sourceAddresses = Number(value());
        break;
      case '--verbose':
        opts.verbose = true;
        break;
      case '--out':
        opts.out = value();
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (!opts.servers.every((n) => Number.isInteger(n) && n >= 1 && n <= 8)) throw new Error('--servers: counts from 1 to 8');
  return opts;
}

/** The nginx worker's pid (the master forks it): its CPU is the proxy's share. */
function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

interface NodeStats {
  pid: number;
  read: number;
  delivered: number;
  rooms: number;
}

/** Every fan-out node's counters under the prefix (FanoutNode writes them to its stats hash on each heartbeat). */
async function fanoutStats(redisUrl: string, prefix: string): Promise<Map<number, NodeStats>> {
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  try {
    const stats = new Map<number, NodeStats>();
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}fanout:node:*`, COUNT: 100 })) {
      for (const key of keys) {
        const h = await redis.hGetAll(key);
        stats.set(Number(h.pid), { pid: Number(h.pid), read: Number(h.read ?? 0), delivered: Number(h.delivered ?? 0), rooms: Number(h.rooms ?? 0) });
      }
    }
    return stats;
  } finally {
    await redis.close();
  }
}

async function removePrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = createClient({ url: redisUrl });
  await redis.connect();
  try {
    for await (const keys of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) if (keys.length) await redis.del(keys);
  } finally {
    await redis.close();
  }
}

interface LoadResult {
  sent: number;
  warmupSent: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  failedAcks: number;
  achievedRate: number;
  sendToReceiveMs: { p50: number; p99: number };
  sendToAckMs: { p50: number; p99: number };
  serverCpuMsPerMessage: number | null;
  serverCpuMsPerMessageByPid: { pid: number; ms: number | null }[];
  machineBusyPercent: number | null;
}

interface Row {
  servers: number;
  load: LoadResult;
  nginxCpuMsPerMessage: number | null;
  nodes: { pid: number; sockets: number; cpuMsPerMessage: number | null; idleCpuPercent: number; readPerMessage: number; deliveredPerMessage: number }[];
  loadAverage: string;
}

async function runLoad(opts: Options, nginxPort: number, serverPids: number[], out: string): Promise<LoadResult> {
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'scripts', 'load', 'loadtest.mts'),
    '--url',
    `http://127.0.0.1:${nginxPort}`,
    '--users',
    String(opts.users),
    '--groups',
    String(opts.groups),
    '--rate',
    String(opts.rate),
    '--duration',
    String(opts.duration),
    '--warmup',
    String(opts.warmup),
    '--server-pids',
    serverPids.join(','),
    '--source-addresses',
    String(opts.sourceAddresses),
    '--setup-file',
    join(dirname(out), 'users.json'),
    '--out',
    out,
  ];
  const generator = startNode('loadtest', args, process.env, { verbose: true });
  const { code } = await generator.exited;
  if (code !== 0) throw new Error(`the load generator failed (exit ${code}):\n${generator.lines.slice(-20).join('\n')}`);
  return (JSON.parse(readFileSync(out, 'utf8')) as { results: LoadResult[] }).results[0];
}

async function runCluster(opts: Options, n: number, env: NodeJS.ProcessEnv, dir: string): Promise<Row> {
  const nginxPort = opts.portBase;
  const ports = Array.from({ length: n }, (_, k) => opts.portBase + 1 + k);
  const running: NodeProcess[] = [];
  const stopAll = () => Promise.all(running.reverse().map((p) => p.stop()));
  try {
    const startServer = async (port: number) => {
      const server = startNode(
        `server:${port}`,
        ['--enable-source-maps', ...SERVER_V8_FLAGS, SERVER_MAIN],
        { ...env, PORT: String(port) },
        { verbose: opts.verbose },
      );
      running.push(server);
      await waitFor(
        `the server on ${port}`,
        async () => (await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) })).status === 200,
        server,
      );
      return server;
    };
    // The first one runs the migrations; the others start once it is up.
    const servers = [await startServer(ports[0])];
    servers.push(...(await Promise.all(ports.slice(1).map(startServer))));
    running.push(startNode('worker', ['--enable-source-maps', WORKER_MAIN], { ...env, PORT: '0' }, { verbose: opts.verbose }));

    const nginxDir = mkdtempSync(join(dir, `nginx-${n}-`));
    writeFileSync(join(nginxDir, 'nginx.conf'), nginxConfig(nginxDir, nginxPort, ports));
    const nginx = startNode('nginx', nginxArgs(nginxDir), process.env, { verbose: true, program: NGINX });
    running.push(nginx);
    await waitFor('nginx', async () => (await fetch(`http://127.0.0.1:${nginxPort}/api/health`, { signal: AbortSignal.timeout(2000) })).status === 200, nginx);

    const pids = servers.map((s) => s.child.pid!);
    console.log(`\n### ${n} server(s) on ${ports.join(', ')} (pids ${pids.join(', ')}), one worker, nginx on ${nginxPort}; load average ${loadAverage()}`);
    await sleep(1500);
    // What each server costs doing nothing (timers, heartbeats, blocking reads), to set beside its CPU under load.
    const idleBefore = pids.map(cpuSecondsOf);
    await sleep(IDLE_SAMPLE_MS);
    const idleCpuPercent = pids.map((pid, k) => (((cpuSecondsOf(pid) ?? NaN) - (idleBefore[k] ?? NaN)) / (IDLE_SAMPLE_MS / 1000)) * 100);
    const before = await fanoutStats(env.REDIS_URL!, env.REDIS_PREFIX!);
    // The sockets each node holds, seen as its subscribed rooms (one user room per socket here) while the load runs.
    const sockets = new Map<number, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const now = await fanoutStats(env.REDIS_URL!, env.REDIS_PREFIX!).catch(() => new Map<number, NodeStats>());
        for (const s of now.values()) sockets.set(s.pid, Math.max(sockets.get(s.pid) ?? 0, s.rooms));
        await sleep(1000);
      }
    })();
    const nginxWorkers = childPids(nginx.child.pid!);
    const nginxCpu = () => nginxWorkers.reduce((sum, pid) => sum + (cpuSecondsOf(pid) ?? 0), 0);
    const nginxBefore = nginxCpu();
    const load = await runLoad(opts, nginxPort, pids, join(dir, `load-${n}.json`)).finally(() => (sampling = false));
    const nginxAfter = nginxCpu();
    await sampler;
    // Two heartbeats, so each node's counters in Redis include the last entries it read.
    await sleep(1500);
    const after = await fanoutStats(env.REDIS_URL!, env.REDIS_PREFIX!);
    const messages = load.sent + load.warmupSent;
    const nodes = pids.map((pid, k) => {
      const [b, a] = [before.get(pid), after.get(pid)];
      return {
        pid,
        sockets: sockets.get(pid) ?? 0,
        cpuMsPerMessage: load.serverCpuMsPerMessageByPid[k]?.ms ?? null,
        idleCpuPercent: idleCpuPercent[k],
        readPerMessage: a && b ? (a.read - b.read) / messages : NaN,
        deliveredPerMessage: a && b ? (a.delivered - b.delivered) / messages : NaN,
      };
    });
    return {
      servers: n,
      load,
      nodes,
      nginxCpuMsPerMessage: load.sent ? ((nginxAfter - nginxBefore) * 1000) / (load.sent + load.warmupSent) : null,
      loadAverage: loadAverage(),
    };
  } finally {
    await stopAll();
  }
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function print(rows: Row[]): void {
  const f = (x: number | null | undefined, digits = 1) => (x !== null && x !== undefined && Number.isFinite(x) ? x.toFixed(digits) : '-');
  console.log(
    '\n| servers | send→receive p50 / p99 | lost / dup / out of order | server CPU per message sent, total | per node | fan-out entries read per node ÷ messages sent | sockets per node | load average after |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) {
    const l = r.load;
    console.log(
      `| ${r.servers} | ${f(l.sendToReceiveMs.p50)} / ${f(l.sendToReceiveMs.p99)} ms | ${l.lost} / ${l.duplicated} / ${l.outOfOrder} | ${f((l.serverCpuMsPerMessage ?? NaN) * 1000, 0)} µs | ${r.nodes
        .map((x) => `${f((x.cpuMsPerMessage ?? NaN) * 1000, 0)}`)
        .join(', ')} µs | ${r.nodes.map((x) => f(x.readPerMessage, 2)).join(', ')} (sum ${f(
        r.nodes.reduce((s, x) => s + x.readPerMessage, 0),
        2,
      )}) | ${r.nodes.map((x) => x.sockets).join(', ')} | ${r.loadAverage} |`,
    );
  }
  for (const r of rows) {
    const idleMsPerMessage = r.nodes.map((x) => ((x.idleCpuPercent / 100) * 1000) / r.load.achievedRate);
    console.log(
      `${r.servers} server(s): idle CPU per node ${r.nodes.map((x) => f(x.idleCpuPercent)).join(', ')} % of a core before the load (${idleMsPerMessage
        .map((x) => f(x * 1000, 0))
        .join(', ')} µs per message at this rate)`,
    );
    console.log(
      `${r.servers} server(s): ${f(r.load.achievedRate)} msg/s measured (${r.load.sent} + ${r.load.warmupSent} warm-up sent, ${r.load.failedAcks} failed acks), send→ack p50 / p99 ${f(r.load.sendToAckMs.p50)} / ${f(r.load.sendToAckMs.p99)} ms, nginx CPU ${f((r.nginxCpuMsPerMessage ?? NaN) * 1000, 0)} µs per message, machine ${f(r.load.machineBusyPercent, 0)} % busy`,
    );
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  requireNginx();
  const run = randomBytes(4).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'parley-cluster-'));
  const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  databaseUrl.pathname = `/parley_cluster_${run}`;
  const vapid = webPush.generateVAPIDKeys();
  // What docker-compose.yml gives a server replica, pointed at this machine's services.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `parley-cluster-${run}:`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUBLIC_URL: `http://127.0.0.1:${opts.portBase}`,
    TRUST_PROXY: '1',
    FIRST_USER_ADMIN: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    FILES_DIR: join(dir, 'files'),
    // The load generator registers its users through nginx, all from one address.
    AUTH_RATE_LIMIT_IP: '1000000',
    // Heartbeats every 600 ms, so the counters read after a run are current.
    FANOUT_NODE_TTL_MS: '3000',
    // The users registered for the first server count are reused for the next ones (--setup-file).
    ACCESS_TOKEN_TTL: String(4 * 3600),
  };
  await ensureDatabase(env.DATABASE_URL!);
  const rows: Row[] = [];
  try {
    for (const n of opts.servers) rows.push(await runCluster(opts, n, env, dir));
  } finally {
    await dropDatabase(env.DATABASE_URL!).catch((err: unknown) => console.error(`dropping ${databaseUrl.pathname}: ${(err as Error).message}`));
    await removePrefix(env.REDIS_URL!, env.REDIS_PREFIX!).catch((err: unknown) => console.error(`removing ${env.REDIS_PREFIX}*: ${(err as Error).message}`));
    rmSync(dir, { recursive: true, force: true });
  }
  print(rows);
  if (opts.out) writeFileSync(opts.out, JSON.stringify({ at: new Date().toISOString(), options: opts, rows }, null, 2));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error((err as Error).stack ?? err);
    process.exit(1);
  },
);
