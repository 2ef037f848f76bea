import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';

/**
 * The hot-path connections' session settings. A prepared statement runs on its generic plan: under the default
 * plan_cache_mode, Postgres kept re-planning the batch statement for every call (its generic plan's estimate
 * never beat the custom ones), which doubled its cost (2.5 → 1.1 ms for two messages). That plan is made once
 * per connection and kept until the tables' statistics change, so on a fresh install it was made for empty,
 * never-analysed tables: it read chat_message whole to find a repeated client key, every batch, slower with each
 * message stored until autovacuum's first ANALYZE (Postgres 770 µs per message at 500 msg/s in the first load
 * run on a new database, 350 once analysed). No sequential scans: every step of the statement is an index probe
 * whatever the statistics say.
 */
export const HOT_PATH_SESSION_OPTIONS = '-c plan_cache_mode=force_generic_plan -c enable_seqscan=off';

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
