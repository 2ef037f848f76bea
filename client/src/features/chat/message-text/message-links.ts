import { shortenLink } from '@/components/format/text';

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string; label: string };

// http(s) only: other schemes (javascript:, data:, mailto:) stay plain text.
const LINK = /\bhttps?:\/\/[^\s<>"']+/gi;
// Punctuation that ends a sentence, not the link ("see https://x.org/a.").
const TRAILING = /[.,;:!?)\]}]+$/;

/**
 * A link the browser may open: http or https, parsed by the URL parser (so an international host is in its
 * xn-- form), without user info ("https://paypal.com@evil.example" goes to evil.example and is shown so).
 */
function safeUrl(candidate: string): URL | null {
  try {
    const url = new URL(candidate);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.username = '';
    url.password = '';
    return url;
  } catch {
    return null;
  }
}

/**
 * What a link shows: its host in full and without the scheme (never shortened, so a fake host cannot hide in
 * the middle), then the rest shortened by the spec's link rule. The host and the rest come from the parser:
 * an international host shows as xn--, and invisible or right-to-left characters in the path as %-escapes.
 */
export function linkLabel(url: URL): string {
  const rest = `${url.pathname === '/' ? '' : url.pathname}${url.search}${url.hash}`;
  return `${url.host}${shortenLink(rest)}`;
}

/** Splits a message into plain text and http(s) links, each labelled by linkLabel. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    let raw = match[0];
    // Keep a closing bracket that belongs to the link, e.g. Wikipedia's "Foo_(bar)".
    const trailing = raw.match(TRAILING)?.[0] ?? '';
    if (trailing && !(trailing.startsWith(')') && raw.includes('('))) raw = raw.slice(0, raw.length - trailing.length);
    const url = safeUrl(raw);
    if (!url) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', href: url.href, label: linkLabel(url) });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
