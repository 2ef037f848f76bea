import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { HOT_PATH_SESSION_OPTIONS } from './hot-path-session';

/**
 * The batched message insert's own connections. One: the insert queue runs one statement at a time, and a
 * statement's cost is mostly per statement, so more connections would only split its batches.
 */
export const HOT_PATH_POOL_MAX = 1;

/** The batched message insert's own connections. The app's other queries use the main pool. */
@Injectable()
export class ChatHotPathPool implements OnModuleDestroy {
  private readonly logger = new Logger(ChatHotPathPool.name);
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new Pool({ connectionString: config.DATABASE_URL, max: HOT_PATH_POOL_MAX, options: HOT_PATH_SESSION_OPTIONS });
    // An idle connection that breaks is dropped by the pool; without a listener it would crash the process.
    this.pool.on('error', (err) => this.logger.warn(`hot-path connection: ${err.message}`));
  }

  query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>> {
    return this.pool.query<R>(config);
  }

  /** Open, idle and waiting counts, for the metrics. */
  get stats(): Pick<Pool, 'totalCount' | 'idleCount' | 'waitingCount'> {
    return this.pool;
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.end();
  }
}
