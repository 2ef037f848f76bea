import { Logger } from '@nestjs/common';
import type { LanguageCode } from '#shared/contracts/languages';
import { engineRequest } from './engine-http';
import { engineCode, productLanguage } from './language-codes';
import { LanguagePair, pairSet, TranslationEngine, TranslationFailure } from './translation-engine';

/**
 * LibreTranslate (hosted or self-hosted): `GET /languages` lists each source with its targets (read at boot);
 * `POST /translate {q: [...], source, target, format: 'text', api_key?}` answers `{translatedText: [...]}`.
 * Message text leaves the server, so the operator names this engine in TRANSLATION_ENGINES and LIBRETRANSLATE_URL.
 */
export class LibreTranslateEngine implements TranslationEngine {
  readonly name = 'libretranslate' as const;
  private readonly logger = new Logger(LibreTranslateEngine.name);
  private served: LanguagePair[] = [];
  private has = pairSet([]);

  constructor(private readonly options: { url?: string; apiKey?: string }) {}

  async start(): Promise<void> {
    if (!this.options.url) {
      this.logger.warn('libretranslate is listed in TRANSLATION_ENGINES but LIBRETRANSLATE_URL is not set; it serves nothing');
      return;
    }
    try {
      const languages = (await engineRequest(this.endpoint('languages'), { signal: AbortSignal.timeout(10_000) })) as { code: string; targets?: string[] }[];
      if (!Array.isArray(languages)) throw new Error('no language list');
      this.served = languages.flatMap((l) => {
        const from = productLanguage('libretranslate', l.code);
        return from ? (l.targets ?? []).flatMap((t) => ((to) => (to && to !== from ? [{ from, to }] : []))(productLanguage('libretranslate', t))) : [];
      });
    } catch (err) {
      this.logger.warn(`libretranslate: ${this.options.url} did not list its languages (${(err as Error).message}); it serves nothing`);
    }
    this.has = pairSet(this.served);
  }

  async stop(): Promise<void> {}

  pairs(): readonly LanguagePair[] {
    return this.served;
  }

  supports(from: LanguageCode, to: LanguageCode): boolean {
    return this.has(from, to);
  }

  async translate(texts: string[], from: LanguageCode, to: LanguageCode, signal: AbortSignal): Promise<string[]> {
    if (!this.supports(from, to)) throw new TranslationFailure(`libretranslate does not serve ${from}→${to}`);
    const answer = (await engineRequest(this.endpoint('translate'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        q: texts,
        source: engineCode('libretranslate', from, 'source'),
        target: engineCode('libretranslate', to, 'target'),
        format: 'text',
        ...(this.options.apiKey ? { api_key: this.options.apiKey } : {}),
      }),
      signal,
    })) as { translatedText?: unknown };
    const out = answer.translatedText;
    if (!Array.isArray(out) || out.length !== texts.length || !out.every((t) => typeof t === 'string')) {
      throw new TranslationFailure('libretranslate answered no list of translations');
    }
    return out as string[];
  }

  private endpoint(path: string): string {
    const base = this.options.url!.endsWith('/') ? this.options.url! : `${this.options.url}/`;
    return new URL(path, base).toString();
  }
}
