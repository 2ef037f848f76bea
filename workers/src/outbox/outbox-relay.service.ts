import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobsOptions, Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JOB_QUEUE, JobName, OUTBOX_TOPIC_JOBS, QueueName } from '#shared/contracts/queues';
import { bullConnection, bullPrefix } from '#shared/queue/bull-connection';
import { OutboxDispatchSpans } from './outbox-dispatch-spans';
import { OUTBOX_JOB_OWNERS, OutboxJobOwner, OutboxRow, UnneededRows } from './outbox-job-owner';

/** How long one relay pass waits for Redis before giving the rows back (they are retried on the next pass). */
const REDIS_WAIT_MS = 5000;
const MAX_BACKOFF_MS = 5000;

/** The BullMQ job id of an outbox row: a replay of the same row adds nothing while the job is kept. */
export const outboxJobId = (id: string | number) => `outbox-${id}`;

/**
 * Moves committed outbox rows to BullMQ. Runs in every worker process: each pass locks a batch of pending rows
 * (FOR UPDATE SKIP LOCKED, so replicas share the work), adds the jobs of each row's topic (at most one per queue,
 * each with job id 'outbox-<id>'), and
 * marks the rows dispatched in the same transaction. It decides nothing: a job's owner (OutboxJobOwner) says
 * which rows need no job (marked dispatched all the same) and how long a job waits. If Redis does not take the
 * jobs, the transaction rolls back and the rows wait for the next pass: nothing between a Postgres commit and the
 * queue is lost.
 *
 * Polling (OUTBOX_POLL_MS, 250 ms) rather than LISTEN/NOTIFY: a NOTIFY from the hot-path statement would take
 * Postgres's global notify lock at every message commit, and a chat push waits PUSH_DELAY_MS anyway.
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutboxRelay.name);
  private readonly queues = new Map<QueueName, Queue>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private failures = 0;
  private readonly owners: Map<JobName, OutboxJobOwner>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly db: DataSource,
    @Inject(OUTBOX_JOB_OWNERS) owners: OutboxJobOwner[],
  ) {
    this.owners = new Map(owners.map((o) => [o.job, o]));
  }

  onApplicationBootstrap(): void {
    for (const name of new Set(Object.values(OUTBOX_TOPIC_JOBS).flatMap((jobs) => jobs.map((job) => JOB_QUEUE[job])))) {
      // Fail fast while Redis is away (no offline queue), so a pass never holds its row locks waiting for it.
      const queue = new Queue(name, {
        connection: { ...bullConnection(this.config.REDIS_URL), enableOfflineQueue: false, maxRetriesPerRequest: 1 },
        prefix: bullPrefix(this.config.REDIS_PREFIX),
      });
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    await Promise.all([...this.queues.values()].map((q) => q.close().catch(() => undefined)));
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pass().then(
        (moved) => {
          this.failures = 0;
          this.schedule(moved >= this.config.OUTBOX_BATCH ? 0 : this.config.OUTBOX_POLL_MS);
        },
        (err: unknown) => {
          this.failures += 1;
          if (this.failures === 1 || this.failures % 20 === 0) {
            this.logger.warn(`outbox relay: ${(err as Error).message} (attempt ${this.failures}); rows stay pending`);
          }
          this.schedule(Math.min(this.config.OUTBOX_POLL_MS * 2 ** this.failures, MAX_BACKOFF_MS));
        },
      );
    }, ms);
  }

  /** One pass: answers how many rows it dispatched. */
  async pass(): Promise<number> {
    const runner = this.db.createQueryRunner();
    await runner.connect();
    let ids: string[] = [];
    const spans = new OutboxDispatchSpans();
    try {
      await runner.startTransaction();
      const rows: OutboxRow[] = await runner.query(
        `SELECT id, topic, payload, created_at, traceparent FROM outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.config.OUTBOX_BATCH],
      );
      ids = rows.map((r) => r.id);
      if (rows.length === 0) {
        await runner.commitTransaction();
        return 0;
      }
      const jobsOf = (row: OutboxRow): readonly JobName[] => OUTBOX_TOPIC_JOBS[row.topic] ?? [];
      const owners = [...this.owners.values()];
      const unneeded = await Promise.all(
        owners.map((o) =>
          o.unneeded(
            rows.filter((r) => jobsOf(r).includes(o.job)),
            runner,
          ),
        ),
      );
      const skip = new Map(owners.map((o, i) => [o.job, unneeded[i].rowIds]));
      const byQueue = new Map<QueueName, { name: string; data: object; opts: JobsOptions }[]>();
      for (const row of rows) {
        if (!jobsOf(row).length) {
          this.logger.warn(`outbox row ${row.id}: no job for topic "${row.topic}"; marked dispatched`);
          continue;
        }
        for (const job of jobsOf(row)) {
          if (skip.get(job)?.has(row.id)) continue;
          const list = byQueue.get(JOB_QUEUE[job]) ?? [];
          list.push({ name: job, data: this.jobData(job, row, spans.traceparentFor(row)), opts: this.jobOptions(job, row) });
          byQueue.set(JOB_QUEUE[job], list);
        }
      }
      await withTimeout(Promise.all([...byQueue].map(([queue, jobs]) => this.queues.get(queue)!.addBulk(jobs))), REDIS_WAIT_MS, 'Redis did not take the jobs');
      await runner.query(`UPDATE outbox SET dispatched_at = now() WHERE id = ANY($1::bigint[])`, [ids]);
      await runner.commitTransaction();
      spans.end();
      // Whatever follows the dispatch (a count): its failure is no reason to dispatch the rows again.
      await Promise.all(unneeded.map((u: UnneededRows) => u.afterDispatch().catch(() => undefined)));
      return rows.length;
    } catch (err) {
      spans.fail(err);
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      if (ids.length) {
        await this.db.query(`UPDATE outbox SET attempts = attempts + 1 WHERE id = ANY($1::bigint[])`, [ids]).catch(() => undefined);
      }
      throw err;
    } finally {
      await runner.release();
    }
  }

  /** A job's data: the row's payload, its id and, while its trace goes on, the trace context (TraceCarrier). */
  private jobData(job: JobName, row: OutboxRow, traceparent: string | undefined): object {
    const p = row.payload;
    const trace = traceparent ? { traceparent } : undefined;
    if (job === JobName.NotifyMessage) {
      return { outboxId: String(row.id), groupId: String(p.groupId), messageId: String(p.messageId), seq: Number(p.seq), ...trace };
    }
    if (job === JobName.TranslateMessage) return { outboxId: String(row.id), groupId: String(p.groupId), messageId: String(p.messageId), ...trace };
    return { ...p, outboxId: String(row.id), ...trace };
  }

  private jobOptions(job: JobName, row: OutboxRow): JobsOptions {
    const owner = this.owners.get(job);
    const retry = owner?.retry?.() ?? { attempts: this.config.PUSH_ATTEMPTS, backoffMs: this.config.PUSH_BACKOFF_MS };
    return {
      jobId: outboxJobId(row.id),
      delay: owner?.delayMs(row) ?? 0,
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { count: 5000 },
    };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() =>
    clearTimeout(timer),
  );
}
