import { proxy } from 'valtio';
import { changeI18nLanguage } from '@/i18n/i18n';
import { type LanguageCode, languageOf } from '@/i18n/languages';
import { LANGUAGE_KEY, THEME_KEY, type ThemeName, readStorage, resolveLanguage, resolveTheme, writeStorage } from './preferences';

const DARK_QUERY = '(prefers-color-scheme: dark)';

const systemPrefersDark = () => typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
const browserLanguages = () => (navigator.languages?.length ? navigator.languages : [navigator.language ?? '']);

export interface PreferencesState {
  /** The stored choice; null follows the system. */
  storedTheme: ThemeName | null;
  systemDark: boolean;
  language: LanguageCode;
}

export const preferencesStore = proxy<PreferencesState>({
  storedTheme: null,
  systemDark: false,
  language: 'eng',
});

export const effectiveTheme = (state: PreferencesState): ThemeName => resolveTheme(state.storedTheme, state.systemDark);

/** Reads the stored preferences and starts following the system theme; returns the language to start with. */
export function loadPreferences(): LanguageCode {
  const stored = readStorage(THEME_KEY);
  preferencesStore.storedTheme = stored === 'light' || stored === 'dark' ? stored : null;
  preferencesStore.systemDark = systemPrefersDark();
  preferencesStore.language = resolveLanguage(readStorage(LANGUAGE_KEY), browserLanguages());
  if (typeof window.matchMedia === 'function') {
    window.matchMedia(DARK_QUERY).addEventListener?.('change', (e) => {
      preferencesStore.systemDark = e.matches;
    });
  }
  document.documentElement.lang = languageOf(preferencesStore.language).tag;
  return preferencesStore.language;
}

export function setTheme(theme: ThemeName): void {
  preferencesStore.storedTheme = theme;
  writeStorage(THEME_KEY, theme);
}

export function setLanguage(language: LanguageCode): void {
  preferencesStore.language = language;
  writeStorage(LANGUAGE_KEY, language);
  changeI18nLanguage(language);
  document.documentElement.lang = languageOf(language).tag;
}
