import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import type { TranslationEngineName } from '#shared/config/translation-config';
import type { LanguageCode } from '#shared/contracts/languages';
import { ApertiumEngine } from './apertium.engine';
import { BergamotEngine } from './bergamot.engine';
import { DeeplEngine } from './deepl.engine';
import { LibreTranslateEngine } from './libretranslate.engine';
import { LanguagePair, TranslationEngine } from './translation-engine';

/** The engine of each name, built from the config. */
export function buildEngine(name: TranslationEngineName, config: AppConfig): TranslationEngine {
  switch (name) {
    case 'apertium':
      return new ApertiumEngine({ url: config.APERTIUM_URL, apyBin: config.APERTIUM_APY_BIN, modesDir: config.APERTIUM_MODES_DIR });
    case 'bergamot':
      return new BergamotEngine({ modelsDir: config.BERGAMOT_MODELS_DIR });
    case 'libretranslate':
      return new LibreTranslateEngine({ url: config.LIBRETRANSLATE_URL, apiKey: config.LIBRETRANSLATE_API_KEY });
    case 'deepl':
      return new DeeplEngine({ apiKey: config.DEEPL_API_KEY, url: config.DEEPL_URL });
  }
}

/**
 * The engines of TRANSLATION_ENGINES, in that order: the first one that serves a pair translates it. Started at
 * boot (each discovers its pairs); with none listed, or none serving any pair, machine translation is off.
 */
@Injectable()
export class TranslationEngines implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TranslationEngines.name);
  private readonly engines: TranslationEngine[];
  private ready?: Promise<void>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.engines = config.TRANSLATION_ENGINES.map((name) => buildEngine(name, config));
  }

  onApplicationBootstrap(): Promise<void> {
    return this.start();
  }

  /** Discovers every engine's pairs once; callers that need the pairs await it. */
  start(): Promise<void> {
    this.ready ??= Promise.all(this.engines.map((e) => e.start().catch((err: Error) => this.logger.warn(`${e.name}: ${err.message}; it serves nothing`)))).then(
      () => {
        const served = this.engines.map(
          (e) =>
            `${e.name} (${
              e.pairs().length
                ? e
                    .pairs()
                    .map((p) => `${p.from}→${p.to}`)
                    .join(', ')
                : 'no pairs'
            })`,
        );
        this.logger.log(this.enabled() ? `machine translation: ${served.join('; ')}` : 'machine translation is off: no engine serves any language pair');
      },
    );
    return this.ready;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.stop().catch(() => undefined)));
  }

  enabled(): boolean {
    return this.engines.some((e) => e.pairs().length > 0);
  }

  /** Every pair some engine serves. */
  pairs(): LanguagePair[] {
    const seen = new Map<string, LanguagePair>();
    for (const e of this.engines) for (const p of e.pairs()) seen.set(`${p.from}>${p.to}`, p);
    return [...seen.values()];
  }

  engineFor(from: LanguageCode, to: LanguageCode): TranslationEngine | undefined {
    return this.engines.find((e) => e.supports(from, to));
  }
}
