/** The spec's language codes and their locales, mapped once (spec section 3). */
export const LANGUAGES = [
  { code: 'eng', locale: 'en_US', tag: 'en', label: 'English', currency: 'USD', firstDayOfWeek: 0 },
  { code: 'pol', locale: 'pl_PL', tag: 'pl', label: 'Polski', currency: 'PLN', firstDayOfWeek: 1 },
  { code: 'rus', locale: 'ru_RU', tag: 'ru', label: 'Русский', currency: 'USD', firstDayOfWeek: 1 },
  { code: 'hin', locale: 'in_HI', tag: 'hi', label: 'हिन्दी', currency: 'USD', firstDayOfWeek: 0 },
  { code: 'ger', locale: 'de_DE', tag: 'de', label: 'Deutsch', currency: 'USD', firstDayOfWeek: 1 },
  { code: 'spa', locale: 'es_ES', tag: 'es', label: 'Español', currency: 'USD', firstDayOfWeek: 1 },
  { code: 'fra', locale: 'fr_FR', tag: 'fr', label: 'Français', currency: 'USD', firstDayOfWeek: 1 },
] as const;

export type Language = (typeof LANGUAGES)[number];
export type LanguageCode = Language['code'];

/** Only English and Polish are registered in the shell. */
export const SUPPORTED_LANGUAGES: readonly LanguageCode[] = ['eng', 'pol'];
export const DEFAULT_LANGUAGE: LanguageCode = 'eng';

export const isSupportedLanguage = (value: unknown): value is LanguageCode =>
  typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);

export function languageOf(code: LanguageCode): Language {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0];
}

/** 'pl-PL', 'pl' or 'pl_PL' → 'pol'; unknown tags → null. */
export function languageFromTag(tag: string): LanguageCode | null {
  const primary = tag.toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l.tag === primary)?.code ?? null;
}

/** The BCP 47 form of a language's locale (en_US → en-US), for Intl. */
export const intlLocaleOf = (code: LanguageCode): string => languageOf(code).locale.replace('_', '-');
