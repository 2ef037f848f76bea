import { InjectQueue } from '@nestjs/bullmq';
import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../../common/decorators/public.decorator';
import { QueueName, WORKER_HEARTBEAT_KEY } from '#shared/contracts/queues';
import { readPushStats } from '#shared/push/push-stats';
import { RedisService } from '#shared/redis/redis.service';
import { HealthResponseDto } from './health.dto';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly redis: RedisService,
    @InjectQueue(QueueName.Notifications) private readonly notifications: Queue,
  ) {}

  /** Liveness plus readiness of Postgres and Redis: 200 when both answer, else 503 with the same body. */
  @Public()
  @Get()
  @HttpCode(200)
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthResponseDto> {
    const [postgres, redis, worker, notifications] = await Promise.all([
      this.pingPostgres(),
      this.redis.ping(),
      this.workerState(),
      readPushStats(this.redis, this.notifications),
    ]);
    const ready = postgres && redis;
    if (!ready) res.status(503);
    return {
      status: ready ? 'ok' : 'degraded',
      postgres: postgres ? 'up' : 'down',
      redis: redis ? 'up' : 'down',
      worker,
      notifications,
      uptime: Math.round(process.uptime()),
    };
  }

  /** From the worker pool's heartbeat key; informational only, the server is ready without a worker. */
  private async workerState(): Promise<'up' | 'down' | 'unknown'> {
    try {
      if (!this.redis.client.isReady) return 'unknown';
      return (await this.redis.client.exists(this.redis.key(...WORKER_HEARTBEAT_KEY))) ? 'up' : 'down';
    } catch {
      return 'unknown';
    }
  }

  private async pingPostgres(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 2000)));
    try {
      await Promise.race([this.db.query('SELECT 1'), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
