import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QueueName } from '#shared/contracts/queues';
import { RedisService } from '#shared/redis/redis.service';
import { readPushStats } from '#shared/push/push-stats';
import { HealthProbes } from './health-probes';
import { DrainState } from '../lifecycle/drain-state';
import { HealthResponseDto, LivenessResponseDto, ReadinessResponseDto } from './health.dto';

/** Liveness plus readiness: ready when Postgres and Redis both answer; the worker and notifications are informational. */
@Injectable()
export class HealthService {
  constructor(
    private readonly probes: HealthProbes,
    private readonly redis: RedisService,
    @InjectQueue(QueueName.Notifications) private readonly notifications: Queue,
    private readonly drain: DrainState,
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

  /** The process runs and its event loop turns: nothing else is asked, so a dependency outage never restarts it. */
  liveness(): LivenessResponseDto {
    return { status: 'ok', uptime: Math.round(process.uptime()) };
  }

  /** Whether to route traffic here: Postgres and Redis answer and the process is not draining. */
  async readiness(): Promise<ReadinessResponseDto> {
    const deps = await this.dependencies();
    if (this.drain.draining) return { status: 'draining', ...deps };
    return { status: deps.postgres === 'up' && deps.redis === 'up' ? 'ready' : 'not-ready', ...deps };
  }

  private async dependencies(): Promise<Pick<ReadinessResponseDto, 'postgres' | 'redis'>> {
    const [postgres, redis] = await Promise.all([this.probes.postgres(), this.probes.redisAnswers()]);
    return { postgres: postgres ? 'up' : 'down', redis: redis ? 'up' : 'down' };
  }
}
