import { randomBytes } from 'node:crypto';

/** A public identifier: short, URL-safe and unguessable (96 random bits). */
export function newCode(): string {
  return randomBytes(12).toString('base64url');
}

export const CODE_PATTERN = /^[A-Za-z0-9_-]{5,64}$/;
