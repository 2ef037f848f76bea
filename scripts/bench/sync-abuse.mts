// Benchmark: what a hostile `sync` costs, and what it does to another user's latency (issue 16, item 1).
// Seeds a throw-away database (an attacker in GROUPS groups of PER_GROUP messages, and one group of BIG
// messages), boots the built server in-process and
//   1. sends the probe's event (the big group 100 times) and the widest legal one (100 groups from seq 0),
//      printing each answer's size and time;
//   2. measures send→receive latency between two other users (a message every 50 ms) for SECONDS s quietly,
//      then for SECONDS s while FLOODERS sockets of the attacker send sync as fast as they are answered.
// Prints figures; asserts nothing. Usage: npm run build:server && node --import tsx scripts/bench/sync-abuse.mts [seconds=5] [flooders=5]
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createBenchDatabase } from './bench-database.mts';

const require = createRequire(import.meta.url);
const { io } = require('socket.io-client') as typeof import('socket.io-client');
type Socket = import('socket.io-client').Socket;
const SECONDS = Number(process.argv[2] ?? 5);
const FLOODERS = Number(process.argv[3] ?? 5);
const GROUPS = 100;
const PER_GROUP = 200;
const BIG = 20_000;
const bench = await createBenchDatabase();

Object.assign(process.env, bench.env);

