import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import type { LanguageCode } from '#shared/contracts/languages';
import { RedisService } from '#shared/redis/redis.service';
import { withDeadline } from './engine-http';
import { joinTranslated, splitProtected } from './protected-text';
import { TranslationEngine, TranslationFailure } from './translation-engine';
import { TranslationEngines } from './translation-engines';
import { checkedTranslation } from './translation-output';

export interface Translated {
  text: string;
  engine: string;
}

/**
 * One text into one language: from the cache (keyed by text, source and target) or from the first engine that
 * serves the pair, with links, e-mail addresses, amounts, code and emoji kept as written, every piece the engine
 * answers checked, and within TRANSLATION_TIMEOUT_MS. Throws TranslationFailure when retrying cannot help.
 */
@Injectable()
export class TextTranslator {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly engines: TranslationEngines,
    private readonly redis: RedisService,
  ) {}

  async translate(text: string, from: LanguageCode, to: LanguageCode, signal: AbortSignal = new AbortController().signal): Promise<Translated> {
    const engine = this.engines.engineFor(from, to);
    if (!engine) throw new TranslationFailure(`no engine serves ${from}→${to}`);
    const key = this.redis.key('translation', 'cache', createHash('sha256').update(`${from}\n${to}\n${text}`).digest('base64url'));
    const cached = await this.redis.client.get(key).catch(() => null);
    if (cached) return JSON.parse(cached) as Translated;
    const translated = { text: await this.viaEngine(engine, text, from, to, withDeadline(signal, this.config.TRANSLATION_TIMEOUT_MS)), engine: engine.name };
    if (this.config.TRANSLATION_CACHE_TTL > 0) {
      await this.redis.client.set(key, JSON.stringify(translated), { EX: this.config.TRANSLATION_CACHE_TTL }).catch(() => undefined);
    }
    return translated;
  }

  private async viaEngine(engine: TranslationEngine, text: string, from: LanguageCode, to: LanguageCode, signal: AbortSignal): Promise<string> {
    const pieces = splitProtected(text);
    const sources = pieces.filter((p) => p.translate).map((p) => p.text);
    if (!sources.length) return text;
    const answers = await engine.translate(sources, from, to, signal);
    if (answers.length !== sources.length) throw new TranslationFailure(`${engine.name} answered ${answers.length} texts for ${sources.length}`);
    return joinTranslated(
      pieces,
      answers.map((a, i) => checkedTranslation(sources[i], a)),
    );
  }
}
