import type { BrowserContext, Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { Role } from '#shared/contracts/roles';
import { DEFAULT_PASSWORD, type TestUser, createGroup, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { waitFor } from '../utils/wait';

jest.setTimeout(180_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const api = (who: TestUser) => ({ Authorization: `Bearer ${who.token}` });

async function login(page: Page, user: TestUser, { lang = 'eng', menuClosed = true }: { lang?: 'eng' | 'pol'; menuClosed?: boolean } = {}) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email: user.user.email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
  await page.evaluate(`localStorage.setItem('language', ${JSON.stringify(lang)})`);
  if (menuClosed) await page.evaluate(`localStorage.setItem('menu.over.opened', 'false'); localStorage.setItem('menu.bar.opened', 'false')`);
}

let keys = 0;
async function send(from: TestUser, group: string, message: string) {
  await h.app
    .http()
    .post(`/api/message/groups/${group}`)
    .set(api(from))
    .send({ message, clientKey: `-phone${++keys}`, lang: 'eng' })
    .expect(201);
}

async function mute(user: TestUser, group: string) {
  await h.app.app
    .get(DataSource)
    .query('UPDATE chat_participant p SET muted = true FROM chat_group g WHERE g.id = p.group_id AND g.code = $1 AND p.user_id = $2', [group, user.user.id]);
}

/** Waits until the menu button shows this unread count (a locator wait: the page's policy forbids string predicates). */
async function unreadOnMenu(page: Page, count: number) {
  await page.locator(`[data-testid=menu-toggle-unread][data-count="${count}"]`).waitFor({ state: 'attached' });
}

/** Waits until the socket of the page is connected (a message sent before would reach nobody live). */
async function live(page: Page) {
  await page.locator('[data-testid=shell][data-socket=connected]').waitFor({ state: 'attached' });
}

describe('a phone with the menu closed', () => {
  it('shows a new message in another chat: the count on the menu button and a toast that opens the chat (not for the open chat, not for a muted one)', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Sender' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Phone' });
    const open = await createGroup(h.app, [ada, bob]);
    const other = await createGroup(h.app, [ada, bob, await createUser(h.app, { name: 'Cy', surname: 'Third' })]);
    const muted = await createGroup(h.app, [ada, bob, await createUser(h.app, { name: 'Dee', surname: 'Fourth' })]);
    await mute(bob, muted);

    const { page } = await h.open(PHONE);
    await login(page, bob);
    await page.goto(`${h.baseUrl}/messages/${open}`);
    await page.getByTestId('chat-composer-input').waitFor();
    await live(page);
    expect(await page.getByTestId('shell').getAttribute('data-menu-opened')).toBe('false');
    expect(await page.getByTestId('menu-toggle-unread').getAttribute('data-count')).toBe('0');

    await send(ada, open, 'in the chat Bob has open');
    await send(ada, muted, 'in a chat Bob muted');
    await send(ada, other, 'Are you coming to the site tomorrow?');
    const toast = page.locator(`[data-testid=message-toast][data-group="${other}"]`);
    await toast.waitFor();
    await unreadOnMenu(page, 2);
    expect(await toast.textContent()).toContain('Ada Sender: Are you coming to the site tomorrow?');
    expect(await page.locator(`[data-testid=message-toast][data-group="${open}"]`).count()).toBe(0);
    expect(await page.locator(`[data-testid=message-toast][data-group="${muted}"]`).count()).toBe(0);
    expect(await page.getByTestId('menu-toggle').getAttribute('aria-label')).toContain('2');
    await screenshot(page, '60-phone-390-toast-and-menu-count-en');

    await toast.click();
    await page.waitForURL(`${h.baseUrl}/messages/${other}`);
    await page.getByText('Are you coming to the site tomorrow?').first().waitFor();
    await toast.waitFor({ state: 'detached' });
    await unreadOnMenu(page, 1);
    await screenshot(page, '61-phone-390-chat-opened-from-toast');
  });

  it('looks right at 390 px and on a desktop, in English and Polish', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Sender' });
    for (const [lang, size, name] of [
      ['pol', PHONE, '62-phone-390-toast-pl'],
      ['eng', DESKTOP, '63-desktop-toast-en'],
      ['pol', DESKTOP, '64-desktop-toast-pl'],
    ] as const) {
      const reader = await createUser(h.app, { name: 'Zoe', surname: 'Reader' });
      const group = await createGroup(h.app, [ada, reader]);
      const { page, context } = await h.open(size);
      await login(page, reader, { lang, menuClosed: size === PHONE });
      await page.goto(`${h.baseUrl}/`);
      await page.getByTestId('dashboard').waitFor();
      await live(page);
      await send(ada, group, lang === 'pol' ? 'Czy możesz zacząć w poniedziałek rano?' : 'Can you start on Monday morning?');
      await page.locator('[data-testid=message-toast]').waitFor();
      if (size === PHONE) await unreadOnMenu(page, 1);
      else await page.getByTestId('menu-unread-badge').waitFor();
      await screenshot(page, name);
      await (context as BrowserContext).close();
    }
  });
});

