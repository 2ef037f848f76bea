// What metrics and tracing cost on the send path, beside the bare relay, in one run:
//   npm run loadtest:observability -- [--users 300] [--groups 30] [--rates 500] [--duration 15] [--warmup 5]
//                                     [--modes off,metrics,tracing,both] [--port-base 4200] [--verbose] [--out result.json]
// Runs the built server (dist/, `npm run build:server` first) and one worker, once per mode, on the same database
// and users, with the load generator (scripts/load/loadtest.mts) against it, then the bare Socket.IO relay with
// the same load (--baseline-only). Modes:
//   off       no metrics endpoint, no OTLP endpoint
//   metrics   METRICS_PORT and WORKER_METRICS_PORT set, both scraped every SCRAPE_MS as Prometheus would
//   tracing   OTEL_EXPORTER_OTLP_ENDPOINT set to a local OTLP/HTTP sink that reads and discards what it is sent
//             (http/protobuf, the standard's default; every span sampled)
//   both      metrics and tracing
// Send admission is off (OVERLOAD_*_MS=0), so every mode stores and delivers every message.
// Prints per mode send→receive p50 / p99 and the server's CPU per message sent, each as a ratio to the bare
// relay's in the same run and as a change from `off`; the worker's CPU per message; and what the sink received.
// Its own PostgreSQL database (DATABASE_URL's server, default postgres://postgres@127.0.0.1:5432, database
// parley_observability_<random>, dropped at the end) and Redis prefix (removed at the end). The server listens on
// --port-base, its metrics on the next two ports, the sink on the one after (and SMTP_URL names the next, unused).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_MAIN, SERVER_V8_FLAGS, WORKER_MAIN } from '../lib/build.mts';
import { ROOT, sleep } from '../lib/common.mts';
import { dropDatabase, ensureDatabase, type NodeProcess, startNode, waitFor } from '../lib/node-process.mts';

const require = createRequire(import.meta.url);
const { createClient } = require('redis') as typeof import('redis');
const webPush = require('web-push') as { generateVAPIDKeys: () => { publicKey: string; privateKey: string } };

const MODES = ['off', 'metrics', 'tracing', 'both'] as const;
type Mode = (typeof MODES)[number];
const SCRAPE_MS = 5000;

