import type { Page } from 'playwright-core';
import { PresenceClock } from '#shared/presence/presence-clock';
import { PresenceService } from '#shared/presence/presence.service';
import { SocketEmitter } from '../../server/src/realtime/socket-emitter.service';
import { DEFAULT_PASSWORD, type TestUser, createGroup, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { pause } from '../utils/wait';

jest.setTimeout(240_000);

/** The server counts presence by this clock; the browsers' clocks are moved with it (minutes pass in an instant). */
class MovedClock extends PresenceClock {
  shift = 0;
  override now(): number {
    return Date.now() + this.shift;
  }
}

const clock = new MovedClock();
let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness({ providers: [{ provide: PresenceClock, useValue: clock }] });
  // The socket client takes a moved Date past its heartbeat's deadline for a lost connection (and reconnects,
  // which is activity): pings every second keep that deadline ahead of each move of at most PASS_STEP_MS.
  h.app.app.get(SocketEmitter).io!.engine.opts.pingInterval = 1000;
});
afterAll(async () => {
  await h?.close();
});

async function login(page: Page, user: TestUser, lang?: string) {
  // Only the page's Date is moved (with the server's clock): its timers stay real, so the socket's heartbeat holds.
  await page.clock.setSystemTime(clock.now());
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email: user.user.email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
  // On a phone the shell's menu starts open over everything; these users closed it before.
  await page.evaluate(`localStorage.setItem('menu.over.opened', 'false')`);
  if (lang) await page.evaluate(`localStorage.setItem('language', ${JSON.stringify(lang)})`);
}

const PASS_STEP_MS = 10_000;

/**
 * Moves the server's and both browsers' clocks on, in steps a heartbeat apart; each screen then looks at its
 * presence again (as on focus).
 */
async function pass(ms: number, pages: Page[]) {
  for (let left = ms; left > 0; left -= PASS_STEP_MS) {
    clock.shift += Math.min(left, PASS_STEP_MS);
    for (const page of pages) await page.clock.setSystemTime(clock.now());
    // Real time for a heartbeat (every second) at each step, so no socket takes the jump for a lost connection.
    await pause(1200);
  }
  for (const page of pages) await page.evaluate("window.dispatchEvent(new Event('focus'))");
}

/** The whole minutes the server counts for this user now (read inside: a request would be activity). */
async function serverMinutes(of: TestUser): Promise<number> {
  const [status] = await h.app.app.get(PresenceService).statuses([of.user.code]);
  return status.away as number;
}

/** Checks the screen shows "Inactive N minutes" with the server's N (read before and after, off a minute's edge). */
async function exactly(page: Page, of: TestUser): Promise<number> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const before = await serverMinutes(of);
    const label = await labelOf(page, of.user.code);
    if ((await serverMinutes(of)) !== before) continue;
    expect(label).toBe(`Inactive ${before} minutes`);
    return before;
  }
  throw new Error('the minute kept turning');
}

const presenceOf = (page: Page, code: string) => page.getByTestId(`chat-participant-${code}`).getAttribute('data-presence');
const labelOf = (page: Page, code: string) => page.getByTestId(`chat-participant-${code}`).locator('p').last().textContent();

describe('presence in two browsers', () => {
  it('shows active people as available for minutes on end, and exact minutes once one has left', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Watcher' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Watched' });
    const group = await createGroup(h.app, [ada, bob]);
    const a = (await h.open()).page;
    const b = (await h.open()).page;
    await login(a, ada);
    await login(b, bob);
    await a.goto(`${h.baseUrl}/messages/${group}/participants`);
    await b.goto(`${h.baseUrl}/messages/${group}`);
    await a.getByTestId(`chat-participant-${bob.user.code}`).waitFor();
    await b.getByTestId('chat-header-presence').waitFor();
    const pages = [a, b];

    // Over 4 minutes both keep clicking (every 20 s): each sees the other, and Ada herself, as available.
    for (let step = 0; step < 12; step++) {
      await pass(20_000, pages);
      // A key press is an interaction that changes nothing on screen.
      await a.keyboard.press('Shift');
      await b.keyboard.press('Shift');
      // Nothing on screen tells when the interactions have reached the server; the clock must not move before.
      await pause(300);
      await pass(0, pages);
      expect([step, await presenceOf(a, bob.user.code), await presenceOf(a, ada.user.code)]).toEqual([step, 'available', 'available']);
      expect([step, await b.getByTestId('chat-header-presence').getAttribute('data-presence')]).toEqual([step, 'available']);
    }

    // Both leave (their tabs stay open, nobody touches them): each screen counts the minutes exactly as the server does.
    await pass(150_000, pages);
    await a.getByTestId(`chat-participant-${bob.user.code}`).and(a.locator('[data-presence="away"]')).waitFor({ timeout: 10_000 });
    const bobAway = await exactly(a, bob);
    expect(bobAway).toBeGreaterThanOrEqual(2);
    expect(await exactly(a, ada)).toBeGreaterThanOrEqual(2);
    expect(await b.getByTestId('chat-header-presence').textContent()).toContain(await labelOf(a, ada.user.code));
    await screenshot(a, 'presence-participants-desktop-en');
    await screenshot(b, 'presence-chat-header-desktop-en');

    // A minute later, one more; the same at 390 px and in Polish.
    await pass(60_000, pages);
    expect(await exactly(a, bob)).toBe(bobAway + 1);
    const phone = (await h.open({ width: 390, height: 844 })).page;
    await login(phone, ada, 'pol');
    await phone.goto(`${h.baseUrl}/messages/${group}/participants`);
    await phone.getByTestId(`chat-participant-${bob.user.code}`).and(phone.locator('[data-presence="away"]')).waitFor();
    expect(await labelOf(phone, bob.user.code)).toMatch(/^Nieaktywny \d+ minut/);
    await screenshot(phone, 'presence-participants-390-pl');
    await phone.goto(`${h.baseUrl}/messages/${group}`);
    await phone.getByTestId('chat-header-presence').waitFor();
    await screenshot(phone, 'presence-chat-header-390-pl');
    const phoneEn = (await h.open({ width: 390, height: 844 })).page;
    await login(phoneEn, ada);
    await phoneEn.goto(`${h.baseUrl}/messages/${group}`);
    await phoneEn.getByTestId('chat-header-presence').waitFor();
    await screenshot(phoneEn, 'presence-chat-header-390-en');

    // Bob comes back: a key press shows him available on the other side within 2 s.
    await b.keyboard.press('Shift');
    await a.getByTestId(`chat-participant-${bob.user.code}`).and(a.locator('[data-presence="available"]')).waitFor({ timeout: 2_000 });
  });
});
