import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import type { Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { QueueName } from '#shared/contracts/queues';
import { createRegistry, registerPoolGauges, registerQueueDepths, registerRedisPing } from '#shared/metrics/common-series';
import { startMetricsEndpoint } from '#shared/metrics/metrics-endpoint';
import { RedisService } from '#shared/redis/redis.service';
import { ChatHotPathPool } from '../chat/send/chat-hot-path.pool';
import { ChatMessageInsertQueue } from '../chat/send/chat-message-insert.queue';
import { FanoutLag } from '../../fanout/fanout-lag';
import { sendTally } from '../../realtime/send-tally';
import { SocketEmitter } from '../../realtime/socket-emitter.service';

/**
 * The server's Prometheus series. What the send path touches is read at scrape time (sockets, send tallies, fan-out
 * lag, insert wait, pools, queues): the path itself only bumps plain numbers. HTTP requests are counted per route.
 */
@Injectable()
export class ServerMetrics implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ServerMetrics.name);
  readonly registry: Registry = createRegistry('server');
  readonly httpRequests = new Counter({
    name: 'parley_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'parley_http_request_duration_seconds',
    help: 'time to answer an HTTP request, by route pattern',
    labelNames: ['route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private endpoint?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
    private readonly redis: RedisService,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.registerSeries();
    if (this.config.METRICS_PORT === undefined) return;
    this.endpoint = await startMetricsEndpoint(this.registry, {
      port: this.config.METRICS_PORT,
      host: this.config.METRICS_HOST,
      token: this.config.METRICS_TOKEN,
    });
    this.logger.log(`metrics on http://${this.config.METRICS_HOST}:${this.config.METRICS_PORT}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    await new Promise((resolve) => (this.endpoint ? this.endpoint.close(resolve) : resolve(undefined)));
  }

  /** The endpoint's server (tests read its port). */
  get server(): Server | undefined {
    return this.endpoint;
  }

  private find<T>(token: unknown): T | undefined {
    try {
      return this.moduleRef.get<T>(token as string, { strict: false });
    } catch {
      return undefined;
    }
  }

  private registerSeries(): void {
    const registers = [this.registry];
    const emitter = this.find<SocketEmitter>(SocketEmitter);
    const fanoutLag = this.find<FanoutLag>(FanoutLag);
    const inserts = this.find<ChatMessageInsertQueue>(ChatMessageInsertQueue);
    const hotPath = this.find<ChatHotPathPool>(ChatHotPathPool);
    new Gauge({
      name: 'parley_sockets_connected',
      help: 'Socket.IO connections open on this node',
      registers,
      collect() {
        this.set(emitter?.io?.of('/').sockets.size ?? 0);
      },
    });
    let counted = { accepted: 0, refused: {} as Record<number, number> };
    new Counter({
      name: 'parley_messages_total',
      help: 'message:send acknowledgements, accepted or refused by code',
      labelNames: ['outcome', 'code'],
      registers,
      collect() {
        // The tally only grows: add what it gained since the last scrape.
        this.inc({ outcome: 'accepted', code: '' }, sendTally.accepted - counted.accepted);
        for (const [code, n] of Object.entries(sendTally.refused)) this.inc({ outcome: 'refused', code }, n - (counted.refused[Number(code)] ?? 0));
        counted = { accepted: sendTally.accepted, refused: { ...sendTally.refused } };
      },
    });
    new Gauge({
      name: 'parley_fanout_lag_seconds',
      help: 'the largest send→fan-out lag this node saw since the last scrape (0: caught up)',
      registers,
      collect() {
        this.set((fanoutLag?.takeForScrape() ?? 0) / 1000);
      },
    });
    new Gauge({
      name: 'parley_insert_wait_seconds',
      help: 'how long a send queued now would wait for its insert statement',
      registers,
      collect() {
        this.set((inserts?.waitMs() ?? 0) / 1000);
      },
    });
    registerPoolGauges(this.registry, () => ({ main: (this.db.driver as unknown as { master?: PgPoolLike }).master, 'hot-path': hotPath?.stats }));
    registerRedisPing(this.registry, this.redis);
    const queues = Object.values(QueueName)
      .map((name) => this.find<Queue>(getQueueToken(name)))
      .filter((q): q is Queue => !!q);
    registerQueueDepths(this.registry, queues);
  }
}

interface PgPoolLike {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}