interface Options {
  users: number;
  groups: number;
  rates: number[];
  duration: number;
  warmup: number;
  modes: Mode[];
  portBase: number;
  verbose: boolean;
  out: string | null;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { users: 300, groups: 30, rates: [500], duration: 15, warmup: 5, modes: [...MODES], portBase: 4200, verbose: false, out: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = (): string => inline ?? argv[++i];
    switch (flag) {
      case '--users':
        opts.users = Number(value());
        break;
      case '--groups':
        opts.groups = Number(value());
        break;
      case '--rate':
      case '--rates':
        opts.rates = value().split(',').map(Number);
        break;
      case '--duration':
        opts.duration = Number(value());
        break;
      case '--warmup':
        opts.warmup = Number(value());
        break;
      case '--modes':
        opts.modes = value().split(',') as Mode[];
        break;
      case '--port-base':
        opts.portBase = Number(value());
        break;
      case '--verbose':
        opts.verbose = true;
        break;
      case '--out':
        opts.out = value();
        break;
      case '--help':
        console.log(
          readFileSync(new URL(import.meta.url), 'utf8')
            .split('\n')
            .filter((l) => l.startsWith('//'))
            .join('\n'),
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${flag}`);
    }
  }
  if (!opts.modes.every((m) => MODES.includes(m))) throw new Error(`--modes: some of ${MODES.join(', ')}`);
  if (!opts.rates.every((r) => r > 0)) throw new Error('--rates: positive numbers');
  return opts;
}

/** An OTLP/HTTP traces endpoint that reads every export and throws it away: tracing's cost without a collector's. */
async function startSink(port: number) {
  const received = { requests: 0, bytes: 0 };
  const server = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      received.requests++;
      received.bytes += bytes;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Scrapes both metrics endpoints every SCRAPE_MS until stopped, as a Prometheus would. */
function scrapeEvery(urls: string[]) {
  let scrapes = 0;
  const timer = setInterval(() => {
    for (const url of urls)
      void fetch(url, { signal: AbortSignal.timeout(4000) }).then(
        (r) => r.text().then(() => scrapes++),
        () => undefined,
      );
  }, SCRAPE_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return scrapes;
    },
  };
}

interface LoadResult {
  label: string;
  targetRate: number;
  achievedRate: number;
  sent: number;
  lost: number;
  duplicated: number;
  failedAcks: number;
  sendToReceiveMs: { p50: number; p99: number };
  sendToAckMs: { p50: number; p99: number };
  serverCpuMsPerMessage: number | null;
  serverCpuMsPerMessageByPid: { pid: number; ms: number | null }[];
}

async function runLoad(opts: Options, args: string[], out: string, name: string): Promise<LoadResult[]> {
  const generator = startNode(
    name,
    [
      '--import',
      'tsx',
      join(ROOT, 'scripts', 'load', 'loadtest.mts'),
      '--users',
      String(opts.users),
      '--groups',
      String(opts.groups),
      '--rates',
      opts.rates.join(','),
      '--duration',
      String(opts.duration),
      '--warmup',
      String(opts.warmup),
      '--out',
      out,
      ...args,
    ],
    process.env,
    { verbose: true },
  );
  const { code } = await generator.exited;
  if (code !== 0) throw new Error(`the load generator failed (exit ${code}):\n${generator.lines.slice(-20).join('\n')}`);
  return (JSON.parse(readFileSync(out, 'utf8')) as { results: LoadResult[] }).results;
}

interface Row {
  mode: Mode | 'bare relay';
  rate: number;
  load: LoadResult;
  /** the server's CPU per message sent (ms), the worker's */
  serverMs: number | null;
  workerMs: number | null;
  sink?: { requests: number; bytes: number };
  scrapes?: number;
}

async function runMode(opts: Options, mode: Mode, env: NodeJS.ProcessEnv, dir: string): Promise<Row[]> {
  const { portBase } = opts;
  const metrics = mode === 'metrics' || mode === 'both';
  const tracing = mode === 'tracing' || mode === 'both';
  const modeEnv: NodeJS.ProcessEnv = { ...env };
  if (metrics) Object.assign(modeEnv, { METRICS_PORT: String(portBase + 1), WORKER_METRICS_PORT: String(portBase + 2) });
  const sink = tracing ? await startSink(portBase + 3) : null;
  if (tracing) Object.assign(modeEnv, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${portBase + 3}` });
  const running: NodeProcess[] = [];
  try {
    const server = startNode(
      `server:${mode}`,
      ['--enable-source-maps', ...SERVER_V8_FLAGS, SERVER_MAIN],
      { ...modeEnv, PORT: String(portBase) },
      { verbose: opts.verbose },
    );
    running.push(server);
    const url = `http://127.0.0.1:${portBase}`;
    await waitFor('the server', async () => (await fetch(`${url}/api/health/ready`, { signal: AbortSignal.timeout(2000) })).status === 200, server);
    // At info it says when it has started (and logs nothing per job).
    const worker = startNode(`worker:${mode}`, ['--enable-source-maps', WORKER_MAIN], { ...modeEnv, PORT: '0', LOG_LEVEL: 'info' }, { verbose: opts.verbose });
    running.push(worker);
    await waitFor('the worker', async () => worker.lines.some((l) => l.includes('worker started')), worker);
    const scraper = metrics ? scrapeEvery([`http://127.0.0.1:${portBase + 1}/metrics`, `http://127.0.0.1:${portBase + 2}/metrics`]) : null;
    console.log(`\n### ${mode}: server ${server.child.pid}, worker ${worker.child.pid}`);
    await sleep(1000);
    const results = await runLoad(
      opts,
      ['--url', url, '--server-pids', `${server.child.pid},${worker.child.pid}`, '--setup-file', join(dir, 'users.json')],
      join(dir, `load-${mode}.json`),
      `loadtest:${mode}`,
    );
    const scrapes = scraper?.stop();
    return results.map((load) => ({
      mode,
      rate: load.targetRate,
      load,
      serverMs: load.serverCpuMsPerMessageByPid[0]?.ms ?? null,
      workerMs: load.serverCpuMsPerMessageByPid[1]?.ms ?? null,
      sink: sink ? { ...sink.received } : undefined,
      scrapes,
    }));
  } finally {
    await Promise.all(running.reverse().map((p) => p.stop()));
    await sink?.stop();
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

function print(rows: Row[]): void {
  const f = (x: number | null | undefined, digits = 1) => (x !== null && x !== undefined && Number.isFinite(x) ? x.toFixed(digits) : '-');
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? `${f(a / b, 2)}×` : '-');
  const change = (a: number | null | undefined, b: number | null | undefined) => (a != null && b ? `${a >= b ? '+' : ''}${f(((a - b) / b) * 100, 0)} %` : '-');
  for (const rate of [...new Set(rows.map((r) => r.rate))]) {
    const atRate = rows.filter((r) => r.rate === rate);
    const bare = atRate.find((r) => r.mode === 'bare relay');
    const off = atRate.find((r) => r.mode === 'off');
    console.log(`\n${rate} msg/s: each as a ratio to the bare relay in this run, and as a change from "off"`);
    console.log(
      '| mode | msg/s | send→receive p50 | ÷ bare | vs off | p99 | ÷ bare | vs off | server CPU µs/msg | ÷ bare | vs off | worker CPU µs/msg | vs off | lost / dup |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of atRate) {
      const l = r.load;
      const b = bare?.load;
      console.log(
        `| ${r.mode} | ${f(l.achievedRate, 0)} | ${f(l.sendToReceiveMs.p50)} ms | ${ratio(l.sendToReceiveMs.p50, b?.sendToReceiveMs.p50)} | ${
          r.mode === 'bare relay' ? '' : change(l.sendToReceiveMs.p50, off?.load.sendToReceiveMs.p50)
        } | ${f(l.sendToReceiveMs.p99)} ms | ${ratio(l.sendToReceiveMs.p99, b?.sendToReceiveMs.p99)} | ${
          r.mode === 'bare relay' ? '' : change(l.sendToReceiveMs.p99, off?.load.sendToReceiveMs.p99)
        } | ${f((r.serverMs ?? NaN) * 1000, 0)} | ${ratio(r.serverMs, bare?.serverMs)} | ${r.mode === 'bare relay' ? '' : change(r.serverMs, off?.serverMs)} | ${
          r.mode === 'bare relay' ? '' : f((r.workerMs ?? NaN) * 1000, 0)
        } | ${r.mode === 'bare relay' ? '' : change(r.workerMs, off?.workerMs)} | ${l.lost} / ${l.duplicated} |`,
      );
    }
  }
  for (const r of rows) {
    if (r.sink) console.log(`${r.mode} @ ${r.rate}: the OTLP sink took ${r.sink.requests} exports, ${(r.sink.bytes / 1e6).toFixed(1)} MB, over the whole run`);
    if (r.scrapes !== undefined) console.log(`${r.mode} @ ${r.rate}: ${r.scrapes} scrapes of the two metrics endpoints`);
  }
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const run = randomBytes(4).toString('hex');
  const dir = mkdtempSync(join(tmpdir(), 'parley-observability-'));
  const databaseUrl = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  databaseUrl.pathname = `/parley_observability_${run}`;
  const vapid = webPush.generateVAPIDKeys();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `parley-observability-${run}:`,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    PUBLIC_URL: `http://127.0.0.1:${opts.portBase}`,
    FIRST_USER_ADMIN: 'false',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    FILES_DIR: join(dir, 'files'),
    AUTH_RATE_LIMIT_IP: '1000000',
    // Send admission off: on a machine busy with other work it refuses most sends (503), and each mode's run
    // would then do a different share of the work; here every send is stored and delivered, so the modes compare.
    OVERLOAD_FANOUT_LAG_MS: '0',
    OVERLOAD_INSERT_WAIT_MS: '0',
    OVERLOAD_LOOP_DELAY_MS: '0',
    // The worker needs one in production; nothing here is due to be e-mailed within a run, so nothing listens.
    SMTP_URL: `smtp://127.0.0.1:${opts.portBase + 4}`,
    // The users registered in the first mode are reused by the next ones (--setup-file).
    ACCESS_TOKEN_TTL: String(4 * 3600),
  };
  // The modes' own settings come from here only.
  for (const name of Object.keys(env)) if (name.startsWith('OTEL_') || name.endsWith('METRICS_PORT')) delete env[name];
  await ensureDatabase(env.DATABASE_URL!);
  const rows: Row[] = [];
  try {
    // The bare relay first: the same sockets, groups and rates, no server or worker running beside it.
    // --server-pids (any) makes the generator read the relay's own CPU.
    const bare = await runLoad(opts, ['--baseline-only', '--server-pids', '0'], join(dir, 'load-bare.json'), 'loadtest:bare');
    for (const load of bare) rows.push({ mode: 'bare relay', rate: load.targetRate, load, serverMs: load.serverCpuMsPerMessage, workerMs: null });
    for (const mode of opts.modes) rows.push(...(await runMode(opts, mode, env, dir)));
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
