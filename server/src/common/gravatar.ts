import { createHash } from 'node:crypto';

/** Gravatar's identicon URL for an e-mail: SHA-256 of the trimmed, lower-cased address. */
export function gravatarUrl(email: string): string {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?d=identicon`;
}
