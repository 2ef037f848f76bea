/** Claims of the access token (spec section 3: unique_name, nameid, role, nbf, exp, iat). */
export interface TokenClaims {
  unique_name: string;
  nameid: string;
  role: number;
  exp: number;
  nbf?: number;
  iat?: number;
}

/** Refresh this long before the token expires. */
export const REFRESH_LEAD_MS = 20_000;
/** An expired token may still be refreshed if it expired less than this long ago. */
export const EXPIRED_REFRESH_WINDOW_MS = 600_000;
/** Browsers fire longer timeouts at once; longer plans are re-planned when the timer fires. */
const MAX_TIMER_MS = 2_147_483_647;

function base64UrlDecode(part: string): string {
  const base64 = part
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads the claims without verifying them (the server verifies); null for anything that is not a JWT. */
export function decodeToken(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = JSON.parse(base64UrlDecode(parts[1])) as Partial<TokenClaims>;
    if (typeof claims.exp !== 'number' || typeof claims.unique_name !== 'string') return null;
    return { ...claims, role: Number(claims.role ?? -1) } as TokenClaims;
  } catch {
    return null;
  }
}

export type RefreshPlan = { kind: 'schedule'; delayMs: number } | { kind: 'refresh-now' } | { kind: 'too-late' };

/** When to refresh a token that expires at `expSeconds`, seen at `nowMs`. */
export function planRefresh(expSeconds: number, nowMs: number): RefreshPlan {
  const expiresAt = expSeconds * 1000;
  const refreshAt = expiresAt - REFRESH_LEAD_MS;
  if (nowMs < refreshAt) return { kind: 'schedule', delayMs: Math.min(refreshAt - nowMs, MAX_TIMER_MS) };
  if (nowMs - expiresAt < EXPIRED_REFRESH_WINDOW_MS) return { kind: 'refresh-now' };
  return { kind: 'too-late' };
}
