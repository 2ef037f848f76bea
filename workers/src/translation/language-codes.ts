import type { TranslationEngineName } from '#shared/config/translation-config';
import { LANGUAGE_CODES, LanguageCode } from '#shared/contracts/languages';

/**
 * The one place the product's language codes (spec §3) meet each engine's: Apertium names languages by ISO
 * 639-3 (German is deu, not the product's ger), Bergamot (its model folders, such as enpl) and LibreTranslate by
 * ISO 639-1, DeepL by upper-case codes with a regional English as target. A language an engine lacks is left out.
 */
const ENGINE_CODES: Record<TranslationEngineName, Partial<Record<LanguageCode, { source: string; target: string }>>> = {
  apertium: {
    eng: { source: 'eng', target: 'eng' },
    pol: { source: 'pol', target: 'pol' },
    rus: { source: 'rus', target: 'rus' },
    hin: { source: 'hin', target: 'hin' },
    ger: { source: 'deu', target: 'deu' },
    spa: { source: 'spa', target: 'spa' },
    fra: { source: 'fra', target: 'fra' },
  },
  bergamot: {
    eng: { source: 'en', target: 'en' },
    pol: { source: 'pl', target: 'pl' },
    rus: { source: 'ru', target: 'ru' },
    hin: { source: 'hi', target: 'hi' },
    ger: { source: 'de', target: 'de' },
    spa: { source: 'es', target: 'es' },
    fra: { source: 'fr', target: 'fr' },
  },
  libretranslate: {
    eng: { source: 'en', target: 'en' },
    pol: { source: 'pl', target: 'pl' },
    rus: { source: 'ru', target: 'ru' },
    hin: { source: 'hi', target: 'hi' },
    ger: { source: 'de', target: 'de' },
    spa: { source: 'es', target: 'es' },
    fra: { source: 'fr', target: 'fr' },
  },
  deepl: {
    eng: { source: 'EN', target: 'EN-US' },
    pol: { source: 'PL', target: 'PL' },
    rus: { source: 'RU', target: 'RU' },
    ger: { source: 'DE', target: 'DE' },
    spa: { source: 'ES', target: 'ES' },
    fra: { source: 'FR', target: 'FR' },
  },
};

export function engineCode(engine: TranslationEngineName, lang: LanguageCode, side: 'source' | 'target'): string | undefined {
  return ENGINE_CODES[engine][lang]?.[side];
}

/** The product's language for an engine's code (either side), or undefined for a language outside the product. */
export function productLanguage(engine: TranslationEngineName, code: string): LanguageCode | undefined {
  const wanted = code.toLowerCase();
  return LANGUAGE_CODES.find((lang) => {
    const c = ENGINE_CODES[engine][lang];
    return c !== undefined && (c.source.toLowerCase() === wanted || c.target.toLowerCase() === wanted);
  });
}

export const isLanguageCode = (code: unknown): code is LanguageCode => typeof code === 'string' && (LANGUAGE_CODES as readonly string[]).includes(code);
