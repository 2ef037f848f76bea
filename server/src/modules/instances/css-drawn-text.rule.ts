/**
 * Text a custom stylesheet may make the browser draw: none of its own choosing. Words drawn by CSS look
 * like the product's (a fake "your session expired, write your password to…" note on every page), so
 * every way CSS has to draw characters is held to what cannot spell anything:
 *
 * - `content` (on any element or pseudo-element, `::marker` included): `none`, `normal`, `""`, quotes,
 *   and counters drawn as numbers or bullets;
 * - `quotes`: `auto`, `none`, `match-parent` (the language's own quotation marks), never strings;
 * - `list-style`, `list-style-type` and the style of `counter()`/`counters()`: the counter styles that draw
 *   digits or bullets only. Alphabetic, roman and other letter styles are out, because a counter's value is
 *   the stylesheet's to set (`counter-set: list-item 8` + `lower-alpha` draws "h"), and so are strings,
 *   `symbols()` and any name another rule could define;
 * - no `@counter-style` (its symbols, prefix, suffix, pad, negative and additive symbols are all strings);
 * - `text-overflow`, `hyphenate-character`, `text-emphasis` without strings; no `string-set`;
 * - in those properties no `var()`, `env()` or `attr()` either: a custom property or an attribute would
 *   bring back the string the rule keeps out.
 *
 * Numbers remain: a counter counts elements, and a stylesheet may pick which. Images are another matter
 * (the URL rule keeps them on this site or the logo).
 *
 * Both checks read the stylesheet's shape from scanCss: lower-case, comments gone, escapes decoded, and each
 * string as `""` when empty or `"…"` when not, so nothing inside a string can end a declaration early.
 */

const GLOBAL_WORDS = ['inherit', 'initial', 'unset', 'revert', 'revert-layer'];

/** Built-in counter styles that draw digits or bullets, never letters. */
const NUMBER_OR_BULLET_STYLES = ['none', 'disc', 'circle', 'square', 'decimal', 'decimal-leading-zero', 'disclosure-open', 'disclosure-closed'];

const LIST_STYLE_IMAGE =
  /(?:-webkit-)?image-set\([^()]*(?:\([^()]*\)[^()]*)*\)|url\([^()]*\)|(?:repeating-)?(?:linear|radial|conic)-gradient\([^()]*(?:\([^()]*\)[^()]*)*\)/g;

interface Guard {
  /** words the value may be made of (anything else, functions included, breaks the rule); absent: any but strings */
  words?: readonly string[];
  /** functions removed before the words are checked */
  strip?: RegExp;
}

const GUARDS: Record<string, Guard> = {
  quotes: { words: ['auto', 'none', 'match-parent', '""'] },
  'list-style-type': { words: [...NUMBER_OR_BULLET_STYLES, '""'] },
  'list-style': { words: [...NUMBER_OR_BULLET_STYLES, 'inside', 'outside', '""'], strip: LIST_STYLE_IMAGE },
  'text-overflow': { words: ['clip', 'ellipsis', 'fade'] },
  'hyphenate-character': { words: ['auto'] },
  '-webkit-hyphenate-character': { words: ['auto'] },
  'text-emphasis': {},
  'text-emphasis-style': {},
  '-webkit-text-emphasis': {},
  '-webkit-text-emphasis-style': {},
};

const declarations = (shape: string, names: readonly string[]) =>
  [...shape.matchAll(new RegExp(`(?:^|[{;\\s])(${names.map((n) => n.replace(/-/g, '\\-')).join('|')})\\s*:([^;}]*)`, 'g'))].map((m) => ({
    name: m[1],
    value: m[2].replace(/!\s*important/g, ''),
  }));

const NON_EMPTY_STRING = '"…"';
const SUBSTITUTION = /\b(?:var|env|attr)\(/;

function breaksGuard(guard: Guard, value: string): boolean {
  if (!guard.words) return value.includes(NON_EMPTY_STRING) || SUBSTITUTION.test(value);
  const allowed = new Set([...guard.words, ...GLOBAL_WORDS]);
  const words = (guard.strip ? value.replace(guard.strip, ' ') : value).split(/[\s,]+/).filter(Boolean);
  return words.some((word) => !allowed.has(word));
}

/** Text drawn by a property other than `content`, or by a counter style the stylesheet defines. */
export function drawsChosenText(shape: string): boolean {
  if (/@counter-style\b|\bsymbols\(/.test(shape)) return true;
  if (declarations(shape, ['string-set']).length) return true;
  return declarations(shape, Object.keys(GUARDS)).some(({ name, value }) => breaksGuard(GUARDS[name], value));
}

const STYLE = `(?:${NUMBER_OR_BULLET_STYLES.join('|')})`;
const COUNTER_NAME = '[^\\s,()"]+';
const HARMLESS_CONTENT_PART = [
  '\\s+',
  'none',
  'normal',
  '""',
  '(?:no-)?(?:open|close)-quote',
  `counter\\(\\s*${COUNTER_NAME}\\s*(?:,\\s*${STYLE}\\s*)?\\)`,
  `counters\\(\\s*${COUNTER_NAME}\\s*,\\s*""\\s*(?:,\\s*${STYLE}\\s*)?\\)`,
];
const HARMLESS_CONTENT = new RegExp(`^(?:${HARMLESS_CONTENT_PART.join('|')})*$`);

/** A `content` value that writes more than nothing, quotation marks, numbers or bullets. */
export function writesContent(shape: string): boolean {
  return declarations(shape, ['content']).some(({ value }) => !HARMLESS_CONTENT.test(value));
}
