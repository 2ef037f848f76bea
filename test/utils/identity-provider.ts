import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');

export interface TestIdentityProvider {
  base: string;
  issuer: (tenant: string) => string;
  close: () => Promise<void>;
}

export const IDP_CLIENT = { clientId: 'parley', clientSecret: 'parley-dev-secret' };

/**
 * Starts `npm run dev:idp`'s OpenID provider (oidc-provider) with the misbehaving test tenants, on a free port,
 * in a process of its own. clockOffsetSeconds shifts that provider's clock (tokens it issues are then old).
 */
export async function startTestIdentityProvider(redirectUris: string[], clockOffsetSeconds = 0): Promise<TestIdentityProvider> {
  const args = [
    '--import',
    'tsx',
    join(ROOT, 'scripts/dev-idp.mts'),
    '--port',
    '0',
    '--test-tenants',
    ...redirectUris.flatMap((uri) => ['--redirect-uri', uri]),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, IDP_CLOCK_OFFSET_SECONDS: String(clockOffsetSeconds) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const ready = /\{"ready":true,"base":"([^"]+)"\}/.exec(out);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`identity provider exited (${code}): ${err}`)));
  });
  return { base, issuer: (tenant) => `${base}/${tenant}`, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** What the provider sent the browser back to the app with. */
export interface Callback {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
}

/**
 * Does what a person does at the provider's own login page: opens the authorisation URL, logs in as `login`
 * (any password), and follows the redirects until the provider sends the browser back to the app.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, cookies = new Map<string, string>()): Promise<Callback> {
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.pathname.startsWith('/auth/callback/')) return Object.fromEntries(next.searchParams) as Callback;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`provider page without a form (${res.status}): ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).href;
    body = html.includes('name="login"') ? new URLSearchParams({ prompt: 'login', login, password: 'any' }) : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('too many redirects at the provider');
}

/** Asks the provider whether a token is still active (its introspection endpoint). */
export async function isActiveAtProvider(issuer: string, token: string): Promise<boolean> {
  const res = await fetch(`${issuer}/token/introspection`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${IDP_CLIENT.clientId}:${IDP_CLIENT.clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({ token }),
  });
  return ((await res.json()) as { active: boolean }).active;
}
