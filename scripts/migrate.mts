// npm run migrate: runs pending migrations. npm run migrate:revert (--revert): reverts the last one.
// Uses the same DataSource definition as the server (built into dist/), and with DATABASE_URL unset the
// launcher's embedded Postgres under .data/ (a running one is used as it is, a stopped one is started and stopped).
import { createRequire } from 'node:module';
import path from 'node:path';
import { LaunchError, ROOT, loadDotEnv, log, setLogName } from './lib/common.mts';
import { buildServer, serverStale } from './lib/build.mts';
import { startEmbeddedPostgres } from './lib/services.mts';

const require = createRequire(import.meta.url);
const revert = process.argv.includes('--revert');
setLogName('migrate');
let stopPostgres = async (): Promise<void> => undefined;

process.on('SIGINT', () => stopPostgres().finally(() => process.exit(130)));
process.on('SIGTERM', () => stopPostgres().finally(() => process.exit(143)));

async function main() {
  loadDotEnv();
  if (serverStale()) await buildServer();
  let url = process.env.DATABASE_URL;
  if (!url) {
    const pg = await startEmbeddedPostgres({ ifRunning: 'use' });
    stopPostgres = pg.stop;
    url = pg.url;
    log(`Postgres: ${pg.note}`);
  }
  const { DataSource } = require('typeorm');
  // From dist: Nest modules, providers and entities need decorator metadata, which tsx does not emit.
  const { dataSourceOptions, runMigrations } = require(path.join(ROOT, 'dist/server/src/database/data-source.js'));
  const ds = await new DataSource(dataSourceOptions({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 })).initialize();
  try {
    if (revert) {
      const applied = await ds.query('SELECT name FROM migrations ORDER BY timestamp DESC, id DESC LIMIT 1').catch(() => []);
      if (!applied.length) return log('no migration to revert');
      await ds.undoLastMigration({ transaction: 'each' });
      log(`reverted ${applied[0].name}`);
    } else {
      const done = await runMigrations(ds);
      log(done.length ? `ran ${done.join(', ')}` : 'no pending migrations');
    }
  } finally {
    await ds.destroy();
  }
}

main()
  .then(() => stopPostgres())
  .catch(async (err) => {
    log(`error: ${err instanceof LaunchError ? err.message : (err?.stack ?? err)}`);
    await stopPostgres().catch(() => undefined);
    process.exit(1);
  });
