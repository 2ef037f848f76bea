import type { Page } from 'playwright-core';
import { DEFAULT_PASSWORD, createInstance, createUser, uniqueEmail } from '../factories';
import { Role } from '#shared/contracts/roles';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { pause, within } from '../utils/wait';

/** Page-side globals for the predicates that run in the browser (the tests' tsconfig has no DOM types). */
declare const document: { querySelector(selector: string): unknown; querySelectorAll(selector: string): { length: number } };

jest.setTimeout(60_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const path = (page: Page) => new URL(page.url()).pathname + new URL(page.url()).search;

async function fillLogin(page: Page, email: string, password: string) {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
}

/** Logs in through the API and hands the token to the app the way the app keeps it. */
async function loginWithToken(page: Page, email: string, password: string) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email, password, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
}

describe('the served client', () => {
  it('is a production React build (no development JSX runtime in the entry or its preloaded chunks)', async () => {
    const index = await fetch(`${h.baseUrl}/`, { headers: { Accept: 'text/html' } });
    expect(index.status).toBe(200);
    const scripts = [...(await index.text()).matchAll(/(?:src|href)="(\/static\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const res = await fetch(`${h.baseUrl}${script}`);
      expect(res.status).toBe(200);
      const body = await res.text();
      expect({ script, dev: /jsxDEV|react-dom\.development/.test(body) }).toEqual({ script, dev: false });
    }
  });
});

describe('Content-Security-Policy', () => {
  it('loads the shell, logs in, opens the chat and the admin screen with instance styles, with no CSP violation', async () => {
    // A host of its own (127.0.0.1 rather than localhost), so its instance's custom CSS touches no other test.
    const base = `http://127.0.0.1:${new URL(h.baseUrl).port}`;
    const instance = await createInstance(h.app, {
      hosts: ['127.0.0.1'],
      logoUrl: '/assets/logo.svg',
      customCss: '.mantine-AppShell-header { border-bottom: 2px solid var(--instance-accent); background-image: url(/assets/logo.svg); }',
    });
    const admin = await createUser(h.app, { instanceId: instance.id, role: Role.InstanceAdmin });
    const { page } = await h.open();
    const violations: string[] = [];
    const routerWarnings: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      if (/HydrateFallback/.test(message.text())) routerWarnings.push(message.text());
    });
    await page.addInitScript(
      "document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
    );

    const shell = await page.goto(`${base}/auth`);
    expect(shell?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByTestId('login-form').waitFor();
    await fillLogin(page, admin.user.email, DEFAULT_PASSWORD);
    await page.getByTestId('dashboard').waitFor();
    // The service worker registers and runs under the policy too.
    const worker = await within(page.evaluate('navigator.serviceWorker.ready.then((r) => Boolean(r.active))'), 10_000, 'active service worker');
    expect(worker).toBe(true);
    // A page load that starts on a lazily loaded route (the chat) gets the router's hydrate fallback, not a warning.
    await page.goto(`${base}/messages`);
    await page.getByTestId('chat-page').waitFor();
    expect(routerWarnings).toEqual([]);
    await page.waitForFunction(() => document.querySelector('link[href*="/instance/styles.css"]') !== null);
    await page.goto(`${base}/admin`);
    await page.getByTestId('admin-form').waitFor();
    await page.getByTestId('admin-color').fill('#e8590c');
    // A moment for a violation that should not come (the preview restyles the page).
    await pause(500);
    expect(violations).toEqual([]);
  });
});

