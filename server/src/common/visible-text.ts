/**
 * Characters that change how a text reads without being seen: controls (C0 and C1), bidirectional
 * embeddings, overrides, isolates and marks ("\u202egnp.exe" shows as "exe.png"), zero-width spaces and
 * joiners, the byte-order mark and line/paragraph separators.
 */
const INVISIBLE = /[\p{Cc}\p{Bidi_Control}\u200b-\u200d\u2060-\u2064\ufeff\u180e\u2028\u2029]/gu;
const HAS_INVISIBLE = new RegExp(INVISIBLE.source, 'u');

/**
 * A text as people will see it: without invisible or control characters, in NFC (a name typed with
 * combining accents is the same text as with precomposed ones), trimmed. File names and display names are
 * both cleaned with it, so two that look the same are the same text.
 */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, '').normalize('NFC').trim();
}

/** Whether a text has any character visibleText() removes (for fields refused rather than cleaned). */
export function hasInvisibleCharacters(text: string): boolean {
  return HAS_INVISIBLE.test(text);
}
