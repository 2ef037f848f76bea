// Benchmark: machine translation through the whole path with Debian's Apertium (the worker starts apertium-apy).
// Seeds a throw-away database with GROUPS chats of a Spanish writer and READERS readers, half of them reading
// English (translated for) and half Spanish (not); boots the built server in-process and ONE built worker process
// (TRANSLATION_ENGINES=apertium), connects every reader's socket, then sends RATE msg/s for DURATION s (after a
// warm-up that starts apertium-apy), each a different Spanish sentence so the cache never answers.
// Measures, per English reader: commit (the message's createdAt) → the translation's message:updated on its socket,
// p50/p99/max; and that the Spanish readers got none. Then the send path beside it: send → message:new at every
// reader in that run, and in the same again with the worker restarted with translation off. Prints figures;
// asserts nothing.
//   npm run bench:translation [-- rate=50 duration=20 groups=50 readers=2 warmup=3 concurrency=N (TRANSLATION_CONCURRENCY, else its default)]
import { createRequire } from 'node:module';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase } from './bench-database.mts';
import { cpuSecondsOf, machineCpu } from '../lib/measure.mts';
import { bullConnection, bullPrefix } from '../../shared/queue/bull-connection.ts';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=')));
const RATE = Number(args.rate ?? 50);
const DURATION = Number(args.duration ?? 20);
const GROUPS = Number(args.groups ?? 50);
/** readers per chat besides the writer; the first half read English, the rest Spanish */
const READERS = Math.max(2, Number(args.readers ?? 2));
const WARMUP = Number(args.warmup ?? 3);

const { io } = require('socket.io-client') as typeof import('socket.io-client');
type Socket = import('socket.io-client').Socket;

/** Spanish chat sentences; each send adds its own number, so no two texts are alike (no cache hits). */
const SENTENCES = [
  'Hola, ¿el trabajo sigue disponible?',
  'Puedo ir el martes por la mañana',
  '¿Cuánto costaría en total con los materiales?',
  'Perfecto, muchas gracias por la respuesta',
  '¿Me puedes mandar unas fotos de la pared?',
  'El precio incluye todos los materiales y el transporte',
  'Perdona, llego diez minutos tarde',
  '¿Tienes tus propias herramientas o las llevo yo?',
  'Necesitamos la cocina lista antes del viernes',
  'Vale, lo miro esta tarde y te digo algo',
  '¿Puedes bajar un poco el precio?',
  'El grifo del baño gotea otra vez desde ayer',
  'Te hice la transferencia esta mañana',
  'Buen trabajo, el jardín quedó precioso',
  '¿Hay sitio para aparcar cerca de la casa?',
  'Llámame cuando llegues, por favor',
];

const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const fmt = (xs: number[]): string =>
  xs.length ? `p50 ${q(xs, 0.5).toFixed(0)} ms · p99 ${q(xs, 0.99).toFixed(0)} ms · max ${Math.max(...xs).toFixed(0)} ms` : 'none';

/** The share of the machine's CPU time that was busy between two readings. */
const busyShare = (a: ReturnType<typeof machineCpu>, b: ReturnType<typeof machineCpu>): string =>
  a && b ? `${(((b.busy - a.busy) / (b.total - a.total)) * 100).toFixed(0)}%` : '?';

const bench = await createBenchDatabase();
const env = {
  ...bench.env,
  MIGRATIONS_RUN: 'false',
  TRANSLATION_ENGINES: 'apertium',
  ...(args.concurrency ? { TRANSLATION_CONCURRENCY: String(args.concurrency) } : {}),
  OUTBOX_POLL_MS: String(args.poll ?? 50),
  HEARTBEAT_INTERVAL: '3600',
  // Nobody here has a push subscription; keep the notify jobs out of the way all the same.
  PUSH_DELAY_MS: '3600000',
  OVERLOAD_FANOUT_LAG_MS: '0',
  OVERLOAD_INSERT_WAIT_MS: '0',
  OVERLOAD_LOOP_DELAY_MS: '0',
};
Object.assign(process.env, env);

