import type { Page } from 'playwright-core';
import { DEFAULT_PASSWORD, createGroup, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { pause } from '../utils/wait';

jest.setTimeout(90_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Logs in through the API and hands the token to the app the way the app keeps it. */
async function loginWithToken(page: Page, email: string) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
}

describe('chat between two browsers', () => {
  it('delivers a message live to the other user, with the unread badge before they open the chat', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Sender' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Receiver' });
    const group = await createGroup(h.app, [ada, bob]);

    const a = (await h.open()).page;
    const b = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    await loginWithToken(b, bob.user.email);

    // Bob waits on the chat list; Ada opens the chat.
    await b.goto(`${h.baseUrl}/messages`);
    await b.getByTestId('chat-select').waitFor();
    await b.getByTestId(`chat-list-item-${group}`).waitFor();
    expect(await b.getByTestId('menu-unread-badge').count()).toBe(0);

    await a.goto(`${h.baseUrl}/messages/${group}`);
    await a.getByTestId('chat-empty').waitFor();
    expect(await a.getByTestId('group-name').first().textContent()).toBe('Bob Receiver');
    expect(await a.getByTestId('chat-send').isDisabled()).toBe(true);
    await screenshot(a, '20-chat-a-write-first-message');

    await a.getByTestId('chat-composer-input').fill('Hello Bob, live from Ada');
    await a.getByTestId('chat-composer-input').press('Enter');
    const sent = a.locator('[data-testid="chat-message"][data-state="sent"]');
    await sent.waitFor();
    expect(await sent.count()).toBe(1);
    expect(await a.getByTestId('chat-composer-input').inputValue()).toBe('');
    await screenshot(a, '21-chat-a-sent');

    // Bob, without a reload: the menu badge and the list show 1 unread, with the message as the last one.
    await b.getByTestId('menu-unread-badge').waitFor();
    expect(await b.getByTestId('menu-unread-badge').textContent()).toBe('1');
    const item = b.getByTestId(`chat-list-item-${group}`);
    await item.getByTestId('chat-list-unread').waitFor();
    expect(await item.getByTestId('chat-list-unread').textContent()).toBe('1');
    expect(await item.getByTestId('chat-list-last').textContent()).toBe('Hello Bob, live from Ada');
    await screenshot(b, '22-chat-b-unread-badge-before-opening');

    // Opening the chat reads it: the message is there once and the badge clears.
    await item.click();
    await b.getByTestId('chat-conversation').waitFor();
    await b.getByTestId('chat-messages').getByText('Hello Bob, live from Ada').waitFor();
    await b.getByTestId('menu-unread-badge').waitFor({ state: 'detached' });

    // The next message appears in Bob's open chat live, once, within a second of Ada's Enter: Ada's page
    // notes when Enter goes down, Bob's when the text first appears (browser code as strings: no DOM types).
    await a.evaluate(`document.addEventListener('keydown', (e) => { if (e.key === 'Enter') window.enterAt = Date.now(); }, true)`);
    await b.evaluate(`new MutationObserver(() => {
      if (!window.shownAt && [...document.querySelectorAll('[data-testid="chat-message-text"]')].some((el) => el.textContent === 'And a second one')) window.shownAt = Date.now();
    }).observe(document.body, { subtree: true, childList: true, characterData: true })`);
    await a.getByTestId('chat-composer-input').fill('And a second one');
    await a.getByTestId('chat-composer-input').press('Enter');
    const shownAt = (await (
      await b.waitForFunction(() => (globalThis as unknown as { shownAt: number }).shownAt, undefined, { timeout: 5_000 })
    ).jsonValue()) as number;
    const elapsed = shownAt - ((await a.evaluate('window.enterAt')) as number);
    expect(elapsed).toBeGreaterThanOrEqual(0);
    expect(elapsed).toBeLessThan(1_000);
    expect(await b.locator('[data-testid="chat-message"]').count()).toBe(2);
    expect(await b.locator('[data-testid="chat-message"][data-mine="false"]').count()).toBe(2);
    // Consecutive messages of one author are grouped: the second has a previous one.
    expect(await b.locator('[data-testid="chat-message"]').nth(1).getAttribute('data-has-previous')).toBe('true');
    expect(await a.locator('[data-testid="chat-message"]').count()).toBe(2);
    // The open chat is read as the message arrives: no badge comes back (a moment for one that should not).
    await pause(500);
    expect(await b.getByTestId('menu-unread-badge').count()).toBe(0);
    await screenshot(b, '23-chat-b-live-message');
    await screenshot(a, '24-chat-a-after-second');
    console.log(`second message: ${elapsed} ms from Ada's Enter to Bob's screen`);
  });
});
