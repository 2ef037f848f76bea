import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { AppConfig } from '../config/config.schema';

/** What the server and the worker need of a schema: the server maps entities and knows the migrations; the worker writes SQL. */
export type SchemaOptions = Pick<PostgresConnectionOptions, 'entities' | 'migrations'>;

/** The Postgres connection every process opens: the deployment's DATABASE_URL, no schema sync, its own pool size. */
export function postgresOptions(config: Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>, schema: SchemaOptions = {}): PostgresConnectionOptions {
  return {
    type: 'postgres',
    url: config.DATABASE_URL,
    entities: schema.entities ?? [],
    migrations: schema.migrations ?? [],
    synchronize: false,
    migrationsRun: false,
    migrationsTableName: 'migrations',
    extra: { max: config.DATABASE_POOL_SIZE },
  };
}
