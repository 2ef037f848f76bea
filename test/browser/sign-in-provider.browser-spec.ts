import net from 'node:net';
import type { Page } from 'playwright-core';
import { RedisService } from '#shared/redis/redis.service';
import { createUser, DEFAULT_PASSWORD } from '../factories';
import { IDP_CLIENT, isActiveAtProvider, startTestIdentityProvider, TestIdentityProvider } from '../utils/identity-provider';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { waitFor } from '../utils/wait';

jest.setTimeout(120_000);

// A person signs in with a real OpenID provider (oidc-provider, npm run dev:idp's) in Chromium.
let h: BrowserHarness;
let idp: TestIdentityProvider;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  idp = await startTestIdentityProvider([`http://localhost:${port}/auth/callback/idp`]);
  const providers = [{ name: 'idp', label: 'Test IdP', issuer: idp.issuer('good'), ...IDP_CLIENT }];
  h = await startHarness({ env: { AUTH_PROVIDERS: JSON.stringify(providers) }, port });
});
afterAll(async () => {
  await h?.close();
  await idp?.close();
});

const path = (page: Page) => new URL(page.url()).pathname;

/** From the sign-in page to the app: the provider button, then the provider's own login form if it asks. */
async function signInWithProvider(page: Page, login: string) {
  await page.getByTestId('auth-provider-idp').click();
  await page.waitForURL((url) => url.pathname.startsWith('/good/interaction/') || url.pathname === '/jobs');
  if (path(page).startsWith('/good/interaction/')) {
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
  }
  await page.waitForURL((url) => url.pathname === '/jobs');
}

const me = async (page: Page) => {
  const token = (await page.evaluate("localStorage.getItem('token')")) as string;
  return (await h.app.http().get('/api/me').set('Authorization', `Bearer ${token}`).expect(200)).body as { code: string; email: string };
};

describe('sign-in with an identity provider', () => {
  it('signs in, lands on the after address, signs out (revoked at the provider) and signs in again as the same user', async () => {
    const { page } = await h.open();
    await page.goto(`${h.baseUrl}/auth?after=${encodeURIComponent('/jobs')}`);
    await page.getByTestId('auth-provider-idp').waitFor();
    await screenshot(page, 'oidc-01-sign-in-page');
    const redis = h.app.app.get(RedisService);
    const sessionKeys = () => redis.client.keys(redis.key('oidc:session', '*'));
    const before = new Set(await sessionKeys());

    await signInWithProvider(page, 'alice');
    const first = await me(page);
    expect(first.email).toBe('alice@example.com');
    const [key] = (await sessionKeys()).filter((k) => !before.has(k));
    const { accessToken } = JSON.parse((await redis.client.get(key!))!) as { accessToken: string };
    expect(await isActiveAtProvider(idp.issuer('good'), accessToken)).toBe(true);

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL((url) => url.pathname === '/auth');
    await waitFor(async () => !(await isActiveAtProvider(idp.issuer('good'), accessToken)), { intervalMs: 100, message: 'the session ended at the provider' });
    expect(await isActiveAtProvider(idp.issuer('good'), accessToken)).toBe(false);

    await page.goto(`${h.baseUrl}/auth?after=${encodeURIComponent('/jobs')}`);
    await signInWithProvider(page, 'alice');
    expect((await me(page)).code).toBe(first.code);

    // The profile lists the provider; it is the account's only way in, so removing it is refused.
    await page.goto(`${h.baseUrl}/user`);
    await page.getByTestId('linked-provider-idp').waitFor();
    await page.getByTestId('unlink-idp').click();
    await expect(page.getByTestId('linked-providers-error').textContent()).resolves.toContain('only way to sign in');
    await screenshot(page, 'oidc-03-linked-providers');
  });

  it('links the provider to an existing password account only after its password is given', async () => {
    const existing = await createUser(h.app, { email: 'bob@example.org' });
    const { page } = await h.open();
    await page.goto(`${h.baseUrl}/auth?after=${encodeURIComponent('/jobs')}`);
    await page.getByTestId('auth-provider-idp').click();
    await page.locator('input[name="login"]').fill('bob');
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.getByTestId('login-link-notice').waitFor();
    expect(await page.getByTestId('login-email').inputValue()).toBe('bob@example.org');
    await screenshot(page, 'oidc-04-link-asks-password');
    await page.getByTestId('login-password').fill(DEFAULT_PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await me(page)).code).toBe(existing.user.code);

    // Signed out, the provider alone now signs the same account in.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL((url) => url.pathname === '/auth');
    await page.goto(`${h.baseUrl}/auth?after=${encodeURIComponent('/jobs')}`);
    await signInWithProvider(page, 'bob');
    expect((await me(page)).code).toBe(existing.user.code);
  });

  it('says so when the sign-in was cancelled at the provider', async () => {
    const { page } = await h.open();
    await page.goto(`${h.baseUrl}/auth/callback/idp?error=access_denied&state=abc`);
    await expect(page.getByTestId('provider-callback-error').textContent()).resolves.toContain('cancelled');
    await screenshot(page, 'oidc-02-cancelled');
  });

  it('shows the server refusal on the sign-in screen (a replayed or foreign state)', async () => {
    const { page } = await h.open();
    await page.goto(`${h.baseUrl}/auth/callback/idp?code=abc&state=not-issued-here`);
    await expect(page.getByTestId('provider-callback-error').textContent()).resolves.toContain('expired or was already used');
  });
});
