import type { Page } from 'playwright-core';
import { OfferStatus } from '#shared/contracts/offers';
import { DEFAULT_PASSWORD, type TestUser, createUser } from '../factories';
import { as, offerIn } from '../e2e/marketplace.helpers';
import { type BrowserHarness, screenshot, startHarness } from './harness';

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

async function login(page: Page, user: TestUser, lang: 'eng' | 'pol', phone: boolean) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email: user.user.email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
  await page.evaluate(`localStorage.setItem('language', ${JSON.stringify(lang)})`);
  if (phone) await page.evaluate(`localStorage.setItem('menu.over.opened', 'false')`);
}

/** Nothing sticks out sideways: a phone never scrolls the page horizontally. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

describe('reviews of a closed deal', () => {
  it('the customer reviews on a phone, both reviews appear together, and the profile and the chat bar show the rating', async () => {
    const customer = await createUser(h.app, { name: 'Ada', surname: 'Customer' });
    const provider = await createUser(h.app, { name: 'Bob', surname: 'Provider' });
    const ref = await offerIn(h.app, OfferStatus.Closed, customer, provider);
    await h.app
      .http()
      .post(`/api/jobs/${ref.job}/offers/${ref.offer}/reviews`)
      .set(as(provider))
      .send({ rating: 5, text: 'Clear brief and paid at once.' })
      .expect(201);

    const { page } = await h.open(PHONE);
    await login(page, customer, 'eng', true);
    await page.goto(`${h.baseUrl}/jobs/${ref.job}/offers/${ref.offer}`);
    await page.getByTestId('review-form').waitFor();
    expect(await page.getByTestId('offer-reviews').textContent()).toContain('The other party has reviewed you');
    await page.getByRole('radio', { name: '4 stars out of 5' }).locator('xpath=following-sibling::label[1]').click();
    await page.getByTestId('review-form-text').fill('Careful work, one day late.');
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, '80-phone-390-review-form-en');
    await page.getByTestId('review-form-submit').click();

    // Both published at once: the provider's review of the customer is there, with the reply form.
    await page.getByText('Clear brief and paid at once.').waitFor();
    await page.getByTestId('review-reply-form').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, '81-phone-390-reviews-published-en');

    // The deal's chat: the publication note, and the provider's track record in the bar.
    await page.goto(`${h.baseUrl}/messages/${ref.group}`);
    await page.locator('[data-testid=chat-info-bar] [data-testid=track-record]').waitFor();
    expect(await page.locator('[data-testid=chat-info-bar] [data-testid=track-record]').textContent()).toContain('4.0 (1 review) · 1 completed deal');
    await page.getByText('The reviews of this deal were published').waitFor();
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, '82-phone-390-offer-chat-track-record-en');

    // The provider's profile, in Polish on a desktop.
    const desktop = await h.open(DESKTOP);
    await login(desktop.page, customer, 'pol', false);
    await desktop.page.goto(`${h.baseUrl}/u/${provider.user.code}`);
    await desktop.page.getByTestId('profile-rating-average').waitFor();
    expect(await desktop.page.getByTestId('profile-rating-count').textContent()).toBe('1 opinia');
    expect(await desktop.page.getByTestId('review').textContent()).toContain('Careful work, one day late.');
    await screenshot(desktop.page, '83-desktop-profile-reviews-pl');
    await desktop.page.goto(`${h.baseUrl}/jobs/${ref.job}/offers/${ref.offer}`);
    await desktop.page.getByText('Clear brief and paid at once.').waitFor();
    expect(await desktop.page.getByTestId('offer-other-party').textContent()).toContain('4,0 (1 opinia) · 1 zakończona transakcja');
    await screenshot(desktop.page, '84-desktop-offer-reviews-pl');
  });
});
