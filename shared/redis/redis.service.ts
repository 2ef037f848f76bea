import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createClient, RedisClientType } from 'redis';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';

/** The app-state Redis connection; every key goes through key() so a deployment or test run owns its prefix. */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisService.name);
  readonly client: RedisClientType;
  readonly prefix: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.prefix = config.REDIS_PREFIX;
    this.client = createClient({
      url: config.REDIS_URL,
      socket: { reconnectStrategy: (retries) => Math.min(retries * 200, 5000) },
    });
    this.client.on('error', (err: Error) => this.logger.warn(`redis: ${err.message}`));
  }

  async connect(): Promise<void> {
    if (!this.client.isOpen) await this.client.connect();
  }

  key(...parts: string[]): string {
    return this.prefix + parts.join(':');
  }

  async ping(): Promise<boolean> {
    try {
      return this.client.isReady && (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.client.isOpen) await this.client.close().catch(() => undefined);
  }
}
