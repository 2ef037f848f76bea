/** The product's language codes (spec section 3) and their locales. */
export const LANGUAGES = [
  { code: 'eng', locale: 'en_US' },
  { code: 'pol', locale: 'pl_PL' },
  { code: 'rus', locale: 'ru_RU' },
  { code: 'hin', locale: 'in_HI' },
  { code: 'ger', locale: 'de_DE' },
  { code: 'spa', locale: 'es_ES' },
  { code: 'fra', locale: 'fr_FR' },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]['code'];
export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.code);
