import { visibleText } from '../../common/visible-text';

/** What the bytes of an upload are; the name and the request's content type are never trusted. */
export interface SniffedType {
  mime: string;
  ext: string;
  kind: 'image' | 'unknown';
}

const startsWith = (buf: Buffer, bytes: number[], offset = 0) => bytes.every((b, i) => buf[offset + i] === b);

export function sniffType(buf: Buffer): SniffedType {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mime: 'image/png', ext: 'png', kind: 'image' };
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg', kind: 'image' };
  if (buf.subarray(0, 6).toString('latin1') === 'GIF87a' || buf.subarray(0, 6).toString('latin1') === 'GIF89a') {
    return { mime: 'image/gif', ext: 'gif', kind: 'image' };
  }
  if (buf.subarray(0, 4).toString('latin1') === 'RIFF' && buf.subarray(8, 12).toString('latin1') === 'WEBP') {
    return { mime: 'image/webp', ext: 'webp', kind: 'unknown' };
  }
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return { mime: 'application/pdf', ext: 'pdf', kind: 'unknown' };
  if (startsWith(buf, [0x50, 0x4b, 0x03, 0x04])) return { mime: 'application/zip', ext: 'zip', kind: 'unknown' };
  // Everything else, HTML and SVG included, is opaque bytes: only ever served as an attachment.
  return { mime: 'application/octet-stream', ext: '', kind: 'unknown' };
}

/**
 * A display name without any path, invisible or control characters or leading dots, in NFC (so a name typed
 * with combining accents is the same text as with precomposed ones); never used as a storage path.
 */
export function safeFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // Quotes too: the name goes into Content-Disposition.
  const clean = visibleText(base.replace(/"/g, '')).replace(/^\.+/, '').trim();
  // At most 255 characters, cut between code points (never inside a surrogate pair).
  return Array.from(clean || 'file')
    .slice(0, 255)
    .join('');
}