// The app and data source come from dist/ (require): typed there, not here.
let app: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let ds: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let worker: ChildProcessByStdio<null, Readable, null> | undefined;
const sockets: Socket[] = [];
try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require(path.join(ROOT, 'dist/server/src/database/data-source.js'));
  ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 4 })).initialize();
  await runMigrations(ds);

  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  type Row = { id: string; code: string; lang: string };
  const perGroup = READERS + 1;
  const english = Math.floor(READERS / 2);
  const created: Row[] = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name, surname, lang)
     SELECT 'benchu' || lpad(i::text, 6, '0'), $1, 'u' || i || '@bench.test', 'x', 'User', i::text,
            CASE WHEN (i - 1) % $3 BETWEEN 1 AND $4 THEN 'eng' ELSE 'spa' END
     FROM generate_series(1, $2) i
     RETURNING id, code, email, role, lang`,
    [instance.id, GROUPS * perGroup, perGroup, english],
  );
  const users = [...created].sort((a, b) => a.code.localeCompare(b.code));
  const groups: { code: string; writer: Row; readers: Row[] }[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const members = users.slice(g * perGroup, (g + 1) * perGroup);
    const [group] = await ds.query(`INSERT INTO chat_group (code, instance_id, type) VALUES ($1, $2, 1) RETURNING id, code`, [
      `benchg${String(g).padStart(5, '0')}`,
      instance.id,
    ]);
    await ds.query(`INSERT INTO chat_participant (group_id, user_id) SELECT $1, unnest($2::uuid[])`, [group.id, members.map((u) => u.id)]);
    groups.push({ code: group.code, writer: members[0], readers: members.slice(1) });
  }
  const englishReaders = groups.flatMap((g) => g.readers.filter((r) => r.lang === 'eng'));
  console.log(
    `seeded ${GROUPS} chats: a Spanish writer and ${READERS} readers each (${englishReaders.length} read English, ${GROUPS * READERS - englishReaders.length} Spanish)`,
  );

  const { NestFactory } = require('@nestjs/core');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { AppModule } = require(path.join(ROOT, 'dist/server/src/app.module.js'));
  const { configureApp } = require(path.join(ROOT, 'dist/server/src/app.setup.js'));
  const { TokenService } = require(path.join(ROOT, 'dist/server/src/modules/auth/token.service.js'));
  app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const tokenOf = (u: Row): string => app.get(TokenService).sign(u).token;

  /** The built worker as a child process, with `extra` config; resolves once it logged that it started. */
  const startWorker = async (extra: Record<string, string> = {}) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/workers/src/main.js')], {
      cwd: ROOT,
      env: { ...process.env, ...extra, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c;
        if (out.includes('worker started')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker exited ${code}`)));
    });
    child.stdout.resume();
    return child;
  };
  worker = await startWorker();
  const started = worker;

  // Every reader's socket; an English reader records when each translation reached it.
  const arrived = new Map<string, number[]>(); // message code → arrival times at English readers
  const received = new Map<string, number[]>(); // message code → message:new arrival times at every reader
  let toSpanish = 0;
  const connect = (u: Row) =>
    new Promise<Socket>((resolve, reject) => {
      const s = io(base, { transports: ['websocket'], auth: { token: tokenOf(u) }, reconnection: false, forceNew: true });
      s.on('message:updated', (p: { code: string; sourceEditedAt?: string | null }) => {
        if (p.sourceEditedAt === undefined) return;
        if (u.lang !== 'eng') toSpanish += 1;
        else arrived.set(p.code, [...(arrived.get(p.code) ?? []), Date.now()]);
      });
      s.on('message:new', (m: { code: string }) => received.set(m.code, [...(received.get(m.code) ?? []), Date.now()]));
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });
  for (const g of groups) for (const r of g.readers) sockets.push(await connect(r));
  console.log(`${sockets.length} reader sockets connected`);

  const writerTokens = new Map(groups.map((g) => [g.code, tokenOf(g.writer)]));
  let n = 0;
  const sentAt = new Map<string, number>(); // message code → when its send began
  const send = async (group: { code: string }) => {
    const i = n++;
    const began = Date.now();
    const text = `${SENTENCES[i % SENTENCES.length]} (${i})`;
    const res = await fetch(`${base}/api/message/groups/${group.code}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${writerTokens.get(group.code)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: text, lang: 'spa' }),
    });
    const body = (await res.json()) as { code: string; createdAt: string };
    if (res.status !== 201) throw new Error(`send: ${res.status} ${JSON.stringify(body)}`);
    sentAt.set(body.code, began);
    return body;
  };
  /** Sends `rate` messages a second for `seconds`, round-robin over the chats, on a fixed schedule. */
  const drive = async (rate: number, seconds: number) => {
    const sent: { code: string; createdAt: string }[] = [];
    const pending: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; i < rate * seconds; i++) {
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      pending.push(send(groups[i % groups.length]).then((m) => void sent.push(m)));
    }
    await Promise.all(pending);
    return sent;
  };

  // Warm-up: the first translation starts apertium-apy; its pipelines warm up over the first messages.
  const warm = await drive(Math.min(RATE, 10), WARMUP);
  const warmDeadline = Date.now() + 60_000;
  while (warm.some((m) => !arrived.has(m.code)) && Date.now() < warmDeadline) await new Promise((r) => setTimeout(r, 100));

  const cpu0 = { worker: cpuSecondsOf(started.pid!), bench: process.cpuUsage(), machine: machineCpu() };
  toSpanish = 0;
  const t0 = Date.now();
  const sent = await drive(RATE, DURATION);
  const sendSeconds = (Date.now() - t0) / 1000;
  const machineOn = busyShare(cpu0.machine, machineCpu());
  const expected = (sent.length * englishReaders.length) / GROUPS;
  const deadline = Date.now() + 120_000;
  const got = () => sent.reduce((sum, m) => sum + (arrived.get(m.code)?.length ?? 0), 0);
  while (got() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const latency = sent.flatMap((m) => (arrived.get(m.code) ?? []).map((at) => at - Date.parse(m.createdAt)));
  const workerCpu = (cpuSecondsOf(started.pid!) ?? 0) - (cpu0.worker ?? 0);
  const benchCpu = (process.cpuUsage(cpu0.bench).user + process.cpuUsage(cpu0.bench).system) / 1e6;

  console.log(
    `\nsent ${sent.length} Spanish messages at ${(sent.length / sendSeconds).toFixed(1)} msg/s over ${sendSeconds.toFixed(1)} s` +
      ` (${englishReaders.length / GROUPS} English reader(s) per chat: ${expected} translations expected)`,
  );
  console.log(`commit → translation visible to an English reader (message:updated on its socket): ${fmt(latency)}`);
  console.log(`translations received ${latency.length} of ${expected}; by Spanish readers ${toSpanish} (should be 0)`);
  // Where the time goes: the translate jobs' own timestamps (added by the relay, taken by the worker, finished).
  const { Queue } = require('bullmq') as typeof import('bullmq');
  const queue = new Queue('translation', { connection: bullConnection(env.REDIS_URL), prefix: bullPrefix(env.REDIS_PREFIX) });
  const createdAt = new Map(sent.map((m) => [m.code, Date.parse(m.createdAt)]));
  const jobs = (await queue.getJobs(['completed'], 0, 100_000)).filter((j) => j.finishedOn && j.processedOn);
  const codeOfJob = new Map<string, string>(
    (await ds.query(`SELECT id::text, code FROM chat_message WHERE id = ANY($1::bigint[])`, [jobs.map((j) => j.data.messageId)])).map(
      (r: { id: string; code: string }) => [r.id, r.code],
    ),
  );
  const measured = jobs.filter((j) => createdAt.has(codeOfJob.get(String(j.data.messageId)) ?? ''));
  const relayed = measured.map((j) => j.timestamp - createdAt.get(codeOfJob.get(String(j.data.messageId))!)!);
  const waited = measured.map((j) => j.processedOn! - j.timestamp);
  const ran = measured.map((j) => j.finishedOn! - j.processedOn!);
  await queue.close();
  console.log(
    `of which: commit → job added by the relay ${fmt(relayed)}; waiting in the queue ${fmt(waited)}; the job itself (engine, store, announce) ${fmt(ran)}`,
  );
  console.log(
    `CPU over the run: worker ${workerCpu.toFixed(1)} s (${((workerCpu * 1000) / Math.max(1, sent.length)).toFixed(1)} ms per message),` +
      ` server + this process ${benchCpu.toFixed(1)} s; apertium-apy and its pipelines are children of the worker, not counted`,
  );

  // The send path beside it: send → message:new at every reader, with translation on (the run above) and off
  // (the same again, the worker restarted with TRANSLATION_ENGINES=none).
  const sendToReceive = (batch: { code: string }[]) => batch.flatMap((m) => (received.get(m.code) ?? []).map((at) => at - sentAt.get(m.code)!));
  const on = sendToReceive(sent);
  started.kill('SIGTERM');
  await new Promise((r) => started.once('exit', r));
  worker = await startWorker({ TRANSLATION_ENGINES: 'none' });
  const offMachine0 = machineCpu();
  const offSent = await drive(RATE, DURATION);
  const machineOff = busyShare(offMachine0, machineCpu());
  const readersPerChat = READERS;
  const offDeadline = Date.now() + 30_000;
  while (offSent.some((m) => (received.get(m.code)?.length ?? 0) < readersPerChat) && Date.now() < offDeadline) await new Promise((r) => setTimeout(r, 100));
  const off = sendToReceive(offSent);
  console.log(`\nsend → message:new at the readers (the send path), ${RATE} msg/s, ${on.length} and ${off.length} deliveries:`);
  console.log(`  translation on:  ${fmt(on)} (the machine's CPUs ${machineOn} busy while sending)`);
  console.log(`  translation off: ${fmt(off)} (${machineOff} busy)`);
  console.log(`  on / off: p50 ${(q(on, 0.5) / q(off, 0.5)).toFixed(2)} · p99 ${(q(on, 0.99) / q(off, 0.99)).toFixed(2)}`);
} finally {
  for (const s of sockets) s.disconnect();
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    const stopping = worker;
    await new Promise((r) => stopping.once('exit', r));
  }
  if (app) await app.close();
  if (ds) await ds.destroy();
  const { createClient } = require('redis') as typeof import('redis');
  const redis = createClient({ url: env.REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${env.REDIS_PREFIX}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.quit();
  await bench.drop();
}
