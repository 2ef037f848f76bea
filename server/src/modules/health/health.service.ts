import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QueueName } from '#shared/contracts/queues';
import { RedisService } from '#shared/redis/redis.service';
import { readPushStats } from '#shared/push/push-stats';
import { HealthProbes } from './health-probes';
import { HealthResponseDto } from './health.dto';

/** Liveness plus readiness: ready when Postgres and Redis both answer; the worker and notifications are informational. */
@Injectable()
export class HealthService {
  constructor(
    private readonly probes: HealthProbes,
    private readonly redis: RedisService,
    @InjectQueue(QueueName.Notifications) private readonly notifications: Queue,
  ) {}

  async report(): Promise<HealthResponseDto> {
    const [postgres, redis, worker, notifications] = await Promise.all([
      this.probes.postgres(),
      this.probes.redisAnswers(),
      this.probes.worker(),
      readPushStats(this.redis, this.notifications),
    ]);
    const ready = postgres && redis;
    return {
      status: ready ? 'ok' : 'degraded',
      postgres: postgres ? 'up' : 'down',
      redis: redis ? 'up' : 'down',
      worker,
      notifications,
      uptime: Math.round(process.uptime()),
    };
  }
}