describe('installing to a home screen', () => {
  it('serves a web app manifest Chromium parses with no errors, with its icons, allowed by the page policy', async () => {
    const { page } = await h.open(PHONE);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${h.baseUrl}/auth`);
    await page.getByTestId('login-email').waitFor();
    const href = await page.evaluate(`document.querySelector('link[rel=manifest]').href`);
    expect(href).toBe(`${h.baseUrl}/manifest.webmanifest`);

    const res = await page.request.get(`${h.baseUrl}/manifest.webmanifest`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({ name: 'Parley', short_name: 'Parley', start_url: '/', display: 'standalone', theme_color: '#228be6' });
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const png = await page.request.get(`${h.baseUrl}${icon.src}`);
      expect([png.status(), png.headers()['content-type']]).toEqual([200, 'image/png']);
    }

    const cdp = await page.context().newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[] };
    expect(parsed.url).toBe(`${h.baseUrl}/manifest.webmanifest`);
    expect(parsed.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
    expect(violations).toEqual([]);
  });
});

describe('what others change shows without a reload', () => {
  it("a customer's 'taking offers' switch reaches a provider's jobs list and offer form, and an admin's new name the shell", async () => {
    const customer = await createUser(h.app, { name: 'Cate', surname: 'Customer' });
    const provider = await createUser(h.app, { name: 'Pat', surname: 'Provider' });
    const admin = await createUser(h.app, { name: 'Adam', surname: 'Admin', role: Role.InstanceAdmin });
    const versions = [{ lang: 'eng', title: 'Fix the garden gate', description: 'The hinges are loose and the latch does not close.', isDefault: true }];
    const job = (await h.app.http().post('/api/job').set(api(customer)).send({ versions }).expect(201)).body.code as string;
    const taking = (acceptingOffers: boolean) => h.app.http().post(`/api/job/${job}`).set(api(customer)).send({ versions, acceptingOffers }).expect(200);

    const { page } = await h.open(PHONE);
    await login(page, provider);
    await page.goto(`${h.baseUrl}/jobs`);
    const badge = page.getByTestId(`job-row-${job}`).getByTestId('job-accepting');
    await badge.waitFor();
    await live(page);
    expect(await badge.getAttribute('data-accepting')).toBe('true');
    await taking(false);
    await page.locator(`[data-testid=job-row-${job}] [data-testid=job-accepting][data-accepting=false]`).waitFor();

    await taking(true);
    await page.goto(`${h.baseUrl}/jobs/${job}/offers/new`);
    await page.getByTestId('offer-new').waitFor();
    await page.locator('#offer-new-title').waitFor();
    await live(page);
    await taking(false);
    await page.getByTestId('offer-new-refused').waitFor();
    expect(await page.locator('#offer-new-title').count()).toBe(0);
    await taking(true);
    await page.locator('#offer-new-title').waitFor();

    const before = (await h.app.http().get('/api/Instance/Current').expect(200)).body as { name: string; color: string };
    try {
      await h.app.http().post('/api/Instance').set(api(admin)).send({ name: 'Garden Helpers', color: '2f9e44' }).expect(200);
      await waitFor(async () => (await page.title()).includes('Garden Helpers'), { timeoutMs: 10_000 });
      await waitFor(async () => String(await page.evaluate(`document.querySelector('link#instance-styles').href`)).includes('?v='), { timeoutMs: 10_000 });
      await screenshot(page, '65-phone-390-instance-renamed-live');
    } finally {
      await h.app.http().post('/api/Instance').set(api(admin)).send({ name: before.name, color: before.color }).expect(200);
    }
  });
});
