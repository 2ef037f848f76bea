/**
 * What machine translation must leave as written: fenced and inline code, links, e-mail addresses, amounts with
 * a currency, and emoji. The text is cut into pieces; only the pieces with words in them are sent to an engine,
 * so nothing protected can be mangled by it (a placeholder can be: engines translate, move or drop them).
 */
const PROTECTED = new RegExp(
  [
    '```[\\s\\S]*?```',
    '`[^`\\n]+`',
    '\\b(?:https?://|www\\.)[^\\s<>"]+[^\\s<>".,;:!?)\\]}]',
    '[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+',
    // 20 €, 1,200.50 PLN, $20, € 5, 20zł, USD 300
    '(?:[$€£¥₹₽]|\\b(?:USD|EUR|PLN|GBP|RUB|INR|CHF)\\b)\\s?\\d[\\d.,\\s]*\\d|(?:[$€£¥₹₽]|\\b(?:USD|EUR|PLN|GBP|RUB|INR|CHF)\\b)\\s?\\d',
    '\\b\\d[\\d.,]*\\s?(?:[$€£¥₹₽]|zł|(?:USD|EUR|PLN|GBP|RUB|INR|CHF)\\b)',
    '(?:\\p{Extended_Pictographic}|\\p{Regional_Indicator})(?:\\u{FE0F}|\\u{200D}|\\p{Emoji_Modifier}|\\p{Extended_Pictographic}|\\p{Regional_Indicator})*',
  ].join('|'),
  'gu',
);

/** A piece of a message: sent to the engine (`translate`) or kept as written. */
export interface Piece {
  text: string;
  translate: boolean;
}

/** The message in order; a piece to translate has words in it and no leading or trailing space. */
export function splitProtected(text: string): Piece[] {
  const pieces: Piece[] = [];
  const plain = (part: string) => {
    if (!part) return;
    const m = /^(\s*)([\s\S]*?)(\s*)$/u.exec(part)!;
    if (m[1]) pieces.push({ text: m[1], translate: false });
    if (m[2]) pieces.push({ text: m[2], translate: /\p{L}/u.test(m[2]) });
    if (m[3]) pieces.push({ text: m[3], translate: false });
  };
  let last = 0;
  for (const match of text.matchAll(PROTECTED)) {
    plain(text.slice(last, match.index));
    pieces.push({ text: match[0], translate: false });
    last = match.index + match[0].length;
  }
  plain(text.slice(last));
  return pieces;
}

/** The message again, with the engine's answers in place of the pieces sent to it (in order). */
export function joinTranslated(pieces: Piece[], translated: string[]): string {
  let i = 0;
  return pieces.map((p) => (p.translate ? translated[i++] : p.text)).join('');
}
