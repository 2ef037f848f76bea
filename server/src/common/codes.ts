import { randomBytes } from 'node:crypto';

const CODE_BYTES = 12;
/** Random bytes are drawn for this many codes at a time: one call per code cost more than the rest of a send's mapping. */
const POOL_BYTES = CODE_BYTES * 256;
let pool = Buffer.alloc(0);
let used = 0;

/** A public identifier: short, URL-safe and unguessable (96 random bits, each byte used once). */
export function newCode(): string {
  if (used + CODE_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  const code = pool.toString('base64url', used, used + CODE_BYTES);
  used += CODE_BYTES;
  return code;
}

export const CODE_PATTERN = /^[A-Za-z0-9_-]{5,64}$/;