describe('guards and the session', () => {
  it('sends a guest from a guarded page to /auth with the return address', async () => {
    const { page } = await h.open();
    await page.goto(`${h.baseUrl}/jobs/offers`);
    await page.waitForURL(/\/auth\?after=/);
    expect(path(page)).toBe('/auth?after=%2Fjobs%2Foffers');
    await page.getByTestId('login-form').waitFor();
    expect(await page.title()).toBeTruthy();
    await screenshot(page, '01-guest-redirected-to-login');
  });

  it('registers (landing logged in), logs out, and logs in again back to the "after" address', async () => {
    const { page } = await h.open();
    const email = uniqueEmail('browser');
    await page.goto(`${h.baseUrl}/auth/register`);
    await page.getByTestId('register-form').waitFor();

    // Field messages show only once a field is invalid and dirty or touched.
    expect(await page.getByText('The e-mail address is invalid').count()).toBe(0);
    await page.getByTestId('register-email').fill('not-an-email');
    await page.getByTestId('register-email').blur();
    await page.getByText('The e-mail address is invalid').waitFor();
    await page.getByTestId('register-password').fill('short');
    await page.getByText('The field should contain at least 8 characters').waitFor();
    await screenshot(page, '02-register-field-messages');

    await page.getByTestId('register-name').fill('Ada');
    await page.getByTestId('register-surname').fill('Browser');
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-password').fill(DEFAULT_PASSWORD);
    await page.getByTestId('register-submit').click();
    await page.getByTestId('dashboard').waitFor();
    expect(path(page)).toBe('/');
    await page.getByTestId('user-menu').waitFor();
    expect(await page.evaluate("localStorage.getItem('token')")).toBeTruthy();
    await screenshot(page, '03-dashboard-after-register');

    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-logout').click();
    await page.waitForURL(/\/auth$/);
    await page.getByTestId('login-entry').waitFor();
    expect(await page.evaluate("localStorage.getItem('token')")).toBeNull();

    await page.goto(`${h.baseUrl}/messages`);
    await page.waitForURL(/\/auth\?after=%2Fmessages$/);
    await fillLogin(page, email, 'wrong password');
    await page.getByTestId('login-error').waitFor();
    await screenshot(page, '04-login-failed');
    await fillLogin(page, email, DEFAULT_PASSWORD);
    await page.waitForURL(`${h.baseUrl}/messages`);
    await page.getByTestId('chat-page').waitFor();
    await pause(400); // past the 200 ms a denied /auth would wait before sending to /
    expect(path(page)).toBe('/messages');
    await screenshot(page, '05-back-at-after-address');
  });

  it('sends a logged-in user without an admin role from /admin to /', async () => {
    const { user } = await createUser(h.app, { role: Role.InstanceUser });
    const { page } = await h.open();
    await loginWithToken(page, user.email, DEFAULT_PASSWORD);
    await page.goto(`${h.baseUrl}/admin`);
    await page.waitForURL(`${h.baseUrl}/`);
    await page.getByTestId('dashboard').waitFor();
    expect(await page.getByTestId('admin-form').count()).toBe(0);
    // The menu leaves out what the guards refuse.
    expect(await page.locator('[data-path="/admin"]').count()).toBe(0);
    expect(await page.locator('[data-path="/capsule"]').count()).toBe(0);
  });

  it('lets an instance admin customise the instance with a live preview', async () => {
    const { user } = await createUser(h.app, { role: Role.InstanceAdmin });
    const { page } = await h.open();
    await loginWithToken(page, user.email, DEFAULT_PASSWORD);
    await page.goto(`${h.baseUrl}/admin`);
    await page.getByTestId('admin-form').waitFor();
    await page.locator('[data-path="/admin"]').first().waitFor();
    await page.getByTestId('admin-color').fill('#e8590c');
    await page.getByTestId('admin-name').fill('Acme Jobs');
    await page.getByTestId('instance-preview').getByText('Acme Jobs').waitFor();
    await screenshot(page, '06-admin-customisation');
  });
});

describe('preferences and layout', () => {
  it('keeps Polish and the dark theme across a reload', async () => {
    const { user } = await createUser(h.app);
    const { page } = await h.open();
    await loginWithToken(page, user.email, DEFAULT_PASSWORD);
    await page.goto(`${h.baseUrl}/`);
    await page.getByTestId('dashboard').waitFor();
    await page.getByTestId('settings-button').click();
    await page.getByTestId('language-switch').getByText('Polski').click();
    await page.getByTestId('theme-switch').getByText('Ciemny').click();
    await page.keyboard.press('Escape');
    await page.reload();
    await page.getByTestId('dashboard').waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('pl');
    expect(await page.evaluate("document.documentElement.getAttribute('data-mantine-color-scheme')")).toBe('dark');
    await page.getByText('Pulpit').first().waitFor();
    expect(await page.evaluate("[localStorage.getItem('language'), localStorage.getItem('theme')]")).toEqual(['pol', 'dark']);
    await screenshot(page, '07-polish-dark-after-reload');
  });

  it('uses the overlay menu in a 700 px wide window and remembers closing it', async () => {
    const { user } = await createUser(h.app);
    const { page } = await h.open({ width: 700, height: 900 });
    await loginWithToken(page, user.email, DEFAULT_PASSWORD);
    await page.goto(`${h.baseUrl}/`);
    await page.getByTestId('dashboard').waitFor();
    expect(await page.getByTestId('shell').getAttribute('data-menu-mode')).toBe('over');
    const overlay = page.locator('.mantine-Drawer-content');
    await overlay.waitFor();
    await screenshot(page, '08-overlay-menu-700px');
    await overlay.locator('[data-path="/messages"]').click();
    await page.waitForURL(`${h.baseUrl}/messages`);
    await overlay.waitFor({ state: 'hidden' });
    expect(await page.evaluate("localStorage.getItem('menu.over.opened')")).toBe('false');
    await page.reload();
    await page.getByTestId('chat-page').waitFor();
    expect(await page.locator('.mantine-Drawer-content').count()).toBe(0);
  });

  it('uses the bar menu in a wide window', async () => {
    const { user } = await createUser(h.app);
    const { page } = await h.open({ width: 1280 });
    await loginWithToken(page, user.email, DEFAULT_PASSWORD);
    await page.goto(`${h.baseUrl}/team/retro`);
    await page.getByTestId('premium-placeholder').waitFor();
    expect(await page.getByTestId('shell').getAttribute('data-menu-mode')).toBe('bar');
    await screenshot(page, '09-premium-placeholder-bar-menu');
  });
});

