// Benchmark: the load generator's send → receive with machine translation on and off, beside the bare relay, in
// one run. Seeds a throw-away database with USERS users in GROUPS chats, each chat half Spanish and half English
// readers (so every message has readers in the other language to translate for); boots the built server in-process
// and runs `npm run loadtest` against it three times with the same users, groups and texts (Spanish and English
// chat sentences, each numbered, so the translation cache never answers):
//   1. the bare Socket.IO relay (loadtest --baseline-only), no Parley at all;
//   2. Parley with the built worker running with TRANSLATION_ENGINES=none;
//   3. Parley with the worker restarted with TRANSLATION_ENGINES=apertium (Debian's Apertium, which it starts).
// Prints each run's send → receive p50/p99/max and each Parley run's p99 as a ratio to the relay's, then how much
// was translated while on. Asserts nothing.
//   npm run bench:translation-load -- [--users 200] [--groups 20] [--rates 500] [--duration 15] [--warmup 5]
//     [--port 0] [--relay-port 0]   (the server's and the relay's ports; 0: any free one)
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase } from './bench-database.mts';
import { bullConnection, bullPrefix } from '../../shared/queue/bull-connection.ts';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const flags = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) flags.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const USERS = Number(flags.get('users') ?? 200);
const GROUPS = Number(flags.get('groups') ?? 20);
const RATES = (flags.get('rates') ?? '500').split(',').map(Number);
const DURATION = Number(flags.get('duration') ?? 15);
const WARMUP = Number(flags.get('warmup') ?? 5);
const PORT = Number(flags.get('port') ?? 0);
const RELAY_PORT = Number(flags.get('relay-port') ?? 0);
if (!(USERS >= 4 && GROUPS >= 1 && USERS / GROUPS >= 2 && RATES.every((r) => r > 0) && DURATION > 0)) {
  throw new Error('need --users ≥ 4, at least 2 users per group, --rates > 0, --duration > 0');
}
if (!existsSync('/usr/share/apertium/modes/spa-eng.mode')) {
  throw new Error('Apertium with English–Spanish is not installed: apt-get install apertium apertium-apy apertium-eng-spa');
}

/** Chat sentences in both languages; the load generator adds each message's number, so no two texts are alike. */
const TEXTS = [
  'Hola, ¿el trabajo sigue disponible?',
  'Can you come on Tuesday morning?',
  '¿Cuánto costaría en total con los materiales?',
  'Perfect, thank you very much for the answer',
  '¿Me puedes mandar unas fotos de la pared?',
  'The price includes all materials and transport',
  'Perdona, llego diez minutos tarde',
  'Do you have your own tools or should I bring them?',
  'Necesitamos la cocina lista antes del viernes',
  'Okay, I will look at it this afternoon and let you know',
  '¿Puedes bajar un poco el precio?',
  'The bathroom tap has been dripping again since yesterday',
];

interface RunResult {
  label: string;
  targetRate: number;
  achievedRate: number;
  sent: number;
  delivered: number;
  expectedDeliveries: number;
  lost: number;
  sendToReceiveMs: { n: number; p50: number; p95: number; p99: number; max: number };
  machineBusyPercent: number | null;
}

const bench = await createBenchDatabase();
const env = {
  ...bench.env,
  MIGRATIONS_RUN: 'false',
  HEARTBEAT_INTERVAL: '3600',
  // Nobody here has a push subscription; keep the notify jobs out of the way all the same.
  PUSH_DELAY_MS: '3600000',
  // Not about overload: a machine busy with other work must not turn the comparison into one of 503s and retries.
  OVERLOAD_FANOUT_LAG_MS: '0',
  OVERLOAD_INSERT_WAIT_MS: '0',
  OVERLOAD_LOOP_DELAY_MS: '0',
};
Object.assign(process.env, env);
const dir = mkdtempSync(path.join(tmpdir(), 'parley-translation-load-'));

// The app and data source come from dist/ (require): typed there, not here.
let app: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let ds: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let worker: ChildProcessByStdio<null, Readable, null> | undefined;

