import { DataSource, DataSourceOptions } from 'typeorm';
import { migrations } from '../../../migrations';
import { AppConfig } from '../config/config.schema';
import { entities } from './entities';

/** The one DataSource definition used by the server, the worker and the migration CLI. */
export function dataSourceOptions(config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.DATABASE_URL,
    entities,
    migrations,
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    extra: { max: config.DATABASE_POOL_SIZE },
  };
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
