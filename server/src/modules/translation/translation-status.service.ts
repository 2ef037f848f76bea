import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { LANGUAGE_CODES } from '#shared/contracts/languages';
import { LanguagePairs, TRANSLATION_PAIRS_KEY, TranslationStatusResponse } from '#shared/contracts/translation';
import { RedisService } from '#shared/redis/redis.service';

const OFF: TranslationStatusResponse = { enabled: false, pairs: [] };

/**
 * Whether machine translation is on and which pairs it serves, as the worker last said (ServedPairs): the engines
 * run in the worker, so only it knows what is installed. No engine configured, no worker heard from, or Redis
 * away: off, and the client says so rather than waiting for translations that will not come.
 */
@Injectable()
export class TranslationStatusService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  async status(): Promise<TranslationStatusResponse> {
    if (this.config.TRANSLATION_ENGINES.length === 0) return OFF;
    const raw = await this.redis.client.get(this.redis.key(...TRANSLATION_PAIRS_KEY)).catch(() => null);
    if (!raw) return OFF;
    let stored: LanguagePairs;
    try {
      stored = JSON.parse(raw) as LanguagePairs;
    } catch {
      return OFF;
    }
    const known = new Set<string>(LANGUAGE_CODES);
    const pairs = (Array.isArray(stored?.pairs) ? stored.pairs : [])
      .filter((p) => known.has(p?.from) && known.has(p?.to))
      .map(({ from, to }) => ({ from, to }));
    return { enabled: pairs.length > 0, pairs };
  }
}
