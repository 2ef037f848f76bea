import type { Page } from 'playwright-core';
import { OfferStatus } from '#shared/contracts/offers';
import { Role } from '#shared/contracts/roles';
import { DEFAULT_PASSWORD, createUser } from '../factories';
import { offerIn } from '../e2e/marketplace.helpers';
import { type BrowserHarness, screenshot, startHarness } from './harness';

jest.setTimeout(120_000);

const PHONE = { width: 390, height: 844 };
let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function loginWithToken(page: Page, email: string, language = 'eng') {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(
    `localStorage.setItem('token', ${JSON.stringify(token)}); localStorage.setItem('language', '${language}'); localStorage.setItem('menu.over.opened', 'false')`,
  );
}

describe('off-platform warning, report and the moderation queue', () => {
  it('warns the sender on a phone in Polish, notes it for the reader, and takes a report to the moderator', async () => {
    const customer = await createUser(h.app, { name: 'Celina', surname: 'Klient' });
    const provider = await createUser(h.app, { name: 'Piotr', surname: 'Wykonawca' });
    const admin = await createUser(h.app, { name: 'Mod', surname: 'Erator', role: Role.InstanceAdmin });
    const ref = await offerIn(h.app, OfferStatus.Proposal, customer, provider);

    const p = (await h.open(PHONE)).page;
    await loginWithToken(p, provider.user.email, 'pol');
    await p.goto(`${h.baseUrl}/messages/${ref.group}`);
    await p.getByTestId('chat-composer-input').fill('Zapłać mi bezpośrednio, mój numer 601 234 567');
    await p.getByTestId('chat-send').click();
    await p.getByTestId('off-platform-warning').waitFor();
    await screenshot(p, 'off-platform-warning-390-pl');
    await p.getByTestId('off-platform-send-anyway').click();
    await p.getByTestId('off-platform-note').waitFor();

    const c = (await h.open()).page;
    await loginWithToken(c, customer.user.email);
    await c.goto(`${h.baseUrl}/messages/${ref.group}`);
    const marked = c.locator('[data-testid="chat-message"]', { hasText: '601 234 567' });
    await marked.getByTestId('off-platform-note').waitFor();
    await marked.getByTestId('chat-message-menu').click();
    await c.getByTestId('report-message').click();
    await c.getByTestId('report-reason-offPlatform').click();
    await screenshot(c, 'report-dialog-desktop-en');
    await c.getByTestId('report-submit').click();
    await c.getByTestId('report-dialog').waitFor({ state: 'detached' });

    const m = (await h.open(PHONE)).page;
    await loginWithToken(m, admin.user.email);
    await m.goto(`${h.baseUrl}/admin/reports`);
    const card = m.locator('[data-testid="report-card"]', { hasText: 'Piotr Wykonawca' });
    await card.waitFor();
    await screenshot(m, 'reports-queue-390-en');
    // No sideways scrolling on a phone.
    expect(await m.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await card.getByTestId('report-action-warn').click();
    await card.getByTestId('report-outcome').waitFor();
    // The reporter is told, live.
    await c.getByText('A moderator warned the person you reported').waitFor();
    await screenshot(c, 'report-outcome-desktop-en');

    // Blocking the other party of an offer keeps its chat usable, with a notice.
    await marked.getByTestId('chat-message-menu').click();
    await c.getByTestId('block-person').click();
    await c.getByTestId('blocked-offer-notice').waitFor();
    expect(await marked.getByTestId('off-platform-note').count()).toBe(1);
    await screenshot(c, 'blocked-offer-notice-desktop-en');
  });
});
