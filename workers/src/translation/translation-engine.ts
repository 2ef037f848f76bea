import type { TranslationEngineName } from '#shared/config/translation-config';
import type { LanguageCode } from '#shared/contracts/languages';

/** A language pair an engine serves, in the product's codes. */
export interface LanguagePair {
  from: LanguageCode;
  to: LanguageCode;
}

/**
 * One machine-translation engine. `start` discovers the pairs it serves (at worker boot; an engine that can't
 * serve anything answers no pairs rather than failing the boot); `translate` answers one text per text given,
 * in order, or throws (TranslationFailure when retrying cannot help).
 */
export interface TranslationEngine {
  readonly name: TranslationEngineName;
  start(): Promise<void>;
  stop(): Promise<void>;
  pairs(): readonly LanguagePair[];
  supports(from: LanguageCode, to: LanguageCode): boolean;
  translate(texts: string[], from: LanguageCode, to: LanguageCode, signal: AbortSignal): Promise<string[]>;
}

/** An answer no retry will fix (an unsupported pair, garbage): logged, and the language is given up. */
export class TranslationFailure extends Error {}

/** The pairs' membership test every engine shares. */
export function pairSet(pairs: readonly LanguagePair[]): (from: LanguageCode, to: LanguageCode) => boolean {
  const keys = new Set(pairs.map((p) => `${p.from}>${p.to}`));
  return (from, to) => keys.has(`${from}>${to}`);
}
