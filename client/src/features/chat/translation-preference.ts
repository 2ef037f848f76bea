import { proxy } from 'valtio';
import { readStorage, writeStorage } from '@/features/preferences/preferences';
import { LANGUAGES, type LanguageCode, intlLocaleOf } from '@/i18n/languages';

/** "Translate messages into my language": kept in local storage, on unless turned off. */
export const TRANSLATE_MESSAGES_KEY = 'chat.translateMessages';

export const translationPreference = proxy({ on: readStorage(TRANSLATE_MESSAGES_KEY) !== 'false' });

export function setTranslateMessages(on: boolean): void {
  translationPreference.on = on;
  writeStorage(TRANSLATE_MESSAGES_KEY, on ? 'true' : 'false');
}

/**
 * Whether a message with a translation shows its original: by default the translation while the setting is on
 * and the original while it is off; the message's menu (the reader's toggle) flips that.
 */
export const showsOriginal = (translateOn: boolean, toggled: boolean): boolean => (translateOn ? toggled : !toggled);

/** A message language's name in the interface language (Spanish, hiszpański), or the code when unknown. */
export function languageName(code: string | null, uiLanguage: LanguageCode): string | null {
  if (!code) return null;
  const tag = LANGUAGES.find((l) => l.code === code)?.tag;
  if (!tag) return code;
  try {
    return new Intl.DisplayNames([intlLocaleOf(uiLanguage)], { type: 'language' }).of(tag) ?? code;
  } catch {
    return code;
  }
}
