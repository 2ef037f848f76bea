import { shortenLink } from '@/components/format/text';

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string; label: string };

// http(s) only: other schemes (javascript:, data:, mailto:) stay plain text.
const LINK = /\bhttps?:\/\/[^\s<>"']+/gi;
// Punctuation that ends a sentence, not the link ("see https://x.org/a.").
const TRAILING = /[.,;:!?)\]}]+$/;

/** A link the browser may open: http or https, parsed by the URL parser (spec: the link rule shortens its label). */
function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Splits a message into plain text and http(s) links; each link's label is shortened by the spec's link rule. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index ?? 0;
    let raw = match[0];
    // Keep a closing bracket that belongs to the link, e.g. Wikipedia's "Foo_(bar)".
    const trailing = raw.match(TRAILING)?.[0] ?? '';
    if (trailing && !(trailing.startsWith(')') && raw.includes('('))) raw = raw.slice(0, raw.length - trailing.length);
    const href = safeHref(raw);
    if (!href) continue;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', href, label: shortenLink(raw) });
    last = start + raw.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
