// Benchmark: web push through the whole path, against the local RFC 8030 push service (test/push-service).
// Seeds a throw-away database, boots the built server in-process and ONE built worker process (PUSH_CONCURRENCY,
// default 50; PUSH_DELAY_MS=0 so the figures are the machinery, not the grace delay), then
//   1. throughput: ROUNDS x GROUPS messages, each to a group of RECIPIENTS offline subscribers, sent at once;
//      pushes/s = pushes / (last arrival - first commit) of each round;
//   2. latency: SINGLES messages one at a time (a 1:1 chat, 100 ms apart): commit -> push arrival p50/p99.
// Prints figures; asserts nothing. Usage: npm run bench:push [-- groups=20 recipients=100 rounds=3 singles=100]
import { createRequire } from 'node:module';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { createBenchDatabase } from './bench-database.mts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Arrival, LocalPushService } from '../../test/push-service/push-service.ts';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=')));
const GROUPS = Number(args.groups ?? 20);
const RECIPIENTS = Number(args.recipients ?? 100);
const ROUNDS = Number(args.rounds ?? 3);
const SINGLES = Number(args.singles ?? 100);
const CONCURRENCY = String(args.concurrency ?? 50);

const webpush = require('web-push') as typeof import('web-push');

const bench = await createBenchDatabase();

const push = await LocalPushService.start();
const vapid = webpush.generateVAPIDKeys();
const env = {
  ...bench.env,
  MIGRATIONS_RUN: 'false',
  VAPID_PUBLIC_KEY: vapid.publicKey,
  VAPID_PRIVATE_KEY: vapid.privateKey,
  PUSH_CA_FILE: push.caFile,
  PUSH_DELAY_MS: '0',
  PUSH_CONCURRENCY: CONCURRENCY,
  OUTBOX_POLL_MS: '50',
  HEARTBEAT_INTERVAL: '3600',
};
Object.assign(process.env, env);

/** CPU seconds (user + system) a process has used, from /proc (Linux); null elsewhere. */
const cpuOf = (pid: number | undefined): number | null => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
};

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const fmt = (xs: number[]): string => `p50 ${q(xs, 0.5).toFixed(0)} ms · p99 ${q(xs, 0.99).toFixed(0)} ms · max ${Math.max(...xs).toFixed(0)} ms`;

