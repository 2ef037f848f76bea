const encode = (value: object) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');

/** An unsigned JWT-shaped token with these claims (the client never verifies signatures). */
export function fakeToken(claims: Record<string, unknown>): string {
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}.signature`;
}

export const tokenExpiringIn = (seconds: number, role = 0, code = 'U1') =>
  fakeToken({ unique_name: code, nameid: 'user@example.test', role, exp: Math.floor(Date.now() / 1000) + seconds });
