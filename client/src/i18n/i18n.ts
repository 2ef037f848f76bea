import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './locales/en.json';
import pl from './locales/pl.json';
import { type LanguageCode, languageOf } from './languages';

export const i18n = i18next.createInstance();

export const resources = { en: { translation: en }, pl: { translation: pl } } as const;

export function initI18n(language: LanguageCode): void {
  void i18n.use(initReactI18next).init({
    resources,
    lng: languageOf(language).tag,
    fallbackLng: 'en',
    supportedLngs: ['en', 'pl'],
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  });
}

export function changeI18nLanguage(language: LanguageCode): void {
  void i18n.changeLanguage(languageOf(language).tag);
}

/** Translates outside React. Keys must be string literals so the key check can find them. */
export const t = (key: string, options?: Record<string, unknown>): string => i18n.t(key, options) as string;

/** Marks a literal as a translation key that is translated elsewhere (menus, server messages). */
export const tk = <K extends string>(key: K): K => key;