// The app and data source come from dist/ (require): typed there, not here.
let app: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let worker: ChildProcessByStdio<null, Readable, null> | undefined;
let ds: any; // eslint-disable-line @typescript-eslint/no-explicit-any
try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require(path.join(ROOT, 'dist/server/src/database/data-source.js'));
  ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 4 })).initialize();
  await runMigrations(ds);

  // Seed: GROUPS groups of one sender + RECIPIENTS recipients, each recipient with one subscription; one 1:1 chat.
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  const total = GROUPS * (RECIPIENTS + 1) + 2;
  const users = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name, surname)
     SELECT 'benchu' || lpad(i::text, 6, '0'), $1, 'u' || i || '@bench.test', 'x', 'User', i::text FROM generate_series(1, $2) i
     RETURNING id, code, email, role`,
    [instance.id, total],
  );
  type Row = { id: string; code: string };
  type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };
  const groups: { code: string; sender: Row; subs: Subscription[] }[] = [];
  let next = 0;
  for (let g = 0; g < GROUPS + 1; g++) {
    const size = g < GROUPS ? RECIPIENTS + 1 : 2;
    const members = users.slice(next, next + size);
    next += size;
    const [group] = await ds.query(`INSERT INTO chat_group (code, instance_id, type) VALUES ($1, $2, 1) RETURNING id, code`, [
      `benchg${String(g).padStart(5, '0')}`,
      instance.id,
    ]);
    await ds.query(`INSERT INTO chat_participant (group_id, user_id) SELECT $1, unnest($2::uuid[])`, [group.id, members.map((u: Row) => u.id)]);
    const subs: { user: Row; sub: Subscription }[] = members.slice(1).map((u: Row) => ({ user: u, sub: push.subscribe(vapid.publicKey) }));
    for (const { user, sub } of subs) {
      await ds.query(`INSERT INTO push_subscription (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)`, [
        user.id,
        sub.endpoint,
        sub.keys.p256dh,
        sub.keys.auth,
      ]);
    }
    groups.push({ code: group.code, sender: members[0], subs: subs.map((s) => s.sub) });
  }
  console.log(`seeded ${GROUPS} groups x ${RECIPIENTS} subscribed recipients (+ one 1:1 chat)`);

  const { NestFactory } = require('@nestjs/core');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { AppModule } = require(path.join(ROOT, 'dist/server/src/app.module.js'));
  const { configureApp } = require(path.join(ROOT, 'dist/server/src/app.setup.js'));
  const { TokenService } = require(path.join(ROOT, 'dist/server/src/modules/auth/token.service.js'));
  app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const tokens = new Map(groups.map((g) => [g.code, app.get(TokenService).sign(g.sender).token]));

  worker = spawn(process.execPath, [path.join(ROOT, 'dist/workers/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = worker;
  await new Promise<void>((resolve, reject) => {
    let out = '';
    started.stdout.on('data', (c: Buffer) => {
      out += c;
      if (out.includes('worker started')) resolve();
    });
    started.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
  });
  started.stdout.resume();

  type Sent = { message?: string; text?: string; createdAt: string; committedAt: number };
  const send = async (group: { code: string }, text: string): Promise<Sent> => {
    const res = await fetch(`${base}/api/message/groups/${group.code}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.get(group.code)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: text }),
    });
    const body = (await res.json()) as Omit<Sent, 'committedAt'>;
    if (res.status !== 201) throw new Error(`send: ${res.status} ${JSON.stringify(body)}`);
    return { ...body, committedAt: Date.now() };
  };
  const arrivals201 = (): Arrival[] => push.arrivals.filter((a) => a.status === 201);
  const delivered = () => arrivals201().length;

  // 1. Throughput.
  const bursts = groups.slice(0, GROUPS);
  const pushesPerRound = GROUPS * RECIPIENTS;
  const rates: number[] = [];
  const burstLatency: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const before = delivered();
    const start = Date.now();
    const cpu0 = { worker: cpuOf(started.pid), bench: process.cpuUsage() };
    const sent = await Promise.all(bursts.map((g) => send(g, `round ${round} in ${g.code}`)));
    const sentAt = new Map(sent.map((m) => [m.message ?? m.text, Date.parse(m.createdAt)]));
    await push.until(() => delivered() - before >= pushesPerRound, `round ${round}`, 300_000);
    const arrivals = arrivals201().slice(before);
    const last = Math.max(...arrivals.map((a) => a.at));
    rates.push((pushesPerRound / (last - start)) * 1000);
    for (const a of arrivals) burstLatency.push(a.at - sentAt.get((a.payload as { body: string }).body)!);
    const workerCpu = (cpuOf(started.pid) ?? 0) - (cpu0.worker ?? 0);
    const benchCpu = (process.cpuUsage(cpu0.bench).user + process.cpuUsage(cpu0.bench).system) / 1e6;
    console.log(
      `round ${round}: ${pushesPerRound} pushes in ${((last - start) / 1000).toFixed(2)} s = ${rates.at(-1)!.toFixed(0)} pushes/s` +
        ` (CPU: worker ${workerCpu.toFixed(1)} s = ${((workerCpu * 1000) / pushesPerRound).toFixed(2)} ms/push; server + push service ${benchCpu.toFixed(1)} s)`,
    );
  }
  const bad = push.arrivals.filter((a) => a.error);
  console.log(
    `throughput (one worker, PUSH_CONCURRENCY=${CONCURRENCY}): ${q(rates, 0.5).toFixed(0)} pushes/s median of ${ROUNDS} rounds` +
      ` (best ${Math.max(...rates).toFixed(0)}); commit -> arrival within a burst: ${fmt(burstLatency)}; refused by the push service: ${bad.length}`,
  );

  // 2. Latency, one message at a time.
  const single = groups[GROUPS];
  const latency: number[] = [];
  for (let i = 0; i < SINGLES; i++) {
    const before = delivered();
    const m = await send(single, `single ${i}`);
    await push.until(() => delivered() > before, `single ${i}`, 30_000);
    latency.push(arrivals201().at(-1)!.at - Date.parse(m.createdAt));
    await new Promise((r) => setTimeout(r, 100));
  }
  console.log(`commit -> push arrival, one message at a time (PUSH_DELAY_MS=0, relay poll 50 ms): ${fmt(latency)} over ${SINGLES} messages`);
} finally {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    const stopping = worker;
    await new Promise((r) => stopping.once('exit', r));
  }
  if (app) await app.close();
  if (ds) await ds.destroy();
  await push.stop();
  const { createClient } = require('redis') as typeof import('redis');
  const redis = createClient({ url: env.REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${env.REDIS_PREFIX}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.quit();
  await bench.drop();
}
