import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { hostname } from 'node:os';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, QueueName, WORKER_HEARTBEAT_KEY, WorkerHeartbeat } from '#shared/contracts/queues';
import { JobService } from '#shared/queue/job.service';
import { RedisService } from '#shared/redis/redis.service';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';

const OUTBOX_PRUNE_EVERY_MS = 3600_000;
const PRUNE_BATCH = 5000;

/** Housekeeping jobs. The heartbeat proves a worker can reach Postgres and Redis; /api/health reads it. */
@JobProcessor(QueueName.Maintenance)
export class MaintenanceProcessor extends JobProcessorHost implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    private readonly redis: RedisService,
    private readonly jobs: JobService,
  ) {
    super();
    configureWorker(MaintenanceProcessor, { lockDuration: config.WORKER_LOCK_DURATION_MS, stalledInterval: config.WORKER_STALLED_INTERVAL_MS });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.Heartbeat, this.config.HEARTBEAT_INTERVAL * 1000, {});
    await this.jobs.schedule(JobName.PruneOutbox, OUTBOX_PRUNE_EVERY_MS, {});
  }

  /**
   * Every message writes an outbox row; once dispatched it is kept OUTBOX_RETENTION_HOURS, then deleted in
   * batches, oldest first along the primary key, so the table stays the size of a few days' traffic.
   */
  @OnJob(JobName.PruneOutbox)
  async pruneOutbox(): Promise<{ removed: number }> {
    let removed = 0;
    for (;;) {
      const [row]: { n: number }[] = await this.db.query(
        `WITH d AS (
           DELETE FROM outbox WHERE id IN (
             SELECT id FROM outbox WHERE dispatched_at < now() - make_interval(hours => $1::int) ORDER BY id LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM d`,
        [this.config.OUTBOX_RETENTION_HOURS, PRUNE_BATCH],
      );
      removed += row.n;
      if (row.n < PRUNE_BATCH) return { removed };
    }
  }

  @OnJob(JobName.Heartbeat)
  async heartbeat(): Promise<WorkerHeartbeat> {
    await this.db.query('SELECT 1');
    const beat: WorkerHeartbeat = { at: new Date().toISOString(), pid: process.pid, host: hostname() };
    await this.redis.client.set(this.redis.key(...WORKER_HEARTBEAT_KEY), JSON.stringify(beat), {
      EX: 3 * this.config.HEARTBEAT_INTERVAL,
    });
    return beat;
  }
}
