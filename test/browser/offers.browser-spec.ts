import type { Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { DEFAULT_PASSWORD, type TestUser, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';

jest.setTimeout(240_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const PHONE = { width: 390, height: 844 };

async function login(page: Page, user: TestUser, options: { lang?: 'eng' | 'pol'; phone?: boolean } = {}) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email: user.user.email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
  await page.evaluate(`localStorage.setItem('language', ${JSON.stringify(options.lang ?? 'eng')})`);
  // On a phone the shell's menu starts open over everything; these users closed it before.
  if (options.phone) await page.evaluate(`localStorage.setItem('menu.over.opened', 'false')`);
}

const api = (who: TestUser) => ({ Authorization: `Bearer ${who.token}` });
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A job with an English and a Polish version, posted by the customer over the API. */
async function postJob(customer: TestUser, title: string, polishTitle: string): Promise<string> {
  const res = await h.app
    .http()
    .post('/api/job')
    .set(api(customer))
    .send({
      deadline: inDays(60),
      versions: [
        { lang: 'eng', title, description: 'Sand the old paint off the fence and give it two coats of wood stain.', isDefault: true },
        { lang: 'pol', title: polishTitle, description: 'Zeszlifować starą farbę z płotu i pomalować go dwiema warstwami lakierobejcy.' },
      ],
    });
  expect(res.status).toBe(201);
  return res.body.code;
}

/** A datetime-local value `days` ahead at 14:30 in the browser's time zone (the same machine as this test). */
function localInput(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T14:30`;
}

async function openOffer(page: Page, job: string, offer: string) {
  await page.goto(`${h.baseUrl}/jobs/${job}/offers/${offer}`);
  await page.getByTestId('offer-view').waitFor();
  await page.getByTestId('offer-history-item').first().waitFor();
}

/**
 * Watches `page`'s open offer view for the given version; answers how long after `since()` it showed up.
 * Browser code as strings: no DOM types here.
 */
async function watchForVersion(page: Page, version: number) {
  await page.evaluate(`(() => {
    window.shownAt = 0;
    const seen = () => document.querySelector('[data-testid="offer-view"]')?.getAttribute('data-version') === '${version}';
    if (seen()) window.shownAt = Date.now();
    const o = new MutationObserver(() => { if (!window.shownAt && seen()) { window.shownAt = Date.now(); o.disconnect(); } });
    o.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  })()`);
  return async (clickedAt: number): Promise<number> => {
    const shownAt = (await (
      await page.waitForFunction(() => (globalThis as unknown as { shownAt: number }).shownAt, undefined, { timeout: 5_000 })
    ).jsonValue()) as number;
    return shownAt - clickedAt;
  };
}

/** The buttons that confirm a move: the confirmation popover's yes, choose and pay buttons, and the revise dialog's submit. */
const CONFIRMS = ['confirm-yes', 'offer-choose-confirm', 'offer-pay-confirm', 'offer-submit'].map((id) => `[data-testid="${id}"]`).join(',');

/** A move made by clicking in `actor`'s offer view: the action, then its confirm (the popover at the button, or the revise dialog). */
async function clickMove(actor: Page, call: string, confirm: (page: Page) => Promise<void>): Promise<number> {
  await actor.getByTestId(`offer-action-${call}`).click();
  return confirmAndTime(actor, confirm);
}

/** The confirming click's time, as the actor's page saw it (a capture listener), not around the test's clicking. */
async function confirmAndTime(actor: Page, confirm: (page: Page) => Promise<void>): Promise<number> {
  await actor.evaluate(`(() => {
    window.clickedAt = 0;
    if (window.clickWatch) return;
    window.clickWatch = true;
    document.addEventListener('click', (e) => {
      if (!window.clickedAt && e.target.closest('${CONFIRMS}')) window.clickedAt = Date.now();
    }, true);
  })()`);
  await confirm(actor);
  return (await (
    await actor.waitForFunction(() => (globalThis as unknown as { clickedAt: number }).clickedAt, undefined, { timeout: 5_000 })
  ).jsonValue()) as number;
}

const yes = async (page: Page) => page.getByTestId('confirm-yes').last().click();

async function statusOf(page: Page): Promise<string | null> {
  return page.getByTestId('offer-view').getAttribute('data-status');
}

describe('offers in the browser', () => {
  it('takes an offer from the make-an-offer form to Closed, every move clicked and seen live by the other party', async () => {
    const customer = await createUser(h.app, { name: 'Celina', surname: 'Customer' });
    const provider = await createUser(h.app, { name: 'Piotr', surname: 'Provider' });
    const job = await postJob(customer, 'Paint the garden fence', 'Pomalować płot w ogrodzie');

    const p = (await h.open()).page;
    await login(p, provider);
    await p.goto(`${h.baseUrl}/jobs/${job}/offers/new`);
    await p.getByTestId('offer-form').waitFor();
    expect(await p.getByTestId('offer-job-summary').textContent()).toContain('Paint the garden fence');
    await screenshot(p, 'offers-form-desktop-en');

    // Invalid input shows the form's rules, only once touched, and sends nothing.
    await p.getByTestId('offer-amount').fill('12.345');
    await p.getByTestId('offer-submit').click();
    await p.getByText('Use at most 2 decimal places').waitFor();
    await p.getByText('The field is required').first().waitFor();
    await screenshot(p, 'offers-form-errors-desktop-en');

    // The offer is made and priced in one action: price in USD, a local price in PLN, deadline, first message.
    await p.getByTestId('offer-amount').fill('1200.50');
    await p.getByTestId('offer-local-amount').fill('4 800,00');
    await p.getByTestId('offer-local-currency').click();
    await p.getByRole('option', { name: /^PLN/ }).click();
    await p.getByTestId('offer-deadline').fill(localInput(14));
    await p.getByTestId('offer-message').fill('I can start on Monday.');
    await p.getByTestId('offer-submit').click();
    await p.waitForURL(/\/offers\/(?!new)[^/]+$/);
    const offer = p.url().split('/').pop() as string;
    await p.getByTestId('offer-view').waitFor();
    expect(await statusOf(p)).toBe('5');
    // A proposal left alone expires (the instance's default: 14 days after the last move).
    expect(await p.getByTestId('offer-lapse').textContent()).toBe('Expires in 13 days');
    expect(await p.getByTestId('offer-price').textContent()).toBe('$1,200.50');
    expect((await p.getByTestId('offer-local-price').textContent())?.replace(/[\u00a0\u202f]/g, ' ')).toContain('PLN 4,800.00');
    await p.evaluate('window.noReload = true');

    const c = (await h.open()).page;
    await login(c, customer);
    await openOffer(c, job, offer);
    await c.evaluate('window.noReload = true');
    expect(await statusOf(c)).toBe('5');
    expect(await c.getByTestId('offer-actions').getByRole('button').allTextContents()).toEqual(['Reject the offer']);
    await screenshot(c, 'offers-view-proposal-customer-desktop-en');

    // The first message and the proposal note are in the offer's chat, which is one click away.
    expect(await c.getByTestId('offer-open-chat').getAttribute('href')).toMatch(/^\/messages\//);

    let version = 2;
    const timings: Record<string, number> = {};
    const move = async (name: string, actor: Page, other: Page, act: (actor: Page) => Promise<number>, status: string) => {
      const shown = await watchForVersion(other, ++version);
      const elapsed = await shown(await act(actor));
      timings[name] = elapsed;
      expect(await statusOf(other)).toBe(status);
      // The actor's own view moves with its request's answer or the push, whichever comes first: on a busy
      // machine that can be a moment after the other party saw it.
      await actor.locator(`[data-testid="offer-view"][data-status="${status}"]`).waitFor({ timeout: 10_000 });
    };

    // A revision: the customer's open view shows the new price live (the chat's offer bar once needed a reload).
    await move(
      'revise',
      p,
      c,
      async (actor) => {
        await actor.getByTestId('offer-action-update').click();
        const dialog = actor.getByTestId('offer-revise-dialog');
        await dialog.getByTestId('offer-amount').fill('1100');
        return confirmAndTime(actor, (a) => a.getByTestId('offer-revise-dialog').getByTestId('offer-submit').click());
      },
      '5',
    );
    expect(await c.getByTestId('offer-price').textContent()).toBe('$1,100.00');
    await screenshot(p, 'offers-view-proposal-provider-desktop-en');

    // Two tabs of the provider race: tab B's confirm is open when tab A's move lands; B's confirmation closes, explained.
    const p2 = await p.context().newPage();
    await openOffer(p2, job, offer);
    await p2.getByTestId('offer-action-final').click();
    await p2.getByTestId('confirm-yes').waitFor();
    await move('final', p, c, (actor) => clickMove(actor, 'final', yes), '10');
    await p2.locator('[data-testid="offer-view"][data-status="10"]').waitFor();
    const conflict = p2.getByTestId('offer-conflict');
    await conflict.waitFor();
    expect(await conflict.textContent()).toContain('The offer cannot take this step in its current status');
    expect(await statusOf(p2)).toBe('10');
    expect(await p2.getByTestId('confirm-yes').count()).toBe(0);
    await screenshot(p2, 'offers-view-conflict-desktop-en');
    await p2.close();

    // The customer chooses the offer (keeping other offers open), then the provider confirms and finishes.
    await move(
      'choose',
      c,
      p,
      async (actor) => {
        await actor.getByTestId('offer-action-choose').click();
        await actor.getByTestId('offer-choose-confirm').waitFor();
        return confirmAndTime(actor, (a) => a.getByTestId('offer-choose-confirm').click());
      },
      '50',
    );
    await screenshot(c, 'offers-view-approved-customer-desktop-en');
    await move('reapprove', p, c, (actor) => clickMove(actor, 'reapprove', yes), '100');
    await move('finalizeRequest', p, c, (actor) => clickMove(actor, 'finalizeRequest', yes), '130');
    await screenshot(c, 'offers-view-finalize-requested-customer-desktop-en');
    await move('approveFinalizeRequest', c, p, (actor) => clickMove(actor, 'approveFinalizeRequest', yes), '160');
    await screenshot(c, 'offers-view-payment-pending-customer-desktop-en');

    // The payment due is on the customer's payments screen and dashboard.
    const c2 = await c.context().newPage();
    await c2.goto(`${h.baseUrl}/jobs/payments`);
    await c2.locator(`[data-testid="payment-due"][data-code="${offer}"]`).waitFor();
    await screenshot(c2, 'payments-due-desktop-en');
    await c2.goto(`${h.baseUrl}/`);
    await c2.locator('[data-testid="dashboard-due"][data-count="1"]').waitFor();
    await screenshot(c2, 'dashboard-customer-desktop-en');
    await c2.close();

    // Pay, double-clicked: one payment, declared; the offer waits for the provider to confirm it arrived.
    await move(
      'pay',
      c,
      p,
      async (actor) => {
        await actor.getByTestId('offer-action-pay').click();
        await actor.getByTestId('offer-pay-reference').fill('Transfer 2026/12/01');
        return confirmAndTime(actor, (a) => a.getByTestId('offer-pay-confirm').dblclick());
      },
      '180',
    );
    expect(await p.getByTestId('offer-action-confirmPayment').textContent()).toBe('Confirm the payment arrived');
    await screenshot(p, 'offers-view-payment-declared-provider-desktop-en');
    await move('confirmPayment', p, c, (actor) => clickMove(actor, 'confirmPayment', yes), '200');
    const payments = await h.app.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM payment p JOIN job_offer o ON o.id = p.offer_id WHERE o.code = $1`, [offer]);
    expect(payments[0].n).toBe(1);
    await screenshot(p, 'offers-view-closed-provider-desktop-en');

    // Every move reached the other party's open view within a second, without a reload.
    console.log(`offer moves, click to the other party's view (ms): ${JSON.stringify(timings)}`);
    // (A failure names the slow moves and their times.)
    expect(Object.entries(timings).filter(([, ms]) => !(ms >= 0 && ms < 1_000))).toEqual([]);
    expect(await p.evaluate('window.noReload')).toBe(true);
    expect(await c.evaluate('window.noReload')).toBe(true);
    // The history lists every move: made, priced, revised, final, chosen, agreed, finalization, accepted, paid.
    expect(await c.getByTestId('offer-history-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-call')))).toEqual([
      'create',
      'update',
      'update',
      'final',
      'choose',
      'reapprove',
      'finalizeRequest',
      'approveFinalizeRequest',
      'pay',
      'confirmPayment',
    ]);

    // The payment shows on both payments screens: made by the customer, received by the provider.
    await c.goto(`${h.baseUrl}/jobs/payments`);
    const made = c.locator(`[data-testid="payment-row"][data-offer="${offer}"]`);
    await made.waitFor();
    expect(await made.getAttribute('data-direction')).toBe('made');
    expect(await made.textContent()).toContain('Transfer 2026/12/01');
    expect(await c.getByTestId('payments-none-due').count()).toBe(1);
    await screenshot(c, 'payments-customer-desktop-en');
    await p.goto(`${h.baseUrl}/jobs/payments`);
    const received = p.locator(`[data-testid="payment-row"][data-offer="${offer}"]`);
    await received.waitFor();
    expect(await received.getAttribute('data-direction')).toBe('received');
    expect(await received.textContent()).toContain('+$1,100.00');
    await screenshot(p, 'payments-provider-desktop-en');

    // The offers list shows it, closed, to both.
    await p.goto(`${h.baseUrl}/jobs/offers`);
    await p.locator(`[data-testid="offer-row"][data-code="${offer}"][data-status="200"]`).waitFor();
  });

  it('lists offers waiting for me first and shows every screen at desktop and phone width, in English and Polish', async () => {
    const customer = await createUser(h.app, { name: 'Celina', surname: 'Klientka' });
    const provider = await createUser(h.app, { name: 'Piotr', surname: 'Wykonawca' });
    const other = await createUser(h.app, { name: 'Olga', surname: 'Kowalska' });
    const jobs = [
      await postJob(customer, 'Paint the garden fence', 'Pomalować płot w ogrodzie'),
      await postJob(customer, 'Fix the kitchen tap', 'Naprawić kran w kuchni'),
      await postJob(customer, 'Tile the bathroom floor', 'Położyć płytki w łazience'),
      await postJob(other, 'Build a garden shed', 'Zbudować szopę w ogrodzie'),
    ];
    const make = async (who: TestUser, job: string, amount: string, currency: string) =>
      (
        await h.app
          .http()
          .post(`/api/jobs/${job}/offers`)
          .set(api(who))
          .send({ price: { amount, currency }, localPrice: { amount: '2400', currency: 'PLN' }, deadline: inDays(20) })
          .expect(201)
      ).body.code as string;
    const step = async (who: TestUser, job: string, offer: string, path: string, body: object = {}, method: 'post' | 'put' = 'post') =>
      h.app.http()[method](`/api/jobs/${job}/offers/${offer}/${path}`).set(api(who)).send(body).expect(200);
    // One offer at Proposal (the provider's move), one at FinalOffer (the customer's), one waiting for payment, one closed and paid.
    const proposal = await make(provider, jobs[0], '600', 'USD');
    const final = await make(provider, jobs[1], '150.5', 'EUR');
    await step(provider, jobs[1], final, 'final');
    const due = await make(provider, jobs[2], '2400', 'PLN');
    for (const [path, who, method] of [
      ['final', provider, 'post'],
      ['choose', customer, 'post'],
      ['reapprove', provider, 'post'],
      ['finalizeRequest', provider, 'post'],
      ['ApproveFinalizeRequest', customer, 'put'],
    ] as const) {
      await step(who, jobs[2], due, path, path === 'choose' ? { allowForMoreOffers: true } : {}, method);
    }
    const paid = await make(customer, jobs[3], '99.99', 'USD');
    for (const [path, who, method] of [
      ['final', customer, 'post'],
      ['choose', other, 'post'],
      ['reapprove', customer, 'post'],
      ['finalizeRequest', customer, 'post'],
      ['ApproveFinalizeRequest', other, 'put'],
    ] as const) {
      await step(who, jobs[3], paid, path, path === 'choose' ? { allowForMoreOffers: true } : {}, method);
    }
    await step(other, jobs[3], paid, 'pay', { reference: 'Przelew 17/2026' });
    await step(customer, jobs[3], paid, 'confirmPayment');

    for (const lang of ['eng', 'pol'] as const) {
      for (const phone of [false, true]) {
        const tag = `${phone ? 'phone' : 'desktop'}-${lang === 'eng' ? 'en' : 'pl'}`;
        const { page } = await h.open(phone ? PHONE : undefined);
        await login(page, customer, { lang, phone });

        await page.goto(`${h.baseUrl}/jobs/offers`);
        await page.getByTestId('offer-row').first().waitFor();
        // The customer's move first: the final offer and the payment due, then the rest.
        const order = await page.getByTestId('offer-row').evaluateAll((els) => els.map((e) => [e.getAttribute('data-code'), e.getAttribute('data-waiting')]));
        expect(order.slice(0, 2).map(([, w]) => w)).toEqual(['true', 'true']);
        expect(
          order
            .slice(0, 2)
            .map(([code]) => code)
            .sort(),
        ).toEqual([final, due].sort());
        expect(order.map(([code]) => code)).toEqual(expect.arrayContaining([proposal, paid]));
        await screenshot(page, `offers-list-${tag}`);

        await openOffer(page, jobs[1], final);
        if (lang === 'pol') expect(await page.getByTestId('offer-job-summary').textContent()).toContain('Naprawić kran w kuchni');
        await screenshot(page, `offers-view-final-offer-${tag}`);

        await page.goto(`${h.baseUrl}/jobs/payments`);
        await page.getByTestId('payment-due').first().waitFor();
        await page.getByTestId('payment-row').first().waitFor();
        if (lang === 'pol') expect((await page.getByTestId('payment-due-amount').first().textContent())?.replace(/[\u00a0\u202f]/g, ' ')).toBe('2 400,00 zł');
        await screenshot(page, `payments-${tag}`);

        await page.goto(`${h.baseUrl}/`);
        await page.locator('[data-testid="dashboard-waiting"][data-count="2"]').waitFor();
        await page.locator('[data-testid="dashboard-jobs"][data-count="3"]').waitFor();
        await screenshot(page, `dashboard-${tag}`);

        // The provider's side: the make-an-offer form and the offer waiting for their move.
        const { page: pp } = await h.open(phone ? PHONE : undefined);
        await login(pp, other, { lang, phone });
        await pp.goto(`${h.baseUrl}/jobs/${jobs[0]}/offers/new`);
        await pp.getByTestId('offer-form').waitFor();
        await screenshot(pp, `offers-form-${tag}`);
        await login(pp, provider, { lang, phone });
        await openOffer(pp, jobs[0], proposal);
        await screenshot(pp, `offers-view-proposal-${tag}`);
        await pp.context().close();
        await page.context().close();
      }
    }

    // The provider's offer chats are named after their jobs, the customer as subtitle (not three times "Celina Klientka").
    const { page: chats } = await h.open();
    await login(chats, provider);
    await chats.goto(`${h.baseUrl}/messages`);
    await chats.getByTestId('group-name').first().waitFor();
    const names = await chats.getByTestId('group-name').allTextContents();
    expect(names).toEqual(expect.arrayContaining(['Paint the garden fence', 'Fix the kitchen tap', 'Tile the bathroom floor']));
    expect(new Set(await chats.getByTestId('group-name-people').allTextContents())).toEqual(new Set(['Celina Klientka']));
    // The chat's info bar is the job offer thumbnail, its price in the interface language, its View button to the offer.
    await chats.getByText('Fix the kitchen tap').first().click();
    const bar = chats.getByTestId('chat-info-bar');
    await bar.locator('[data-testid="offer-thumbnail"][data-state="loaded"]').waitFor();
    expect(await bar.getByTestId('chat-info-price').textContent()).toBe('€150.50');
    expect(await bar.getByTestId('chat-info-view').getAttribute('href')).toBe(`/jobs/${jobs[1]}/offers/${final}`);
    await screenshot(chats, 'offers-chat-named-after-job-desktop-en');
    await chats.context().close();
  });
});
