import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WORKER_HEARTBEAT_KEY } from '#shared/contracts/queues';
import { RedisService } from '#shared/redis/redis.service';

const POSTGRES_TIMEOUT_MS = 2000;

/** The only code of the health check that talks to Postgres and Redis: whether each answers, and the worker's heartbeat. */
@Injectable()
export class HealthProbes {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly redis: RedisService,
  ) {}

  async postgres(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), POSTGRES_TIMEOUT_MS)));
    try {
      await Promise.race([this.db.query('SELECT 1'), timeout]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  redisAnswers(): Promise<boolean> {
    return this.redis.ping();
  }

  /** From the worker pool's heartbeat key; informational only, the server is ready without a worker. */
  async worker(): Promise<'up' | 'down' | 'unknown'> {
    try {
      if (!this.redis.client.isReady) return 'unknown';
      return (await this.redis.client.exists(this.redis.key(...WORKER_HEARTBEAT_KEY))) ? 'up' : 'down';
    } catch {
      return 'unknown';
    }
  }
}