const quantiles = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  return `p50 ${q(0.5).toFixed(1)} ms · p99 ${q(0.99).toFixed(1)} ms · max ${(s[s.length - 1] ?? NaN).toFixed(1)} ms (n=${s.length})`;
};
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// The app comes from dist/ (require): typed there, not here.
let app: any; // eslint-disable-line @typescript-eslint/no-explicit-any
const sockets: Socket[] = [];
try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require('../../dist/server/src/database/data-source.js');
  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 4 })).initialize();
  await runMigrations(ds);
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  const users = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name)
     SELECT 'benchuser' || i, $1, 'u' || i || '@bench.test', 'x', 'User' || i FROM generate_series(1, 3) i RETURNING id, code, email, role`,
    [instance.id],
  );
  const [attacker, alice, bob] = users;
  await ds.query(
    `INSERT INTO chat_group (code, instance_id, type, last_seq, last_message_at)
     SELECT 'benchgroup' || g, $1, 1, CASE WHEN g = 0 THEN $2::bigint ELSE $3::bigint END, now() FROM generate_series(0, $4::int) g`,
    [instance.id, BIG, PER_GROUP, GROUPS],
  );
  await ds.query(`INSERT INTO chat_participant (group_id, user_id) SELECT g.id, $1 FROM chat_group g`, [attacker.id]);
  await ds.query(
    `INSERT INTO chat_message (code, group_id, seq, author_id, text)
     SELECT 'bm' || g.id || '_' || s, g.id, s, $1, 'a message of some ordinary length, number ' || s
     FROM chat_group g CROSS JOIN LATERAL generate_series(1, g.last_seq) s`,
    [attacker.id],
  );
  const [pair] = await ds.query(`INSERT INTO chat_group (code, instance_id, type) VALUES ('benchpair01', $1, 1) RETURNING id`, [instance.id]);
  await ds.query(`INSERT INTO chat_participant (group_id, user_id) VALUES ($1, $2), ($1, $3)`, [pair.id, alice.id, bob.id]);
  await ds.query('VACUUM ANALYZE');

  const { NestFactory } = require('@nestjs/core');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { AppModule } = require('../../dist/server/src/app.module.js');
  const { configureApp } = require('../../dist/server/src/app.setup.js');
  const { TokenService } = require('../../dist/server/src/modules/auth/token.service.js');
  app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const tokens = app.get(TokenService);
  const connect = (user: unknown) =>
    new Promise<Socket>((resolve, reject) => {
      const s = io(base, { auth: { token: tokens.sign(user).token }, transports: ['websocket'], reconnection: false, forceNew: true });
      sockets.push(s);
      s.once('connect', () => resolve(s));
      s.once('connect_error', reject);
    });
  const timedSync = async (socket: Socket, groups: { groupCode: string; afterSeq: number }[]) => {
    const start = performance.now();
    const res = await socket.timeout(60_000).emitWithAck('sync', { groups });
    return { ms: performance.now() - start, bytes: Buffer.byteLength(JSON.stringify(res)), res };
  };

  const hostile = await connect(attacker);
  const probe = await timedSync(
    hostile,
    Array.from({ length: 100 }, () => ({ groupCode: 'benchgroup0', afterSeq: 0 })),
  );
  console.log(
    `probe's sync (one group of ${BIG} messages, listed 100 times): ${probe.res.ok ? `${probe.res.messages.length} messages` : `refused ${probe.res.error.code}`}, ` +
      `${(probe.bytes / 1024).toFixed(1)} KB in ${probe.ms.toFixed(1)} ms`,
  );
  const wideGroups = Array.from({ length: GROUPS }, (_, i) => ({ groupCode: `benchgroup${i + 1}`, afterSeq: 0 }));
  const wideTimes: number[] = [];
  for (let i = 0; i < 5; i++) wideTimes.push((await timedSync(hostile, wideGroups)).ms);
  console.log(`a full answer, 5 in a row: ${wideTimes.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  const wide = await timedSync(hostile, wideGroups);
  console.log(
    `widest legal sync (${GROUPS} groups of ${PER_GROUP} from seq 0): ${wide.res.ok ? `${wide.res.messages.length} messages, more ${wide.res.more.length}` : `refused ${wide.res.error.code}`}, ` +
      `${(wide.bytes / 1024).toFixed(1)} KB in ${wide.ms.toFixed(1)} ms`,
  );
  await sleep(5000); // let the sync buckets refill

  const [sa, sb] = [await connect(alice), await connect(bob)];
  const sentAt = new Map<string, number>();
  let latencies: number[] = [];
  sb.on('message:new', (m: { clientKey: string }) => {
    const at = sentAt.get(m.clientKey);
    if (at !== undefined) latencies.push(performance.now() - at);
  });
  const talk = async (seconds: number) => {
    latencies = [];
    const until = performance.now() + seconds * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const key = `k${randomBytes(6).toString('hex')}`;
      sentAt.set(key, performance.now());
      sa.emit('message:send', { groupCode: 'benchpair01', clientKey: key, message: `hello ${i}` }, () => undefined);
      await sleep(50);
    }
    await sleep(500);
    return latencies;
  };

  console.log(`quiet: alice → bob ${quantiles(await talk(SECONDS))}`);
  const flooders = await Promise.all(Array.from({ length: FLOODERS }, () => connect(attacker)));
  let stop = false;
  const answers = { ok: 0, limited: 0, other: 0, bytes: 0, messages: 0 };
  const flood = flooders.map(async (s) => {
    const groups = Array.from({ length: GROUPS }, (_, i) => ({ groupCode: `benchgroup${i + 1}`, afterSeq: 0 }));
    while (!stop) {
      const res = await s
        .timeout(60_000)
        .emitWithAck('sync', { groups })
        .catch(() => null);
      if (res?.ok) {
        answers.ok++;
        answers.messages += res.messages.length;
        answers.bytes += Buffer.byteLength(JSON.stringify(res));
      } else if (res?.error?.code === 429) answers.limited++;
      else answers.other++;
    }
  });
  const during = await talk(SECONDS);
  stop = true;
  await Promise.all(flood);
  console.log(`during a sync flood by ${FLOODERS} sockets: alice → bob ${quantiles(during)}`);
  console.log(
    `the flood's answers: ${answers.ok} served (${answers.messages} messages, ${(answers.bytes / 1024 / 1024).toFixed(1)} MB), ` +
      `${answers.limited} refused with 429, ${answers.other} other, in ${SECONDS} s`,
  );
  await ds.destroy();
} finally {
  for (const s of sockets) s.close();
  if (app) await app.close();
  await bench.drop();
}
