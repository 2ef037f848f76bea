import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { NotificationKind } from '../contracts/rest/notifications';
import { NOTIFICATION_KINDS } from '../contracts/rest/notifications';

/** What an unsubscribe link carries: whose e-mail of which kind, until when, and a nonce so it works once. */
export interface UnsubscribeClaim {
  userId: string;
  kind: NotificationKind;
  /** ms since epoch */
  exp: number;
  nonce: string;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('parley:email-unsubscribe').digest();
const sign = (secret: string, body: string) => createHmac('sha256', keyOf(secret)).update(body).digest('base64url');

/** `<base64url(json)>.<hmac>`: the worker signs it into each e-mail, the server checks it. */
export function signUnsubscribe(secret: string, userId: string, kind: NotificationKind, ttlMs: number, now = Date.now()): string {
  const claim: UnsubscribeClaim = { userId, kind, exp: now + ttlMs, nonce: randomBytes(12).toString('base64url') };
  const body = Buffer.from(JSON.stringify(claim)).toString('base64url');
  return `${body}.${sign(secret, body)}`;
}

/** The claim, or why not: a forged or malformed token is 'invalid', an old one 'expired'. */
export function readUnsubscribe(secret: string, token: string, now = Date.now()): UnsubscribeClaim | 'invalid' | 'expired' {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined) return 'invalid';
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  let claim: UnsubscribeClaim;
  try {
    claim = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as UnsubscribeClaim;
  } catch {
    return 'invalid';
  }
  if (typeof claim.userId !== 'string' || !NOTIFICATION_KINDS.includes(claim.kind) || typeof claim.exp !== 'number' || typeof claim.nonce !== 'string')
    return 'invalid';
  return claim.exp < now ? 'expired' : claim;
}
