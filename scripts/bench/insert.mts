// Benchmark: what the hot path's one statement (INSERT_MESSAGES_SQL) costs Postgres, per statement and per message.
// Seeds a throw-away database (GROUPS groups of 10 members), opens one connection with the hot-path session
// options and runs the statement as the app does (named, so planned once; the participants' codes known, so not
// read again) with batches of each size, in alternating rounds. For each size it prints the backend's CPU time
// (from /proc, so the database must run on this machine) and the wall time per statement, and from both a straight
// line: the CPU every statement pays whatever it holds, and what each message adds. Prints figures; asserts nothing.
// Usage: npm run bench:insert -- [sizes=1,2,5,10,20] [statements per size and round=600] [rounds=3]
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { HOT_PATH_SESSION_OPTIONS } from '../../server/src/modules/chat/send/hot-path-session.ts';
import { createBenchDatabase } from './bench-database.mts';

const require = createRequire(import.meta.url);
const { Client } = require('pg') as typeof import('pg');
const SIZES = (process.argv[2] ?? '1,2,5,10,20').split(',').map(Number);
const STATEMENTS = Number(process.argv[3] ?? 600);
const ROUNDS = Number(process.argv[4] ?? 3);
const GROUPS = 200;
const MEMBERS = 10;
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** The backend's user + system CPU time in µs (clock-tick resolution), or null where /proc can't tell. */
function backendCpuUs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_US;
  } catch {
    return null;
  }
}

/** Least squares y = fixed + perItem · x. */
function line(points: [number, number][]): { fixed: number; perItem: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const perItem = sxx ? sxy / sxx : 0;
  return { fixed: my - perItem * mx, perItem };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const bench = await createBenchDatabase();
// The same session settings as the hot-path pool's connections.
const db = new Client({ connectionString: bench.databaseUrl, options: HOT_PATH_SESSION_OPTIONS });
try {
  const { DataSource } = require('typeorm');
  // The data source lists the entities, whose decorators need the compiled dist (tsx emits no decorator metadata).
  const { dataSourceOptions, runMigrations } = require('../../dist/server/src/database/data-source.js');
  // From dist: the statement's module imports #shared/*, which package.json maps to dist/shared (no type declarations there).
  const { INSERT_MESSAGES_SQL } = require('../../dist/server/src/modules/chat/send/chat-message-insert.sql.js');
  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: bench.databaseUrl, DATABASE_POOL_SIZE: 2 })).initialize();
  await runMigrations(ds);
  const [instance] = await ds.query(`INSERT INTO instance (code, name, is_default) VALUES ('benchinst', 'Bench', true) RETURNING id`);
  await ds.query(
    `INSERT INTO "user" (code, instance_id, email, password_hash, name)
     SELECT 'benchuser' || i, $1, 'user' || i || '@bench.test', 'x', 'User' || i FROM generate_series(1, $2) i`,
    [instance.id, GROUPS * MEMBERS],
  );
  await ds.query(`INSERT INTO chat_group (code, instance_id, type) SELECT 'benchgroup' || g, $1, 1 FROM generate_series(1, $2) g`, [instance.id, GROUPS]);
  await ds.query(
    `INSERT INTO chat_participant (group_id, user_id)
     SELECT g.id, u.id FROM chat_group g JOIN "user" u ON substr(u.code, 10)::int % $1 = substr(g.code, 11)::int % $1`,
    [GROUPS],
  );
  await ds.query('VACUUM ANALYZE');
  const members: { groupCode: string; userId: string; version: string }[] = await ds.query(
    `SELECT g.code AS "groupCode", p.user_id AS "userId", g.participants_version AS version
     FROM chat_participant p JOIN chat_group g ON g.id = p.group_id ORDER BY random()`,
  );
  await ds.destroy();
  console.log(`seeded ${GROUPS} groups of ${MEMBERS}; ${ROUNDS} rounds of ${STATEMENTS} statements per batch size`);

  await db.connect();
  const [{ pid }] = (await db.query('SELECT pg_backend_pid() AS pid')).rows;
  let next = 0;
  const run = async (size: number) => {
    const items = Array.from({ length: size }, () => members[next++ % members.length]);
    const { rowCount } = await db.query({
      name: 'chat-insert-messages',
      text: INSERT_MESSAGES_SQL,
      values: [
        items.map((i) => i.groupCode),
        items.map((i) => i.userId),
        items.map(() => randomUUID().replaceAll('-', '').slice(0, 20)),
        items.map(() => 1),
        items.map((_, k) => `bench message ${next + k}`),
        items.map(() => null),
        items.map(() => randomUUID()),
        [],
        [],
        [],
        items.map(() => null),
        items.map((i) => i.version),
        items.map(() => false),
        items.map(() => null),
        items.map(() => false),
        items.map(() => null),
      ],
    });
    if (rowCount !== size) throw new Error(`a batch of ${size} answered ${rowCount} rows`);
  };
  for (let i = 0; i < 200; i++) await run(SIZES[i % SIZES.length]);

  const cpu = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  const wall = new Map<number, number[]>(SIZES.map((s) => [s, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const size of round % 2 ? [...SIZES].reverse() : SIZES) {
      const cpuBefore = backendCpuUs(pid);
      const started = performance.now();
      for (let i = 0; i < STATEMENTS; i++) await run(size);
      wall.get(size)!.push(((performance.now() - started) * 1000) / STATEMENTS);
      const cpuAfter = backendCpuUs(pid);
      if (cpuBefore !== null && cpuAfter !== null) cpu.get(size)!.push((cpuAfter - cpuBefore) / STATEMENTS);
    }
  }

  const hasCpu = SIZES.every((s) => cpu.get(s)!.length);
  console.log(`\nbatch   backend CPU per statement   per message   wall per statement (medians of ${ROUNDS} rounds)`);
  for (const size of SIZES) {
    const c = hasCpu ? median(cpu.get(size)!) : NaN;
    const cells = hasCpu ? `${c.toFixed(0).padStart(8)} µs ${(c / size).toFixed(0).padStart(16)} µs` : `${'n/a'.padStart(11)} ${'n/a'.padStart(19)}`;
    console.log(`${String(size).padStart(5)}   ${cells}   ${median(wall.get(size)!).toFixed(0).padStart(10)} µs`);
  }
  const fit = (m: Map<number, number[]>) => line(SIZES.map((s) => [s, median(m.get(s)!)]));
  if (hasCpu) {
    const { fixed, perItem } = fit(cpu);
    console.log(`backend CPU ≈ ${fixed.toFixed(0)} µs per statement + ${perItem.toFixed(0)} µs per message`);
  } else console.log('backend CPU: not readable here (/proc of the Postgres backend); wall time only');
  const { fixed, perItem } = fit(wall);
  console.log(`wall ≈ ${fixed.toFixed(0)} µs per statement + ${perItem.toFixed(0)} µs per message (one connection, nothing else running)`);
} finally {
  await db.end().catch(() => undefined);
  await bench.drop();
}
