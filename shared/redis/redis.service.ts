import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createClient, RedisClientType } from 'redis';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';

/** How long a shutdown waits for Redis to answer the commands in flight before it drops the connection. */
const CLOSE_WAIT_MS = 2000;

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

  /** Closes after the commands in flight, but a Redis that stopped answering does not hold the shutdown up. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.client.isOpen) return;
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<'gave up'>((resolve) => (timer = setTimeout(() => resolve('gave up'), CLOSE_WAIT_MS)));
    const closed = this.client.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    );
    if ((await Promise.race([closed, gaveUp])) === 'gave up') this.client.destroy();
    clearTimeout(timer);
  }
}
