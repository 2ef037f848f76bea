import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { LanguagePairs, TRANSLATION_PAIRS_KEY } from '#shared/contracts/translation';
import { RedisService } from '#shared/redis/redis.service';
import { TranslationEngines } from './translation-engines';

/** How long the stored pairs are believed without a worker refreshing them, and how often a worker does. */
export const SERVED_PAIRS_TTL_MS = 10 * 60_000;
const REFRESH_MS = SERVED_PAIRS_TTL_MS / 4;

/**
 * Keeps the language pairs this worker's engines serve in Redis (TRANSLATION_PAIRS_KEY), so the servers can tell
 * clients where no engine translates. Written once the engines are started, then refreshed; a worker gone for
 * longer than the TTL leaves none (no worker: nothing is translated).
 */
@Injectable()
export class ServedPairs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ServedPairs.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly engines: TranslationEngines,
    private readonly redis: RedisService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.engines.start();
    await this.write();
    this.timer = setInterval(() => void this.write(), REFRESH_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async write(): Promise<void> {
    const value: LanguagePairs = { pairs: this.engines.pairs().map(({ from, to }) => ({ from, to })) };
    await this.redis.client.set(this.redis.key(...TRANSLATION_PAIRS_KEY), JSON.stringify(value), { PX: SERVED_PAIRS_TTL_MS }).catch((err: Error) => {
      this.logger.warn(`could not store the served language pairs: ${err.message}`);
    });
  }
}
