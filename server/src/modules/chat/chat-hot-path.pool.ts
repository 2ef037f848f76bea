import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { INSERT_LANES } from './chat-message-insert.lanes';

/**
 * The batched message insert's own connections, one per insert lane. They run prepared statements on their
 * generic plan: under the default plan_cache_mode, Postgres kept re-planning the batch statement for every
 * call (its generic plan's estimate never beat the custom ones), which doubled its cost (2.5 → 1.1 ms for two
 * messages). The app's other queries keep the default on the main pool.
 */
@Injectable()
export class ChatHotPathPool implements OnModuleDestroy {
  private readonly logger = new Logger(ChatHotPathPool.name);
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = new Pool({ connectionString: config.DATABASE_URL, max: INSERT_LANES, options: '-c plan_cache_mode=force_generic_plan' });
    // An idle connection that breaks is dropped by the pool; without a listener it would crash the process.
    this.pool.on('error', (err) => this.logger.warn(`hot-path connection: ${err.message}`));
  }

  query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>> {
    return this.pool.query<R>(config);
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.end();
  }
}
