// Benchmark: e-mail about unread messages through the whole path, against a local SMTP server (smtp-server, in
// this process). Seeds a throw-away database with PEOPLE people who each get one message at the same moment in a
// chat of their own and never read it, then runs ONE built worker process (EMAIL_UNREAD_DELAY_MS=delay,
// EMAIL_SCAN_MS=scan) and records when the SMTP server accepted each e-mail.
//   - due -> accepted: from the moment each message became due (its arrival + the delay) until the SMTP server
//     accepted its e-mail, p50 / p99 / max (the scan's interval is part of it: a person is found at the next scan);
//   - e-mails/s of one worker: PEOPLE / (last accepted - first accepted).
// Prints figures; asserts nothing. Usage: npm run bench:email [-- people=1000 delay=4000 scan=1000]
import { createRequire } from 'node:module';
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBenchDatabase } from './bench-database.mts';

const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.split('=')));
const PEOPLE = Number(args.people ?? 1000);
const DELAY_MS = Number(args.delay ?? 4000);
const SCAN_MS = Number(args.scan ?? 1000);

const { SMTPServer } = require('smtp-server') as typeof import('smtp-server');

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
const fmt = (xs: number[]): string =>
  `min ${Math.min(...xs).toFixed(0)} ms · p50 ${q(xs, 0.5).toFixed(0)} ms · p99 ${q(xs, 0.99).toFixed(0)} ms · max ${Math.max(...xs).toFixed(0)} ms`;

/** When the SMTP server accepted the e-mail of each recipient address. */
const accepted = new Map<string, number>();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    stream.on('end', () => {
      const at = Date.now();
      for (const rcpt of session.envelope.rcptTo) accepted.set(rcpt.address, at);
      callback();
    });
    stream.resume();
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const smtpPort = (smtp.server.address() as AddressInfo).port;

const bench = await createBenchDatabase();
const env = {
  ...bench.env,
  MIGRATIONS_RUN: 'false',
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_FROM: 'Parley <no-reply@bench.test>',
  PUBLIC_URL: 'https://parley.bench',
  EMAIL_UNREAD_DELAY_MS: String(DELAY_MS),
  EMAIL_SCAN_MS: String(SCAN_MS),
  OUTBOX_POLL_MS: '250',
  HEARTBEAT_INTERVAL: '3600',
};

let worker: ChildProcessByStdio<null, Readable, null> | undefined;
let ds: any; // eslint-disable-line @typescript-eslint/no-explicit-any
try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require(path.join(ROOT, 'dist/server/src/database/data-source.js'));
  ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 4 })).initialize();
  await runMigrations(ds);

  // The worker first, so it is running (and has scanned once) before anyone is due.
  worker = spawn(process.execPath, [path.join(ROOT, 'dist/workers/src/main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env, LOG_LEVEL: 'info' },
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

  // PEOPLE people, each in a 1:1 chat with the shop, each with one message from the shop that arrives now.
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  const [shop] = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name) VALUES ('benchshop', $1, 'shop@bench.test', 'x', 'Shop') RETURNING id`,
    [instance.id],
  );
  await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name, surname)
     SELECT 'benchu' || lpad(i::text, 6, '0'), $1, 'u' || i || '@bench.test', 'x', 'User', i::text FROM generate_series(1, $2) i`,
    [instance.id, PEOPLE],
  );
  await ds.query(
    `INSERT INTO chat_group (code, instance_id, type, name) SELECT 'benchg' || lpad(i::text, 6, '0'), $1, 1, 'Order ' || i FROM generate_series(1, $2) i`,
    [instance.id, PEOPLE],
  );
  await ds.query(
    `INSERT INTO chat_participant (group_id, user_id)
     SELECT g.id, u.id FROM chat_group g JOIN "user" u ON u.code = 'benchu' || substr(g.code, 7)
     UNION ALL SELECT g.id, $1 FROM chat_group g`,
    [shop.id],
  );
  console.log(`seeded ${PEOPLE} people, one chat each; the worker runs with EMAIL_UNREAD_DELAY_MS=${DELAY_MS}, EMAIL_SCAN_MS=${SCAN_MS}`);

  // Everyone goes quiet at once: one message each, in one statement, nobody reads.
  const cpu0 = { worker: cpuOf(started.pid), bench: process.cpuUsage() };
  const [{ arrived }] = await ds.query(
    `WITH sent AS (
       INSERT INTO chat_message (code, group_id, seq, author_id, text)
       SELECT 'bm' || g.id, g.id, 1, $1, 'Your order is ready, when can you pick it up?' FROM chat_group g
       RETURNING created_at
     ), moved AS (UPDATE chat_group SET last_seq = 1, last_message_at = now() RETURNING id)
     SELECT (extract(epoch FROM max(created_at)) * 1000)::float8 AS arrived FROM sent, (SELECT count(*) FROM moved) m`,
    [shop.id],
  );
  const dueAt = Number(arrived) + DELAY_MS;
  const deadline = Date.now() + DELAY_MS + 300_000;
  while (accepted.size < PEOPLE && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (accepted.size < PEOPLE) throw new Error(`only ${accepted.size} of ${PEOPLE} e-mails accepted within 5 minutes`);

  const times = [...accepted.values()];
  const first = Math.min(...times);
  const last = Math.max(...times);
  const [{ sent, pending }] = await ds.query(
    `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status = 'pending')::int AS pending FROM email_message`,
  );
  console.log(`${PEOPLE} people due at once: ${sent} e-mails recorded as sent, ${pending} pending, ${accepted.size} accepted by SMTP`);
  console.log(`due -> accepted by SMTP: ${fmt(times.map((t) => t - dueAt))}`);
  const workerCpu = (cpuOf(started.pid) ?? 0) - (cpu0.worker ?? 0);
  const benchCpu = (process.cpuUsage(cpu0.bench).user + process.cpuUsage(cpu0.bench).system) / 1e6;
  console.log(
    `CPU: worker ${workerCpu.toFixed(1)} s = ${((workerCpu * 1000) / PEOPLE).toFixed(2)} ms/e-mail; SMTP server (this process) ${benchCpu.toFixed(1)} s; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  console.log(
    `one worker: ${PEOPLE} e-mails in ${((last - first) / 1000).toFixed(2)} s from the first to the last = ${((PEOPLE / (last - first)) * 1000).toFixed(0)} e-mails/s`,
  );
} finally {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    const stopping = worker;
    await new Promise((r) => stopping.once('exit', r));
  }
  if (ds) await ds.destroy();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  const { createClient } = require('redis') as typeof import('redis');
  const redis = createClient({ url: env.REDIS_URL });
  await redis.connect();
  for await (const keys of redis.scanIterator({ MATCH: `${env.REDIS_PREFIX}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  await redis.quit();
  await bench.drop();
}
