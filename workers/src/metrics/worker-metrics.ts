import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Job, Queue } from 'bullmq';
import type { Server } from 'node:http';
import { Counter, Gauge, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { PUSH_STATS_KEY, QueueName } from '#shared/contracts/queues';
import { createRegistry, registerPoolGauges, registerQueueDepths, registerRedisPing } from '#shared/metrics/common-series';
import { startMetricsEndpoint } from '#shared/metrics/metrics-endpoint';
import { RedisService } from '#shared/redis/redis.service';
import { JobProcessorHost } from '../jobs/job-processor.host';

const PUSH_OUTCOMES = ['sent', 'failed', 'removed', 'skipped'] as const;

/**
 * The worker's Prometheus series (WORKER_METRICS_PORT): jobs finished per queue, name and outcome, queue depths,
 * push outcomes of all workers (the Redis counters /api/health reads), its Postgres pool and Redis.
 */
@Injectable()
export class WorkerMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerMetrics.name);
  readonly registry: Registry = createRegistry('worker');
  private endpoint?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
    private readonly redis: RedisService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.registerSeries();
    if (this.config.WORKER_METRICS_PORT === undefined) return;
    this.endpoint = await startMetricsEndpoint(this.registry, {
      port: this.config.WORKER_METRICS_PORT,
      host: this.config.METRICS_HOST,
      token: this.config.METRICS_TOKEN,
    });
    this.logger.log(`metrics on http://${this.config.METRICS_HOST}:${this.config.WORKER_METRICS_PORT}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise((resolve) => (this.endpoint ? this.endpoint.close(resolve) : resolve(undefined)));
  }

  get server(): Server | undefined {
    return this.endpoint;
  }

  private registerSeries(): void {
    const registers = [this.registry];
    const jobs = new Counter({
      name: 'parley_jobs_total',
      help: 'jobs finished by this worker, by queue, job name and outcome',
      labelNames: ['queue', 'job', 'outcome'],
      registers,
    });
    const duration = new Gauge({
      name: 'parley_job_last_duration_seconds',
      help: 'how long the last job of each name ran',
      labelNames: ['queue', 'job'],
      registers,
    });
    for (const wrapper of this.discovery.getProviders()) {
      const host: unknown = wrapper.instance;
      if (!(host instanceof JobProcessorHost)) continue;
      const worker = host.worker;
      const finished = (outcome: string) => (job: Job | undefined) => {
        if (!job) return;
        jobs.inc({ queue: worker.name, job: job.name, outcome });
        if (job.processedOn && job.finishedOn) duration.set({ queue: worker.name, job: job.name }, (job.finishedOn - job.processedOn) / 1000);
      };
      worker.on('completed', finished('completed'));
      worker.on('failed', finished('failed'));
      // A stalled job is named by its id only (unbounded): counted per queue.
      worker.on('stalled', () => jobs.inc({ queue: worker.name, job: '', outcome: 'stalled' }));
    }
    const redis = this.redis;
    new Gauge({
      name: 'parley_pushes',
      help: 'push outcomes of all workers since the counters began: sent, failed, removed (expired: 404/410 or pruned), skipped',
      labelNames: ['outcome'],
      registers,
      async collect() {
        const hash = (await redis.client.hGetAll(redis.key(...PUSH_STATS_KEY)).catch(() => null)) as Record<string, string> | null;
        if (hash) for (const outcome of PUSH_OUTCOMES) this.set({ outcome }, Number(hash[outcome] ?? 0));
      },
    });
    registerPoolGauges(this.registry, () => ({
      main: (this.db.driver as unknown as { master?: { totalCount: number; idleCount: number; waitingCount: number } }).master,
    }));
    registerRedisPing(this.registry, this.redis);
    const queues = Object.values(QueueName)
      .map((name) => {
        try {
          return this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
        } catch {
          return undefined;
        }
      })
      .filter((q): q is Queue => !!q);
    registerQueueDepths(this.registry, queues);
  }
}
