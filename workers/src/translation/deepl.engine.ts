import { Logger } from '@nestjs/common';
import type { LanguageCode } from '#shared/contracts/languages';
import { engineRequest } from './engine-http';
import { engineCode, productLanguage } from './language-codes';
import { LanguagePair, pairSet, TranslationEngine, TranslationFailure } from './translation-engine';

/**
 * DeepL's API v2: `GET /v2/languages?type=source|target` (read at boot) and `POST /v2/translate {text: [...],
 * source_lang, target_lang}` answering `{translations: [{detected_source_language, text}]}`, authorised by the
 * header `Authorization: DeepL-Auth-Key <key>`. Free keys (ending ':fx') go to api-free.deepl.com. Message text
 * leaves the server, so the operator names this engine in TRANSLATION_ENGINES and sets DEEPL_API_KEY.
 */
export class DeeplEngine implements TranslationEngine {
  readonly name = 'deepl' as const;
  private readonly logger = new Logger(DeeplEngine.name);
  private served: LanguagePair[] = [];
  private has = pairSet([]);
  private readonly base: string;

  constructor(private readonly options: { apiKey?: string; url?: string }) {
    this.base = options.url ?? (options.apiKey?.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com');
  }

  async start(): Promise<void> {
    if (!this.options.apiKey) {
      this.logger.warn('deepl is listed in TRANSLATION_ENGINES but DEEPL_API_KEY is not set; it serves nothing');
      return;
    }
    try {
      const [sources, targets] = await Promise.all(['source', 'target'].map((type) => this.languages(type)));
      this.served = sources.flatMap((from) => targets.filter((to) => to !== from).map((to) => ({ from, to })));
    } catch (err) {
      this.logger.warn(`deepl: ${this.base} did not list its languages (${(err as Error).message}); it serves nothing`);
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
    if (!this.supports(from, to)) throw new TranslationFailure(`deepl does not serve ${from}→${to}`);
    const answer = (await engineRequest(this.endpoint('v2/translate'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `DeepL-Auth-Key ${this.options.apiKey}` },
      body: JSON.stringify({ text: texts, source_lang: engineCode('deepl', from, 'source'), target_lang: engineCode('deepl', to, 'target') }),
      signal,
    })) as { translations?: { text?: unknown }[] };
    const out = answer.translations?.map((t) => t.text);
    if (!out || out.length !== texts.length || !out.every((t) => typeof t === 'string')) throw new TranslationFailure('deepl answered no list of translations');
    return out as string[];
  }

  private async languages(type: string): Promise<LanguageCode[]> {
    const list = (await engineRequest(this.endpoint(`v2/languages?type=${type}`), {
      headers: { authorization: `DeepL-Auth-Key ${this.options.apiKey}` },
      signal: AbortSignal.timeout(10_000),
    })) as { language: string }[];
    if (!Array.isArray(list)) throw new Error('no language list');
    return [...new Set(list.flatMap((l) => ((code) => (code ? [code] : []))(productLanguage('deepl', l.language))))];
  }

  private endpoint(path: string): string {
    return new URL(path, this.base.endsWith('/') ? this.base : `${this.base}/`).toString();
  }
}
