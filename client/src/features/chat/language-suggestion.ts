import { LANGUAGES, type LanguageCode, languageFromTag } from '@/i18n/languages';

/**
 * Suggesting the composer's message language from what is typed, with tinyld: of the npm detectors measured on
 * short chat messages in the product's languages it was the most accurate (`npm run bench:language-detectors`).
 * Its model (~800 KB) is loaded the first time something is typed, not with the app.
 */
type Detector = (text: string, options: { only: string[] }) => { lang: string; accuracy: number }[];

const ONLY: string[] = LANGUAGES.map((l) => l.tag);
/** Fewer words or letters than this is never "clearly" anything (ok, 10:30, 👍). */
const MIN_WORDS = 3;
const MIN_LETTERS = 12;
/** The best guess must beat the runner-up by this factor (close neighbours like Spanish and French stay quiet). */
const MIN_MARGIN = 1.5;

let detector: Promise<Detector> | null = null;

export function loadDetector(): Promise<Detector> {
  detector ??= import('tinyld').then((m) => m.detectAll as Detector);
  return detector;
}

/** The words of a message without links, addresses, code and numbers: what the detector should judge. */
function wordsOf(text: string): string {
  return text
    .replace(/```[\s\S]*?```|`[^`]*`/g, ' ')
    .replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ')
    .replace(/\S+@\S+\.\S+/g, ' ')
    .replace(/[\p{N}\p{S}\p{P}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The language `text` is clearly written in when that is not `selected`, else null: at least three words and
 * twelve letters, and the detector's best guess well ahead of the next one.
 */
export function clearlyOtherLanguage(detect: Detector, text: string, selected: LanguageCode): LanguageCode | null {
  const words = wordsOf(text);
  if (words.split(' ').filter(Boolean).length < MIN_WORDS || (words.match(/\p{L}/gu)?.length ?? 0) < MIN_LETTERS) return null;
  const [best, next] = detect(words, { only: ONLY });
  if (!best) return null;
  const code = languageFromTag(best.lang);
  if (!code || code === selected) return null;
  if (next && !(best.accuracy >= next.accuracy * MIN_MARGIN)) return null;
  return code;
}
