import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../server/src/database/data-source';
import { HOT_PATH_SESSION_OPTIONS } from '../../server/src/modules/chat/send/hot-path-session';
import { INSERT_MESSAGES_SQL } from '../../server/src/modules/chat/send/chat-message-insert.sql';
import { readTestRun } from '../utils/test-env';

/**
 * The batch insert runs on one generic plan per connection, planned at its first execution and kept until the
 * tables' statistics change. On a fresh install that first execution meets empty, never-analysed tables; a plan
 * that reads whole tables there (cheap while they are empty) then read every stored message for every batch,
 * getting slower with each message until autovacuum's first ANALYZE. Every step must be an index probe whatever
 * the statistics say.
 */
describe('the hot-path insert plan on a fresh database', () => {
  const run = readTestRun();
  const database = `parley_plan_${randomBytes(4).toString('hex')}`;
  const url = new URL(run.adminUrl);
  url.pathname = `/${database}`;
  const admin = new Client({ connectionString: run.adminUrl });
  let hotPath: Client;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${database}"`);
    const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: url.toString(), DATABASE_POOL_SIZE: 2 })).initialize();
    await runMigrations(ds);
    await ds.destroy();
    hotPath = new Client({ connectionString: url.toString(), options: HOT_PATH_SESSION_OPTIONS });
    await hotPath.connect();
  });

  afterAll(async () => {
    await hotPath?.end();
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
  });

  it('reads no table whole: every lookup probes an index', async () => {
    const { rows: analysed } = await hotPath.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL`,
    );
    expect(analysed[0].n).toBe(0);

    await hotPath.query(`PREPARE batch AS ${INSERT_MESSAGES_SQL}`);
    const { rows } = await hotPath.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) EXECUTE batch(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
    );
    const reads = scansOf(rows[0]['QUERY PLAN'][0].Plan);

    // The client-key lookup, whose seq scan read every stored message for every batch.
    expect(reads).toContainEqual({ table: 'chat_message', index: 'UQ_chat_message_client_key', probe: true });
    // The offer of an off-platform text (only such texts look it up), by its code.
    expect(reads).toContainEqual({ table: 'job_offer', index: 'UQ_job_offer_code', probe: true });
    expect(reads.filter((r) => !r.probe)).toEqual([]);
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** An index condition that looks up given values (a parameter or another row's column), not a constant test. */
const LOOKS_UP = /\$\d|\b\w+\.\w+\b/;

/** Every read of a table or index in the plan, and whether it looks rows up by an index condition. */
function scansOf(node: PlanNode): { table?: string; index?: string; probe: boolean }[] {
  const type = node['Node Type'];
  const here =
    type === 'Seq Scan' || type.includes('Index')
      ? [{ table: node['Relation Name'], index: node['Index Name'], probe: type !== 'Seq Scan' && LOOKS_UP.test(node['Index Cond'] ?? '') }]
      : [];
  return [...here, ...(node.Plans ?? []).flatMap(scansOf)];
}