describe('profiles', () => {
  it("shows a user's profile from the user bar and saves an edit of one's own", async () => {
    const { user } = await createUser(h.app, { name: 'Grace', surname: 'Hopper' });
    const { page } = await h.open();
    await loginWithToken(page, user.email, DEFAULT_PASSWORD);
    await page.goto(`${h.baseUrl}/`);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-profile').click();
    await page.waitForURL(`${h.baseUrl}/u/${user.code}`);
    await page.getByTestId('profile-name').getByText('Grace Hopper').waitFor();
    await page.getByTestId('profile-presence').waitFor();
    await page.getByTestId('profile-form').getByLabel('Surname').fill('Hopper-Murray');
    await page.getByTestId('profile-save').click();
    await page.getByTestId('profile-name').getByText('Grace Hopper-Murray').waitFor();
    await screenshot(page, '11-own-profile-edited');
    await page.goto(`${h.baseUrl}/u/NoSuchUser123`);
    await page.getByTestId('profile-not-found').waitFor();
  });
});

describe('capsule', () => {
  it('renders for an anonymous visitor on localhost', async () => {
    const { page } = await h.open();
    await page.goto(`${h.baseUrl}/capsule`);
    await page.getByTestId('capsule').waitFor();
    await page.getByTestId('capsule-UserAvatar').waitFor();
    await screenshot(page, '10-capsule');
  });

  it('shows the selects, tag input, user search dialog and file tiles with their variants', async () => {
    const { page } = await h.open({ width: 1280, height: 1000 });
    await page.goto(`${h.baseUrl}/capsule`);
    const files = page.getByTestId('capsule-FileTile / FilePreviewDialog');
    await files.scrollIntoViewIfNeeded();
    // The drawn PNG shows as an image (tile and big icon), the text file with an icon, and the missing-input error.
    await files.locator('[data-testid="file-tile"][data-kind="image"] img').first().waitFor();
    expect(await files.locator('[data-testid="file-tile"][data-kind="image"]').count()).toBe(2);
    expect(await files.locator('[data-testid="file-tile"][data-kind="unknown"]').count()).toBe(2);
    expect(await files.getByTestId('file-tile-error').textContent()).toBe('File or code is required');
    await page.getByTestId('capsule-SearchSelect / SearchMultiSelect').scrollIntoViewIfNeeded();
    await page.getByRole('combobox', { name: 'remote search (300 ms)' }).click();
    await page.getByText('Type to filter', { exact: true }).waitFor();
    await page.getByRole('combobox', { name: 'remote search (300 ms)' }).fill('pol');
    await page.getByRole('option', { name: /Poland/ }).waitFor();
    await screenshot(page, '12-capsule-select-remote-search');
    await page.keyboard.press('Escape');

    await files.locator('[data-testid="file-tile"][data-kind="image"]').first().click();
    await page.getByTestId('file-preview-dialog').locator('img').waitFor();
    await screenshot(page, '13-capsule-file-preview-dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('file-preview-dialog').waitFor({ state: 'detached' });
    await files.scrollIntoViewIfNeeded();
    await screenshot(page, '14-capsule-file-tiles');

    await page.getByTestId('capsule-user-search-open').click();
    await page.getByTestId('user-search-query').fill('gra');
    await page.getByText('Type more than 3 characters to search').waitFor();
    await page.getByTestId('user-search-query').fill('grace');
    await page.getByTestId('user-search-result-U_grace').waitFor();
    await page.getByRole('checkbox', { name: /Grace Hopper/ }).check();
    await screenshot(page, '15-capsule-user-search-dialog');
    await page.getByTestId('user-search-confirm').click();
    await page.getByText('Grace', { exact: true }).waitFor();
  });
});
