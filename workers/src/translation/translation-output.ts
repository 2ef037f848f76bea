import { TranslationFailure } from './translation-engine';

const MARKUP = /<\s*(?:!doctype|html|head|body|script|style|iframe|div|p|span|br|a\s)[^>]*>/i;

/**
 * What an engine answered for one piece, checked before it is stored: a translation is text of about the length
 * of its source, never empty for a non-empty source, and carries no markup its source did not (an engine behind a
 * proxy can answer an HTML error page with status 200).
 */
export function checkedTranslation(source: string, answer: string): string {
  const text = answer.replace(/\0/g, '').trim();
  if (!text) throw new TranslationFailure('the engine answered an empty translation');
  if (MARKUP.test(text) && !MARKUP.test(source)) throw new TranslationFailure('the engine answered markup');
  if (text.length > source.length * 4 + 64) throw new TranslationFailure(`the engine answered ${text.length} characters for ${source.length}`);
  return text;
}
