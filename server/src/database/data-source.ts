import { DataSource, DataSourceOptions } from 'typeorm';
import { migrations } from '../../../migrations';
import { AppConfig } from '#shared/config/config.schema';
import { postgresOptions, SchemaOptions } from '#shared/database/postgres-options';
import { entities } from './entities';

/** The server's schema: every entity and migration (the worker needs neither: it writes SQL). */
export const serverSchema: SchemaOptions = { entities, migrations };

/** The DataSource definition used by the server and the migration CLI. */
export function dataSourceOptions(config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>): DataSourceOptions {
  return postgresOptions(config, serverSchema);
}

const MIGRATION_LOCK = 7_243_190_001;

/** Runs pending migrations under an advisory lock, so replicas starting together run them once. */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const done = await dataSource.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
