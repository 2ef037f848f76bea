import type { Locator, Page } from 'playwright-core';
import { DEFAULT_PASSWORD, createGroup, createUser, type TestUser } from '../factories';
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

/** Logs in through the API and hands the token to the app; the phone menu starts closed (it would cover the chat). */
async function loginWithToken(page: Page, email: string, language = 'eng') {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(
    `localStorage.setItem('token', ${JSON.stringify(token)}); localStorage.setItem('language', '${language}'); localStorage.setItem('menu.over.opened', 'false')`,
  );
}

async function send(user: TestUser, group: string, body: object): Promise<{ code: string; seq: number }> {
  const res = await h.app
    .http()
    .post(`/api/message/groups/${group}`)
    .set({ Authorization: `Bearer ${user.token}` })
    .send(body)
    .expect(201);
  return res.body as { code: string; seq: number };
}

const row = (page: Page, seq: number): Locator => page.locator(`[data-testid="chat-message"][data-seq="${seq}"]`);

/** Whether the element lies inside the chat's scrolling area (browser code as a string: no DOM types here). */
async function inView(page: Page, seq: number): Promise<boolean> {
  return (await page.evaluate(`(() => {
    const el = document.querySelector('[data-testid="chat-message"][data-seq="${seq}"]');
    const box = document.querySelector('[data-testid="chat-scroll"]').getBoundingClientRect();
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return r.bottom > box.top && r.top < box.bottom;
  })()`)) as boolean;
}

async function openMenuItem(page: Page, seq: number, item: 'chat-message-reply' | 'chat-message-edit') {
  await row(page, seq).getByTestId('chat-message-menu').first().click();
  await page.getByTestId(item).click();
}

describe('replies and edits between two browsers', () => {
  it('jumps from a quote to its original on an older page, and shows an edit live to the other user', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Replier' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Asker' });
    const group = await createGroup(h.app, [ada, bob]);
    // The original is the first of 62 messages: the newest page (50) starts at seq 13.
    const original = await send(bob, group, { message: 'The original question: who brings the paint?' });
    for (let i = 2; i <= 61; i++) await send(i % 2 ? bob : ada, group, { message: `filler message ${i}` });
    const reply = await send(bob, group, { message: 'Asking again, see above', replyToId: original.code });
    expect(reply.seq).toBe(62);

    const a = (await h.open()).page;
    const b = (await h.open(PHONE)).page;
    await loginWithToken(a, ada.user.email);
    // Bob reads in Polish on a phone.
    await loginWithToken(b, bob.user.email, 'pol');
    await b.goto(`${h.baseUrl}/messages/${group}`);
    await row(b, 62).waitFor();
    await a.goto(`${h.baseUrl}/messages/${group}`);
    await row(a, 62).waitFor();
    expect(await row(a, 1).count()).toBe(0);

    // Ada answers Bob's latest message: the quote shows above the composer, then in her sent message.
    await openMenuItem(a, 62, 'chat-message-reply');
    await a.getByTestId('chat-composer-mode').waitFor();
    expect(await a.getByTestId('chat-composer-mode').textContent()).toContain('Asking again, see above');
    await screenshot(a, 'chat-reply-composer-desktop-en');
    await a.getByTestId('chat-composer-input').fill('I will bring it');
    await a.getByTestId('chat-composer-input').press('Enter');
    const mine = row(a, 63);
    await mine.locator('[data-testid="chat-reply-quote"]').waitFor();
    expect(await mine.locator('[data-testid="chat-reply-quote"]').getAttribute('data-reply-to')).toBe(reply.code);
    expect(await a.getByTestId('chat-composer-mode').count()).toBe(0);
    await row(b, 63).locator('[data-testid="chat-reply-quote"]').waitFor();

    // The quote of Bob's message jumps to the original, loading the older page it is on, and highlights it.
    await row(a, 62).getByTestId('chat-reply-jump').click();
    await a.locator('[data-testid="chat-message"][data-seq="1"][data-highlighted="true"]').waitFor();
    await a.waitForFunction(`(() => {
      const el = document.querySelector('[data-testid="chat-message"][data-seq="1"]');
      const box = document.querySelector('[data-testid="chat-scroll"]').getBoundingClientRect();
      const r = el && el.getBoundingClientRect();
      return Boolean(r) && r.bottom > box.top && r.top < box.bottom;
    })()`);
    expect(await inView(a, 1)).toBe(true);
    await screenshot(a, 'chat-reply-jumped-to-original-desktop-en');

    // Back down to the newest messages (the list renders only the rows near the view).
    await a.evaluate(`document.querySelector('[data-testid="chat-scroll"]').scrollTop = 1e9`);
    await row(a, 63).waitFor();

    // Ada edits her answer: Bob sees the new text and the marker live, without reloading.
    await a.getByTestId('chat-composer-input').click();
    await a.getByTestId('chat-composer-input').press('Escape');
    await a.getByTestId('chat-composer-input').fill('');
    await openMenuItem(a, 63, 'chat-message-edit');
    await a.getByTestId('chat-composer-mode').waitFor();
    expect(await a.getByTestId('chat-composer-input').inputValue()).toBe('I will bring it');
    await screenshot(a, 'chat-edit-composer-desktop-en');
    await a.getByTestId('chat-composer-input').fill('I will bring it, and the brushes');
    await a.getByTestId('chat-composer-input').press('Enter');
    await row(a, 63).getByTestId('chat-message-edited').waitFor();

    await row(b, 63).getByText('I will bring it, and the brushes').waitFor();
    await row(b, 63).getByTestId('chat-message-edited').waitFor();
    expect(await b.locator('[data-testid="chat-message-text"]', { hasText: 'I will bring it' }).count()).toBe(1);
    await screenshot(b, 'chat-edit-live-phone-pl');
    await screenshot(a, 'chat-edit-saved-desktop-en');

    // Kept across a reload.
    await b.reload();
    await row(b, 63).getByTestId('chat-message-edited').waitFor();
    expect(await row(b, 63).getByTestId('chat-message-text').textContent()).toBe('I will bring it, and the brushes');
    expect(await row(b, 63).locator('[data-testid="chat-reply-quote"]').getAttribute('data-reply-to')).toBe(reply.code);
    await screenshot(b, 'chat-reply-edited-after-reload-phone-pl');
  });
});
