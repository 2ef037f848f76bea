import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { type TestUser, createInstance, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { pause } from '../utils/wait';

/** Page-side globals for the predicates that run in the browser (the tests' tsconfig has no DOM types). */
declare const document: { querySelector(selector: string): unknown; querySelectorAll(selector: string): { length: number } };

jest.setTimeout(180_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/**
 * Hands the user's token to the app the way it keeps it (the users live in an instance of their own, which the
 * host's login would not find), in the given interface language; on a phone the shell's menu starts closed.
 */
async function signIn(page: Page, who: TestUser, language: 'eng' | 'pol' = 'eng') {
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(
    `localStorage.setItem('token', ${JSON.stringify(who.token)}); localStorage.setItem('language', '${language}'); localStorage.setItem('menu.over.opened', 'false')`,
  );
}

const api = (who: TestUser) => ({ Authorization: `Bearer ${who.token}` });
const invalidFields = (page: Page) => page.locator('[data-testid="job-form"] [aria-invalid="true"]');

/** Uncaught errors of a page, which must stay none. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

async function openJobs(page: Page) {
  await page.goto(`${h.baseUrl}/jobs`);
  await page.locator('[data-testid="jobs-page"]:not([data-view="loading"])').waitFor();
}

describe('jobs in the browser', () => {
  it('posts a job in two languages, finds it by search as a provider, shows its offers to the customer and stops taking offers', async () => {
    const tag = randomBytes(3).toString('hex');
    const place = await createInstance(h.app);
    const ada = await createUser(h.app, { instanceId: place.id, name: 'Ada', surname: `Customer${tag}` });
    const bob = await createUser(h.app, { instanceId: place.id, name: 'Bob', surname: `Provider${tag}` });

    // The customer: an instance without jobs invites the first one.
    const { page: a } = await h.open(DESKTOP);
    const errors = pageErrors(a);
    await signIn(a, ada);
    await openJobs(a);
    await a.getByTestId('jobs-empty').waitFor();
    await screenshot(a, 'jobs-list-empty-desktop-en');
    await a.getByTestId('jobs-post-first').click();
    await a.waitForURL(`${h.baseUrl}/jobs/new`);
    await a.getByTestId('job-form').waitFor();
    expect(await a.getByTestId('toolbar-header').textContent()).toBe('Post a job');

    // The first version: English with the spec's defaults, and no error before anything is touched.
    const english = a.getByTestId('job-form-version').nth(0);
    expect(await english.getByTestId('job-form-lang').inputValue()).toBe('English (eng)');
    expect(await english.getByTestId('job-form-title').inputValue()).toBe('Default job title');
    expect(await english.getByTestId('job-form-description').inputValue()).toBe('Default short job description');
    expect(await invalidFields(a).count()).toBe(0);

    // Too short: each error appears once its field is touched, the untouched ones stay quiet.
    await english.getByTestId('job-form-title').fill('Roof');
    await english.getByText('The field should contain at least 6 characters').waitFor();
    expect(await invalidFields(a).count()).toBe(1);
    await english.getByTestId('job-form-description').fill('Too short');
    await english.getByTestId('job-form-description').blur();
    await english.getByText('The field should contain at least 20 characters').waitFor();
    expect(await invalidFields(a).count()).toBe(2);
    // Saving with errors sends nothing.
    await a.getByTestId('job-form-save').click();
    // A moment for a navigation that should not come.
    await pause(300);
    expect(new URL(a.url()).pathname).toBe('/jobs/new');
    await screenshot(a, 'jobs-form-errors-desktop-en');

    const title = `Repair the garden shed roof ${tag}`;
    await english.getByTestId('job-form-title').fill(title);
    await english.getByTestId('job-form-description').fill('Replace the felt on a 3 by 4 m shed roof and fix two rafters.');
    expect(await invalidFields(a).count()).toBe(0);

    // A deadline in local time; a Polish version (the next free language, with the defaults).
    await a.getByTestId('job-form-deadline').fill('2031-05-01T12:00');
    await a.getByTestId('job-form-add-version').click();
    const polish = a.getByTestId('job-form-version').nth(1);
    expect(await polish.getByTestId('job-form-lang').inputValue()).toBe('Polski (pol)');
    expect(await polish.getByTestId('job-form-title').inputValue()).toBe('Default job title');
    await polish.getByTestId('job-form-title').fill(`Naprawa dachu szopy ${tag}`);
    await polish.getByTestId('job-form-description').fill('Wymiana papy na dachu szopy 3 na 4 m i naprawa dwóch krokwi.');

    // Bob as the job's manager, through the user search dialog (more than 3 characters).
    await a.getByTestId('job-form-role-1').getByTestId('job-form-role-add').click();
    await a.getByTestId('user-search-query').fill(`Provider${tag}`);
    await a.getByTestId(`user-search-result-${bob.user.code}`).click();
    await a.getByTestId('user-search-confirm').click();
    await a.getByTestId('job-form-role-1').getByText(`Bob Provider${tag}`).waitFor();
    await screenshot(a, 'jobs-form-filled-desktop-en');

    await a.getByTestId('job-form-save').click();
    await a.waitForURL(/\/jobs\/(?!new)[^/?]+$/);
    const jobCode = decodeURIComponent(new URL(a.url()).pathname.split('/')[2]);
    await a.getByTestId('job-view').waitFor();
    expect(await a.getByTestId('job-title').textContent()).toBe(title);

    // Stored as sent: the local deadline as its UTC instant, both versions, English the default, Bob the manager.
    const stored = (await h.app.http().get(`/api/job/${jobCode}`).set(api(ada)).expect(200)).body;
    expect(stored.deadline).toBe(await a.evaluate(`new Date(2031, 4, 1, 12, 0).toISOString()`));
    expect(stored.versions.map((v: { lang: string; isDefault: boolean }) => [v.lang, v.isDefault])).toEqual([
      ['eng', true],
      ['pol', false],
    ]);
    const roles = (await h.app.http().get(`/api/job/${jobCode}/roles`).set(api(ada)).expect(200)).body;
    expect(roles[0].users.map((u: { code: string }) => u.code)).toEqual([bob.user.code]);
    await a.getByTestId('job-role-1').getByText(`Bob Provider${tag}`).waitFor();
    expect(await a.getByTestId('job-deadline').textContent()).toBe(
      `Deadline ${await a.evaluate(`new Date(2031, 4, 1, 12, 0).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })`)}`,
    );

    // The job appears in the list, with its state and offer count.
    await openJobs(a);
    const adaRow = a.getByTestId(`job-row-${jobCode}`);
    await adaRow.waitFor();
    expect(await adaRow.getByTestId('job-row-title').textContent()).toBe(title);
    expect(await adaRow.getByTestId('job-row-offers').textContent()).toBe('0 offers');
    expect(await adaRow.getByTestId('job-accepting').textContent()).toBe('Accepting offers');
    await adaRow.getByTestId('job-row-mine').waitFor();
    await screenshot(a, 'jobs-list-desktop-en');

    // The provider finds it by searching a word of its Polish title, case aside.
    const { page: b } = await h.open(DESKTOP);
    const bErrors = pageErrors(b);
    await signIn(b, bob);
    await openJobs(b);
    await b.getByTestId(`job-row-${jobCode}`).waitFor();
    await b.getByTestId('jobs-search').fill(`SZOPY ${tag}`);
    await b.waitForURL(/[?&]q=SZOPY/);
    await b.locator('[data-testid="jobs-page"][data-view="jobs"]').waitFor();
    await b.waitForFunction(() => document.querySelectorAll('[data-testid^="job-row-"][data-code]').length === 1);
    expect(await b.getByTestId(`job-row-${jobCode}`).getByTestId('job-row-title').textContent()).toBe(title);
    expect(await b.getByTestId('jobs-announce').textContent()).toBe('1 job shown');
    await screenshot(b, 'jobs-list-search-desktop-en');
    await b.getByTestId('jobs-search').fill('no such job anywhere');
    await b.getByTestId('jobs-no-match').waitFor();
    // The menu's "Job list" starts afresh: no search in the address nor in the box.
    await b.getByTestId('side-menu').getByRole('link', { name: 'Job list' }).click();
    await b.waitForURL(`${h.baseUrl}/jobs`);
    await b.getByTestId(`job-row-${jobCode}`).waitFor();
    expect(await b.getByTestId('jobs-search').inputValue()).toBe('');
    // "My jobs": he has posted none.
    await b.getByTestId('jobs-filter').getByText('My jobs').click();
    await b.waitForURL(/[?&]mine=1/);
    await b.getByTestId('jobs-no-match').getByText('You have not posted any job yet.').waitFor();
    await b.getByTestId('jobs-filter').getByText('All jobs').click();
    await b.getByTestId(`job-row-${jobCode}`).waitFor();
    await b.getByTestId('jobs-search').fill(`shed roof ${tag}`);
    await b.getByTestId(`job-row-${jobCode}`).getByTestId('job-row-title').click();

    // The job in his language, the other version one click away; he may make an offer.
    await b.waitForURL(`${h.baseUrl}/jobs/${jobCode}`);
    await b.getByTestId('job-view').waitFor();
    expect(await b.getByTestId('job-title').textContent()).toBe(title);
    const makeOffer = b.getByTestId('job-make-offer');
    await makeOffer.waitFor();
    expect(await makeOffer.getAttribute('href')).toBe(`/jobs/${jobCode}/offers/new`);
    expect(await b.getByTestId('job-offers').count()).toBe(0);
    expect(await b.getByTestId('job-edit').count()).toBe(0);
    await b.getByTestId('job-language').getByText('Polski (pol)').click();
    await b.locator('[data-testid="job-view"][data-lang="pol"]').waitFor();
    expect(await b.getByTestId('job-title').textContent()).toBe(`Naprawa dachu szopy ${tag}`);
    expect(await b.getByTestId('job-description').textContent()).toBe('Wymiana papy na dachu szopy 3 na 4 m i naprawa dwóch krokwi.');
    await screenshot(b, 'jobs-view-provider-desktop-en');

    // Only the customer edits: anyone else is told so.
    await b.goto(`${h.baseUrl}/jobs/${jobCode}?edit=1`);
    await b.getByTestId('job-edit-not-yours').waitFor();
    expect(await b.getByTestId('job-form').count()).toBe(0);
    // The FAQ chat opens in the chat screen, with him and the customer in it.
    await b.goto(`${h.baseUrl}/jobs/${jobCode}`);
    await b.getByTestId('job-faq').click();
    await b.waitForURL(/\/messages\/[^/]+$/);
    await b.getByTestId('chat-conversation').waitFor();
    const faqCode = decodeURIComponent(new URL(b.url()).pathname.split('/')[2]);
    const faq = (await h.app.http().get(`/api/message/groups/${faqCode}`).set(api(bob)).expect(200)).body;
    expect(faq).toMatchObject({ type: 2, targetId: jobCode });
    expect(faq.participants.map((x: { userCode: string }) => x.userCode).sort()).toEqual([ada.user.code, bob.user.code].sort());
    await b.goto(`${h.baseUrl}/jobs/${jobCode}`);
    await b.getByTestId('job-make-offer').waitFor();

    // An offer with a price over the API: the customer's open job view shows its row live, the provider's
    // view turns "Make an offer" into "View my offer".
    await a.goto(`${h.baseUrl}/jobs/${jobCode}`);
    await a.getByTestId('job-offers-empty').waitFor();
    const offer = await h.app.http().post(`/api/jobs/${jobCode}/offers`).set(api(bob)).send({ message: 'I can do it next week' });
    expect(offer.status).toBe(201);
    const offerCode = offer.body.code as string;
    const priced = await h.app
      .http()
      .put(`/api/jobs/${jobCode}/offers/${offerCode}`)
      .set(api(bob))
      .send({ price: { amount: '120.50', currency: 'USD' }, deadline: '2031-04-20T10:00:00.000Z' });
    expect(priced.status).toBe(200);
    const row = a.getByTestId(`job-offer-row-${offerCode}`);
    await a.locator(`[data-testid="job-offer-row-${offerCode}"] [data-testid="job-offer-status"][data-status="5"]`).waitFor({ timeout: 10_000 });
    expect(await row.getByTestId('job-offer-price').textContent()).toBe('$120.50');
    expect(await row.getByTestId('job-offer-provider').textContent()).toBe(`Bob Provider${tag}`);
    expect(await row.getByTestId('job-offer-status').textContent()).toBe('Proposal');
    expect(await row.getByTestId('job-offer-deadline').textContent()).toBe(
      await a.evaluate(`new Date('2031-04-20T10:00:00.000Z').toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })`),
    );
    await row.locator('[data-presence]').waitFor();
    expect(await row.getByTestId('job-offer-open').getAttribute('href')).toBe(`/jobs/${jobCode}/offers/${offerCode}`);
    await b.getByTestId('job-view-my-offer').waitFor({ timeout: 10_000 });
    expect(await b.getByTestId('job-view-my-offer').getAttribute('href')).toBe(`/jobs/${jobCode}/offers/${offerCode}`);
    await screenshot(a, 'jobs-view-customer-desktop-en');

    // The customer stops taking offers: the switch, the badge and the job change together.
    const accepting = a.getByTestId('job-accepting-switch');
    expect(await accepting.isChecked()).toBe(true);
    await accepting.click();
    await a.locator('[data-testid="job-view"] [data-testid="job-accepting"][data-accepting="false"]').waitFor();
    expect(await accepting.isChecked()).toBe(false);
    expect((await h.app.http().get(`/api/job/${jobCode}`).set(api(ada)).expect(200)).body.acceptingOffers).toBe(false);
    await screenshot(a, 'jobs-view-customer-stopped-desktop-en');
    await accepting.click();
    await a.locator('[data-testid="job-view"] [data-testid="job-accepting"][data-accepting="true"]').waitFor();
    expect((await h.app.http().get(`/api/job/${jobCode}`).set(api(ada)).expect(200)).body.acceptingOffers).toBe(true);

    // The customer edits the job: a new English title, Bob off the manager role; the deadline stays as stored.
    await a.getByTestId('job-edit').click();
    await a.waitForURL(`${h.baseUrl}/jobs/${jobCode}?edit=1`);
    const edited = a.getByTestId('job-form-version').nth(0);
    expect(await edited.getByTestId('job-form-title').inputValue()).toBe(title);
    expect(await a.getByTestId('job-form-deadline').inputValue()).toBe('2031-05-01T12:00');
    await edited.getByTestId('job-form-title').fill(`${title} and gutter`);
    await a
      .getByTestId('job-form-role-1')
      .getByRole('button', { name: `Remove Bob Provider${tag} from Manager` })
      .click();
    await a.getByTestId('job-form-role-1').getByText('Nobody yet').waitFor();
    await a.getByTestId('job-form-save').click();
    await a.waitForURL(`${h.baseUrl}/jobs/${jobCode}`);
    await a.getByTestId('job-title').getByText(`${title} and gutter`).waitFor();
    await a.getByTestId('job-role-1').getByText('Nobody yet').waitFor();
    const after = (await h.app.http().get(`/api/job/${jobCode}`).set(api(ada)).expect(200)).body;
    expect(after).toMatchObject({ deadline: stored.deadline, acceptingOffers: true, title: `${title} and gutter` });
    expect(after.versions).toHaveLength(2);

    // The list counts the offer.
    await openJobs(a);
    expect(await a.getByTestId(`job-row-${jobCode}`).getByTestId('job-row-offers').textContent()).toBe('1 offer');

    // Screenshots of the three screens on a phone in English, and in Polish on both widths.
    await a.setViewportSize(PHONE);
    await openJobs(a);
    await screenshot(a, 'jobs-list-phone-en');
    await a.goto(`${h.baseUrl}/jobs/${jobCode}`);
    await a.getByTestId(`job-offer-row-${offerCode}`).scrollIntoViewIfNeeded();
    await screenshot(a, 'jobs-view-phone-en');
    await a.goto(`${h.baseUrl}/jobs/${jobCode}?edit=1`);
    await a.getByTestId('job-form').waitFor();
    await a.getByTestId('job-form-version').nth(0).getByTestId('job-form-title').fill('Roof');
    await screenshot(a, 'jobs-form-phone-en');

    const { page: p } = await h.open(DESKTOP);
    const pErrors = pageErrors(p);
    await signIn(p, ada, 'pol');
    for (const [size, name] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      await p.setViewportSize(size);
      await openJobs(p);
      expect(await p.getByTestId(`job-row-${jobCode}`).getByTestId('job-row-title').textContent()).toBe(`Naprawa dachu szopy ${tag}`);
      expect(await p.getByTestId(`job-row-${jobCode}`).getByTestId('job-row-offers').textContent()).toBe('1 oferta');
      await screenshot(p, `jobs-list-${name}-pl`);
      await p.goto(`${h.baseUrl}/jobs/${jobCode}`);
      await p.getByTestId(`job-offer-row-${offerCode}`).scrollIntoViewIfNeeded();
      expect(await p.getByTestId('job-title').textContent()).toBe(`Naprawa dachu szopy ${tag}`);
      expect(await p.getByTestId(`job-offer-row-${offerCode}`).getByTestId('job-offer-price').textContent()).toBe('120,50\u00a0USD');
      await screenshot(p, `jobs-view-${name}-pl`);
      await p.goto(`${h.baseUrl}/jobs/new`);
      await p.getByTestId('job-form').waitFor();
      await p.getByTestId('job-form-version').nth(0).getByTestId('job-form-title').fill('Dach');
      await p.getByText('Pole powinno zawierać minimum 6 znaków').waitFor();
      await screenshot(p, `jobs-form-${name}-pl`);
    }
    expect([...errors, ...bErrors, ...pErrors]).toEqual([]);
  });

  it('pages the list: 20 jobs, then the rest on "Show more jobs", newest first and each once', async () => {
    const place = await createInstance(h.app);
    const poster = await createUser(h.app, { instanceId: place.id });
    const reader = await createUser(h.app, { instanceId: place.id });
    const codes: string[] = [];
    for (let i = 1; i <= 23; i += 1) {
      const res = await h.app
        .http()
        .post('/api/job')
        .set(api(poster))
        .send({ versions: [{ lang: 'eng', title: `Numbered job ${i}`, description: 'A job posted to fill more than one page.' }] });
      expect(res.status).toBe(201);
      codes.unshift(res.body.code as string);
    }
    const { page } = await h.open(PHONE);
    const errors = pageErrors(page);
    await signIn(page, reader);
    await openJobs(page);
    const rows = page.locator('[data-testid="jobs-list"] > [data-code]');
    expect(await rows.count()).toBe(20);
    // A job posted meanwhile shifts the pages by one: the next page still shows each job once.
    await h.app
      .http()
      .post('/api/job')
      .set(api(poster))
      .send({ versions: [{ lang: 'eng', title: 'Posted while reading', description: 'A job posted while the list is open.' }] })
      .expect(201);
    await page.getByTestId('jobs-more').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="jobs-list"] > [data-code]').length === 23);
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-code')))).toEqual(codes);
    expect(await page.getByTestId('jobs-more').count()).toBe(0);
    // The keyboard goes on at the first job the button brought.
    expect(await page.evaluate(`document.activeElement?.closest('[data-code]')?.getAttribute('data-code')`)).toBe(codes[20]);
    await screenshot(page, 'jobs-list-paged-phone-en');
    expect(errors).toEqual([]);
  });
});
