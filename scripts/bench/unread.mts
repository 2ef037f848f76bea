// Benchmark: the cost of unread counts and the group list for a heavy user.
// Seeds a throw-away database (a user in GROUPS groups holding MESSAGES messages in all), boots the built
// server in-process and times GET /api/message/UnreadCount and GET /api/message/groups over HTTP (warm: 200 calls
// each after 20 untimed ones), GET /api/me as the floor any authenticated call pays, then the unread query alone,
// the one the app runs beside the one it ran before the counts went per group (docs/message-path.md, unread counts), alternating, with
// their totals.
// Prints figures; asserts nothing.
// Usage: npm run bench:unread -- [groups=1000] [messages=100000]
// (TSX_TSCONFIG_PATH keeps tsx from mapping the built server's #shared imports back to the sources, which would
// run Nest code without decorator metadata.)
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { createBenchDatabase } from './bench-database.mts';

const require = createRequire(import.meta.url);
const GROUPS = Number(process.argv[2] ?? 1000);
const MESSAGES = Number(process.argv[3] ?? 100000);
const ROUNDS = 30;
/**
 * Timed HTTP calls per route, after WARM_CALLS untimed ones: a running server has compiled its request path long
 * before, and with one warm-up call the first few dozen calls still ran partly unoptimised and set the p50.
 */
const HTTP_ROUNDS = 200;
const WARM_CALLS = 20;
/** The unread expression as it was before the counts went per group, timed beside the app's own. */
const BEFORE_UNREAD_SQL = `(SELECT count(*) FROM chat_message m
   WHERE m.group_id = p.group_id AND m.seq > p.read_seq AND m.deleted_at IS NULL AND m.author_id IS DISTINCT FROM p.user_id)`;
const bench = await createBenchDatabase();

Object.assign(process.env, bench.env);

const stats = (xs: number[]): string => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number): number => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `p50 ${q(0.5).toFixed(1)} ms · p95 ${q(0.95).toFixed(1)} ms · max ${s[s.length - 1].toFixed(1)} ms`;
};

// The app comes from dist/ (require): typed there, not here.
let app: any; // eslint-disable-line @typescript-eslint/no-explicit-any
try {
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require('../../dist/server/src/database/data-source.js');
  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 4 })).initialize();
  await runMigrations(ds);

  const t0 = performance.now();
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  const [me] = await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name) VALUES ('benchme01', $1, 'me@bench.test', 'x', 'Me') RETURNING id, code, email, role`,
    [instance.id],
  );
  await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name)
     SELECT 'benchother' || i, $1, 'other' || i || '@bench.test', 'x', 'Other' || i FROM generate_series(1, 10) i`,
    [instance.id],
  );
  const perGroup = Math.floor(MESSAGES / GROUPS);
  await ds.query(
    `INSERT INTO chat_group (code, instance_id, type, last_seq, last_message_at)
     SELECT 'benchgroup' || g, $1, 1, $2, now() - (g || ' minutes')::interval FROM generate_series(1, $3) g`,
    [instance.id, perGroup, GROUPS],
  );
  // Me in every group; my marker leaves half the groups fully read and the other half with half unread.
  await ds.query(
    `INSERT INTO chat_participant (group_id, user_id, read_seq)
     SELECT g.id, $1, CASE WHEN g.id % 2 = 0 THEN $2 ELSE $2 / 2 END FROM chat_group g`,
    [me.id, perGroup],
  );
  await ds.query(
    `INSERT INTO chat_participant (group_id, user_id)
     SELECT g.id, u.id FROM chat_group g JOIN "user" u ON u.code = 'benchother' || (1 + g.id % 10)`,
  );
  await ds.query(
    `INSERT INTO chat_message (code, group_id, seq, author_id, text, created_at)
     SELECT 'bm' || g.id || '_' || s, g.id, s, p.user_id, 'message ' || s, now() - ((${perGroup} - s) || ' seconds')::interval
     FROM chat_group g CROSS JOIN generate_series(1, $1) s
     JOIN chat_participant p ON p.group_id = g.id AND p.user_id <> $2`,
    [perGroup, me.id],
  );
  // A few messages that don't count, so both queries' totals show they agree: deleted ones, and mine after my marker
  // (only seeded data has those: sending moves the author's marker).
  await ds.query(`UPDATE chat_message SET deleted_at = now() WHERE seq % 10 = 0 AND group_id % 4 = 1`);
  await ds.query(`UPDATE chat_message SET author_id = $1 WHERE seq % 25 = 0 AND group_id % 3 = 0`, [me.id]);
  await ds.query('VACUUM ANALYZE');
  console.log(`seeded ${GROUPS} groups, ${GROUPS * perGroup} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const { NestFactory } = require('@nestjs/core');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { AppModule } = require('../../dist/server/src/app.module.js');
  const { configureApp } = require('../../dist/server/src/app.setup.js');
  const { TokenService } = require('../../dist/server/src/modules/auth/token.service.js');
  app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const { token } = app.get(TokenService).sign(me);
  const get = async (path: string) => {
    const start = performance.now();
    const res = await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } });
    const body = (await res.json()) as { total?: number; groups?: object };
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - start, body };
  };

  for (const [label, path] of [
    ['GET /api/me (the floor: auth and one row)', '/api/me'],
    ['GET /api/message/UnreadCount', '/api/message/UnreadCount'],
    ['GET /api/message/groups (page 1, 50)', '/api/message/groups'],
  ]) {
    for (let i = 0; i < WARM_CALLS; i++) await get(path);
    const times: number[] = [];
    let body: Awaited<ReturnType<typeof get>>['body'] = {};
    for (let i = 0; i < HTTP_ROUNDS; i++) ({ ms: times[i], body } = await get(path));
    const extra = body.total !== undefined ? ` (total ${body.total} in ${Object.keys(body.groups ?? {}).length} groups)` : '';
    console.log(`${label}: ${stats(times)} over ${HTTP_ROUNDS} calls after ${WARM_CALLS} untimed${extra}`);
  }
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { UNREAD_SQL } = require('../../dist/server/src/modules/chat/unread/unread-counts.repository.js');
  const unreadQuery = (expression: string): string =>
    `SELECT g.code, ${expression}::int AS unread FROM chat_participant p JOIN chat_group g ON g.id = p.group_id
     WHERE p.user_id = $1 AND g.last_seq > p.read_seq`;
  const queries = {
    'before (counts every unread message)': unreadQuery(BEFORE_UNREAD_SQL),
    'now (per group: seqs minus deleted and own)': unreadQuery(UNREAD_SQL),
  };
  const sqlTimes = new Map<string, number[]>(Object.keys(queries).map((k) => [k, []]));
  const totals = new Map<string, number>();
  for (let i = 0; i < ROUNDS; i++) {
    for (const [label, sql] of Object.entries(queries)) {
      const start = performance.now();
      const rows: { unread: number }[] = await ds.query(sql, [me.id]);
      sqlTimes.get(label)!.push(performance.now() - start);
      const total = rows.reduce((sum, r) => sum + r.unread, 0);
      totals.set(label, total);
    }
  }
  for (const [label, times] of sqlTimes) console.log(`unread query ${label}: ${stats(times)} over ${ROUNDS} runs (total ${totals.get(label)})`);
  const plan = await ds.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${queries['now (per group: seqs minus deleted and own)']}`, [me.id]);
  console.log('unread query plan:\n  ' + plan.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n  '));
  await ds.destroy();
} finally {
  if (app) await app.close();
  await bench.drop();
}