/** The built worker as a child process with this engine list; resolves once it logged that it started. */
async function startWorker(engines: string) {
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/workers/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, TRANSLATION_ENGINES: engines, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      if (out.includes('worker started')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited ${code}: ${out.slice(-500)}`)));
  });
  child.stdout.resume();
  return child;
}

async function stopWorker() {
  const child = worker;
  worker = undefined;
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** One `npm run loadtest` with the shared options; answers its results (one per rate). */
async function loadtest(name: string, extra: string[]): Promise<RunResult[]> {
  const out = path.join(dir, `${name}.json`);
  const args = [
    ...['--users', String(USERS), '--groups', String(GROUPS), '--rates', RATES.join(','), '--duration', String(DURATION)],
    ...['--warmup', String(WARMUP), '--texts', path.join(dir, 'texts.txt'), '--out', out],
    ...extra,
  ];
  console.log(`\n--- ${name}: npm run loadtest -- ${args.join(' ')}`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/load/loadtest.mts'), ...args], { cwd: ROOT, stdio: 'inherit' });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`loadtest (${name}) exited ${code}`);
  return (JSON.parse(readFileSync(out, 'utf8')) as { results: RunResult[] }).results;
}

try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require(path.join(ROOT, 'dist/server/src/database/data-source.js'));
  ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 4 })).initialize();
  await runMigrations(ds);

  // User i is in chat i % GROUPS; its language alternates with i / GROUPS, so each chat is half Spanish, half English.
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  type Row = { id: string; code: string; email: string; role: number; lang: string };
  const users: Row[] = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name, surname, lang)
     SELECT 'benchu' || lpad(i::text, 6, '0'), $1, 'u' || i || '@bench.test', 'x', 'User', i::text,
            CASE WHEN (i / $3) % 2 = 0 THEN 'spa' ELSE 'eng' END
     FROM generate_series(0, $2 - 1) i
     ORDER BY i
     RETURNING id, code, email, role, lang`,
    [instance.id, USERS, GROUPS],
  );
  const groups: { code: string; size: number }[] = [];
  const groupOf: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const members = users.filter((_, i) => i % GROUPS === g);
    const code = `benchg${String(g).padStart(5, '0')}`;
    const [group] = await ds.query(`INSERT INTO chat_group (code, instance_id, type) VALUES ($1, $2, 1) RETURNING id`, [code, instance.id]);
    await ds.query(`INSERT INTO chat_participant (group_id, user_id) SELECT $1, unnest($2::uuid[])`, [group.id, members.map((u) => u.id)]);
    groups.push({ code, size: members.length });
    users.forEach((_, i) => i % GROUPS === g && (groupOf[i] = code));
  }

  const { NestFactory } = require('@nestjs/core');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { AppModule } = require(path.join(ROOT, 'dist/server/src/app.module.js'));
  const { configureApp } = require(path.join(ROOT, 'dist/server/src/app.setup.js'));
  const { TokenService } = require(path.join(ROOT, 'dist/server/src/modules/auth/token.service.js'));
  app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  configureApp(app);
  await app.listen(PORT, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const tokens = app.get(TokenService);
  // The load generator takes these users instead of registering its own (--setup-file).
  const setupFile = path.join(dir, 'setup.json');
  writeFileSync(setupFile, JSON.stringify({ users: users.map((u, i) => ({ code: u.code, token: tokens.sign(u).token, group: groupOf[i] })), groups }));
  writeFileSync(path.join(dir, 'texts.txt'), TEXTS.join('\n'));
  console.log(`seeded ${USERS} users in ${GROUPS} chats (each half Spanish, half English readers); server on ${base}`);

  const parley = ['--url', base, '--setup-file', setupFile, '--server-pids', String(process.pid)];
  const bare = await loadtest('bare relay', ['--baseline-only', '--relay-port', String(RELAY_PORT)]);
  worker = await startWorker('none');
  const off = await loadtest('translation off', parley);
  await stopWorker();
  worker = await startWorker('apertium');
  const [before] = await ds.query(`SELECT count(*)::int AS n FROM chat_message`);
  const on = await loadtest('translation on', parley);
  const [after] = await ds.query(`SELECT count(*)::int AS n FROM chat_message`);
  const [translated] = await ds.query(`SELECT count(*)::int AS n FROM chat_message_translation`);
  const { Queue } = require('bullmq') as typeof import('bullmq');
  const queue = new Queue('translation', { connection: bullConnection(env.REDIS_URL), prefix: bullPrefix(env.REDIS_PREFIX) });
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
  await queue.close();

  const f = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '-');
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '-');
  console.log(`\n== send → receive (ms): ${USERS} sockets in ${GROUPS} chats, ${DURATION} s at each rate after ${WARMUP} s of warm-up`);
  console.log('   rate  run                      p50      p99      max   p99 ÷ relay  delivered        machine busy');
  RATES.forEach((rate, k) => {
    const rows: [string, RunResult][] = [
      ['bare socket.io relay', bare[k]],
      ['parley, translation off', off[k]],
      ['parley, translation on', on[k]],
    ];
    for (const [name, r] of rows) {
      const s = r.sendToReceiveMs;
      console.log(
        `   ${String(rate).padStart(4)}  ${name.padEnd(23)} ${f(s.p50).padStart(7)}  ${f(s.p99).padStart(7)}  ${f(s.max).padStart(7)}  ${ratio(s.p99, bare[k].sendToReceiveMs.p99).padStart(11)}` +
          `  ${`${r.delivered}/${r.expectedDeliveries}`.padEnd(15)}  ${r.machineBusyPercent === null ? '-' : `${f(r.machineBusyPercent)} %`}`,
      );
    }
    const [a, b] = [on[k].sendToReceiveMs, off[k].sendToReceiveMs];
    console.log(`         translation on ÷ off: p50 ${ratio(a.p50, b.p50)} · p99 ${ratio(a.p99, b.p99)}`);
  });
  console.log(
    `   while on: ${after.n - before.n} messages stored (warm-up included), ${translated.n} translations stored by the end of the run;` +
      ` translate jobs then: ${counts.completed} done, ${counts.waiting + counts.delayed} waiting, ${counts.active} running, ${counts.failed} failed`,
  );
} finally {
  await stopWorker();
  if (app) await app.close();
  if (ds) await ds.destroy();
  const { createClient } = require('redis') as typeof import('redis');
  const redis = createClient({ url: env.REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${env.REDIS_PREFIX}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.quit();
  await bench.drop();
  rmSync(dir, { recursive: true, force: true });
}
