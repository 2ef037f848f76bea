import { DEFAULT_LANGUAGE, isSupportedLanguage, type LanguageCode, languageFromTag } from '@/i18n/languages';

export type ThemeName = 'light' | 'dark';

export const THEME_KEY = 'theme';
export const LANGUAGE_KEY = 'language';

/** The stored theme, else the system preference. */
export function resolveTheme(stored: string | null, systemPrefersDark: boolean): ThemeName {
  if (stored === 'light' || stored === 'dark') return stored;
  return systemPrefersDark ? 'dark' : 'light';
}

/** The stored language, else the first supported browser language, else eng. */
export function resolveLanguage(stored: string | null, browserLanguages: readonly string[]): LanguageCode {
  if (isSupportedLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const code = languageFromTag(tag);
    if (code && isSupportedLanguage(code)) return code;
  }
  return DEFAULT_LANGUAGE;
}

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage can be unavailable (private mode); the preference then lasts for this page only.
  }
}
