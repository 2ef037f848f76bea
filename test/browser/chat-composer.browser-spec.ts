import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { DEFAULT_PASSWORD, createGroup, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { pause, waitFor } from '../utils/wait';

jest.setTimeout(240_000);

// Page-side globals used inside page.evaluate callbacks (this project compiles without the DOM library).
declare const document: any, localStorage: any, DataTransfer: any, ClipboardEvent: any, requestAnimationFrame: any, getComputedStyle: any;
type HTMLElement = any;
type HTMLImageElement = any;
type HTMLButtonElement = any;

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

const db = () => h.app.app.get(DataSource);
const messages = (page: Page) => page.locator('[data-testid="chat-message"]');

/** Pastes files into the composer the way a browser does for a screenshot in the clipboard. */
async function pasteFile(page: Page, name: string, type: string, bytes: Buffer) {
  await page.getByTestId('chat-composer-input').focus();
  await page.evaluate(
    ({ name, type, b64 }) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([data], name, { type }));
      const input = document.querySelector('[data-testid="chat-composer-input"]') as HTMLElement;
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    },
    { name, type, b64: bytes.toString('base64') },
  );
}

/**
 * The connection to the server, cut and restored on demand: sockets are closed and refused, and the
 * message send endpoint fails as if the network were down. (context.setOffline leaves open WebSockets alone.)
 */
async function cuttableConnection(context: BrowserContext) {
  const state = { cut: false, sockets: [] as WebSocketRoute[] };
  await context.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (state.cut) {
      void ws.close({ code: 1006 }).catch(() => undefined);
      return;
    }
    ws.connectToServer();
    state.sockets.push(ws);
  });
  await context.route(
    (url) => /^\/api\/message\/groups\/[^/]+$/.test(url.pathname),
    (route) => (state.cut && route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue()),
  );
  return {
    get sockets() {
      return state.sockets.length;
    },
    async cut() {
      state.cut = true;
      const open = state.sockets.splice(0);
      await Promise.all(open.map((ws) => ws.close({ code: 1006 }).catch(() => undefined)));
    },
    restore() {
      state.cut = false;
    },
  };
}

describe('chat composer', () => {
  it('attaches a pasted image, uploads it with progress and shows its thumbnail to the other user', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Paster' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Viewer' });
    const group = await createGroup(h.app, [ada, bob]);
    const a = (await h.open()).page;
    const b = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    await loginWithToken(b, bob.user.email);
    await b.goto(`${h.baseUrl}/messages/${group}`);
    await b.getByTestId('chat-empty').waitFor();
    await a.goto(`${h.baseUrl}/messages/${group}`);
    await a.getByTestId('chat-empty').waitFor();

    // The message language defaults to the writer's.
    expect(await a.getByTestId('chat-language').inputValue()).toBe(ada.user.lang ?? 'eng');
    const png = await sharp({ create: { width: 240, height: 160, channels: 3, background: '#d9480f' } })
      .png()
      .toBuffer();
    await pasteFile(a, 'screenshot.png', 'image/png', png);
    const attached = a.getByTestId('chat-attachment');
    await attached.waitFor();
    await a.locator('[data-testid="chat-attachment"][data-status="done"]').waitFor();
    expect(await attached.getByTestId('chat-attachment-progress').getAttribute('data-value')).toBe('100');
    expect(await attached.getByTestId('file-tile').getAttribute('data-kind')).toBe('image');
    await screenshot(a, '40-composer-a-pasted-image-uploaded');

    // Hidden and shown again.
    await a.getByTestId('chat-attachments-toggle').click();
    await a.getByTestId('chat-attachments').waitFor({ state: 'detached' });
    await a.getByTestId('chat-attachments-toggle').click();
    await a.getByTestId('chat-attachments').waitFor();

    // No text: the file alone may be sent.
    expect(await a.getByTestId('chat-send').isEnabled()).toBe(true);
    await a.getByTestId('chat-send').click();
    await a.locator('[data-testid="chat-message"][data-state="sent"]').waitFor();
    expect(await a.getByTestId('chat-attachments').count()).toBe(0);

    // Bob sees the thumbnail (the image bytes came through with his bearer token).
    const tile = b.getByTestId('chat-message-files').getByTestId('file-tile');
    await b.locator('[data-testid="chat-message-files"] [data-testid="file-tile"][data-status="ready"] img').waitFor();
    expect(await tile.getAttribute('data-kind')).toBe('image');
    const width = await tile.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth);
    expect(width).toBeGreaterThan(0);
    expect(await messages(b).count()).toBe(1);
    // A files-only message: the files alone, no empty text bubble; the chat list says how many files.
    expect(await b.getByTestId('chat-message-bubble').count()).toBe(0);
    expect(await a.getByTestId('chat-message-bubble').count()).toBe(0);
    expect(await b.getByTestId(`chat-list-item-${group}`).getByTestId('chat-list-last').textContent()).toBe('1 file');
    expect(await b.getByTestId(`chat-list-item-${group}`).getByTestId('chat-list-files-icon').count()).toBe(1);
    await screenshot(b, '41-composer-b-sees-pasted-image');
    const [row] = (await db().query(
      `SELECT count(*)::int AS n FROM chat_message_file mf JOIN chat_message m ON m.id = mf.message_id JOIN chat_group g ON g.id = m.group_id WHERE g.code = $1`,
      [group],
    )) as { n: number }[];
    expect(row.n).toBe(1);
  });

  it('refreshes the token once and retries an upload the server refused with 401 (expired token)', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Expired' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Waiting' });
    const group = await createGroup(h.app, [ada, bob]);
    const a = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    await a.goto(`${h.baseUrl}/messages/${group}`);
    await a.getByTestId('chat-empty').waitFor();

    // The first upload meets a token that expired meanwhile (the server's answer to an expired token);
    // everything after it goes to the real server.
    const uploads: string[] = [];
    let refreshes = 0;
    a.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/api/user/refresh-token')) refreshes++;
    });
    await a.route('**/api/File', async (route) => {
      uploads.push(route.request().headers().authorization ?? '');
      if (uploads.length === 1) {
        await route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: JSON.stringify({ code: 401, message: 'SHARED.USER.SESSION_EXPIRED', data: null }),
        });
      } else await route.continue();
    });
    await pasteFile(a, 'notes.txt', 'text/plain', Buffer.from('after the refresh'));
    await a.locator('[data-testid="chat-attachment"][data-status="done"]').waitFor();
    expect(uploads).toHaveLength(2);
    expect(refreshes).toBe(1);
    expect(await a.getByTestId('chat-attachment-error').count()).toBe(0);
    await a.getByTestId('chat-send').click();
    await a.locator('[data-testid="chat-message"][data-state="sent"] [data-testid="chat-message-files"]').waitFor();
    // Still logged in: no "session expired", still on the chat.
    expect(new URL(a.url()).pathname).toBe(`/messages/${group}`);

    // A second 401 after the refresh is not retried again: the upload fails with its error.
    uploads.length = 0;
    await a.unroute('**/api/File');
    await a.route('**/api/File', async (route) => {
      uploads.push(route.request().headers().authorization ?? '');
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ code: 401, message: 'SHARED.ERROR.UNAUTHORIZED', data: null }),
      });
    });
    await pasteFile(a, 'again.txt', 'text/plain', Buffer.from('refused twice'));
    await a.locator('[data-testid="chat-attachment"][data-status="failed"]').waitFor();
    expect(uploads).toHaveLength(2);
  });

  it('keeps a message written while the connection is down across a reload and delivers it once when it is back', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Offline' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Online' });
    const group = await createGroup(h.app, [ada, bob]);
    const { context, page: a } = await h.open();
    const b = (await h.open()).page;
    const link = await cuttableConnection(context);
    await loginWithToken(a, ada.user.email);
    await loginWithToken(b, bob.user.email);
    await b.goto(`${h.baseUrl}/messages/${group}`);
    await b.getByTestId('chat-empty').waitFor();
    await a.goto(`${h.baseUrl}/messages/${group}`);
    await a.getByTestId('chat-empty').waitFor();
    await a.waitForFunction(() => true);
    await waitFor(() => link.sockets > 0, { intervalMs: 100, message: "the page's socket through the cuttable line" });
    expect(link.sockets).toBeGreaterThan(0);

    await link.cut();
    await a.getByTestId('chat-composer-input').fill('Written while the line was down');
    await a.getByTestId('chat-composer-input').press('Enter');
    const failed = a.locator('[data-testid="chat-message"][data-state="failed"]');
    await failed.waitFor();
    const failedCode = (await failed.getAttribute('data-code')) as string;
    expect(failedCode).toMatch(/^!-/);
    const clientKey = failedCode.slice(1);
    const outbox = await a.evaluate((key) => localStorage.getItem(key), `chat.outbox.${ada.user.code}`);
    expect(JSON.parse(outbox as string)).toEqual([expect.objectContaining({ clientKey, groupCode: group, message: 'Written while the line was down' })]);
    await screenshot(a, '42-composer-a-failed-while-offline');

    // A reload, still cut off: the message is still there (failed again after one more try), with its key.
    await a.reload();
    await a.getByTestId('chat-conversation').waitFor();
    await a.locator(`[data-testid="chat-message"][data-code="!${clientKey}"]`).waitFor();
    expect(await messages(a).count()).toBe(1);
    expect(await messages(b).count()).toBe(0);
    await screenshot(a, '43-composer-a-unsent-after-reload');

    // The line comes back: the socket reconnects by itself and the message goes out once, with its original key.
    link.restore();
    await a.locator('[data-testid="chat-message"][data-state="sent"]').waitFor({ timeout: 30_000 });
    await b.getByTestId('chat-messages').getByText('Written while the line was down').waitFor();
    // A moment more, for a second copy that should not come.
    await pause(1_000);
    expect(await messages(b).count()).toBe(1);
    expect(await messages(a).count()).toBe(1);
    const rows = (await db().query('SELECT count(*)::int AS n FROM chat_message WHERE client_key = $1', [clientKey])) as { n: number }[];
    expect(rows[0].n).toBe(1);
    expect(await a.evaluate((key) => localStorage.getItem(key), `chat.outbox.${ada.user.code}`)).toBeNull();
    await screenshot(b, '44-composer-b-delivered-once');
  });

  it('keeps a message whose answer was lost and sends it again after a reload without storing it twice', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Lost' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Found' });
    const group = await createGroup(h.app, [ada, bob]);
    const { context, page: a } = await h.open();
    // Every socket refused, and the first send reaches the server but its answer never comes back.
    await context.routeWebSocket(/\/socket\.io\//, (ws) => void ws.close({ code: 1006 }).catch(() => undefined));
    let lose = true;
    // The lost answer is held back until the test has seen the message in its sending state.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await context.route(
      (url) => /^\/api\/message\/groups\/[^/]+$/.test(url.pathname),
      async (route) => {
        if (!lose || route.request().method() !== 'POST') return route.continue();
        await route.fetch();
        await held;
        return route.abort('connectionreset');
      },
    );
    await loginWithToken(a, ada.user.email);
    await a.goto(`${h.baseUrl}/messages/${group}`);
    await a.getByTestId('chat-empty').waitFor();
    await a.getByTestId('chat-composer-input').fill('Answer lost on the way back');
    await a.getByTestId('chat-composer-input').press('Enter');
    // Sending: the temporary '-' code, at half opacity, until the answer comes (here: fails).
    const sending = a.locator('[data-testid="chat-message"][data-state="sending"]');
    await sending.waitFor();
    expect(await sending.getAttribute('data-code')).toMatch(/^-/);
    expect(await sending.evaluate((el) => getComputedStyle(el).opacity)).toBe('0.5');
    await screenshot(a, '47-composer-a-sending-half-opacity');
    release();
    const failed = a.locator('[data-testid="chat-message"][data-state="failed"]');
    await failed.waitFor();
    const clientKey = ((await failed.getAttribute('data-code')) as string).slice(1);
    const count = async () => ((await db().query('SELECT count(*)::int AS n FROM chat_message WHERE client_key = $1', [clientKey])) as { n: number }[])[0].n;
    expect(await count()).toBe(1);

    lose = false;
    await a.reload();
    await a.locator('[data-testid="chat-message"][data-state="sent"]').waitFor();
    // Polling (the socket is still refused) and the re-sent one's answer both name the one stored message: longer
    // than a polling period, for a second copy that should not come.
    await pause(6_000);
    expect(await messages(a).count()).toBe(1);
    expect(await count()).toBe(1);
  });
});

describe('a group with 10,000 messages', () => {
  it('scrolls through all of them with only a bounded number of rows in the page', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Reader' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Talker' });
    const group = await createGroup(h.app, [ada, bob]);
    const TOTAL = 10_000;
    // Seeded in one statement: every 3rd message is Ada's, every 7th has three lines, so rows differ in height.
    await db().query(
      `WITH g AS (SELECT id FROM chat_group WHERE code = $1)
       INSERT INTO chat_message (code, group_id, seq, author_id, type, text, lang, created_at)
       SELECT 'bulk' || lpad(s::text, 6, '0') || substr(md5($1), 1, 8), g.id, s,
              CASE WHEN s % 3 = 0 THEN $2::uuid ELSE $3::uuid END, 1,
              'bulk message ' || s || CASE WHEN s % 7 = 0 THEN E'\nsecond line\nthird line' ELSE '' END,
              'eng', now() - ((${TOTAL} - s) || ' seconds')::interval
       FROM g, generate_series(1, ${TOTAL}) AS s`,
      [group, ada.user.id, bob.user.id],
    );
    await db().query(`UPDATE chat_group SET last_seq = ${TOTAL}, last_message_at = now() WHERE code = $1`, [group]);
    await db().query(`UPDATE chat_participant p SET read_seq = ${TOTAL} FROM chat_group g WHERE g.id = p.group_id AND g.code = $1`, [group]);

    const a = (await h.open({ width: 1280, height: 800 })).page;
    await loginWithToken(a, ada.user.email);
    await a.goto(`${h.baseUrl}/messages/${group}`);
    const list = a.getByTestId('chat-messages');
    await a.locator(`[data-testid="chat-message"][data-seq="${TOTAL}"]`).waitFor();
    const total = async () => Number(await list.getAttribute('data-total'));
    const first = await total();
    expect(first).toBeLessThan(TOTAL);

    // 'load older' keeps what the reader looks at in place.
    const scroller = a.getByTestId('chat-scroll');
    const settle = () => a.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await scroller.evaluate((el) => (el.scrollTop = 0));
    const oldest = TOTAL - first + 1;
    await a.locator(`[data-testid="chat-message"][data-seq="${oldest}"]`).waitFor();
    await settle();
    const topBefore = await a.locator(`[data-testid="chat-message"][data-seq="${oldest}"]`).evaluate((el) => el.getBoundingClientRect().top);
    await a.getByTestId('chat-load-older').click();
    await a.waitForFunction((n) => Number(document.querySelector('[data-testid="chat-messages"]')?.getAttribute('data-total')) > n, first);
    await settle();
    const topAfter = await a.locator(`[data-testid="chat-message"][data-seq="${oldest}"]`).evaluate((el) => el.getBoundingClientRect().top);
    expect(Math.abs(topAfter - topBefore)).toBeLessThanOrEqual(2);

    // Every page, oldest last.
    const started = Date.now();
    const loadOlder = a.getByTestId('chat-load-older');
    for (let i = 0; i < 400 && (await loadOlder.count()) > 0; i++) {
      const before = await total();
      await loadOlder.evaluate((button: HTMLButtonElement) => button.click());
      await a.waitForFunction(
        (n) =>
          Number(document.querySelector('[data-testid="chat-messages"]')?.getAttribute('data-total')) !== n ||
          !document.querySelector('[data-testid="chat-load-older"]'),
        before,
      );
    }
    console.log(`loaded ${TOTAL} messages page by page in ${Date.now() - started} ms`);
    expect(await total()).toBe(TOTAL);
    const rows = async () => messages(a).count();
    const bound = 120;
    expect(await rows()).toBeLessThan(bound);

    const seqs = async () => (await messages(a).evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-seq'))))).sort((x, y) => x - y);
    const visibleSeqs = async () =>
      messages(a).evaluateAll((els) => {
        const view = document.querySelector('[data-testid="chat-scroll"]')!.getBoundingClientRect();
        return els
          .filter((el) => {
            const r = el.getBoundingClientRect();
            return r.bottom > view.top && r.top < view.bottom;
          })
          .map((el) => Number(el.getAttribute('data-seq')));
      });

    // Jump around: the middle, the very top, the bottom. Each time only rows near the viewport exist.
    for (const at of [0.5, 0, 0.25, 1]) {
      await scroller.evaluate((el, f) => (el.scrollTop = f * (el.scrollHeight - el.clientHeight)), at);
      await settle();
      await settle();
      const present = await seqs();
      console.log(`at ${at * 100}% of ${TOTAL}: ${present.length} message rows in the page (seq ${present[0]}–${present[present.length - 1]})`);
      expect(present.length).toBeGreaterThan(0);
      expect(present.length).toBeLessThan(bound);
      const seen = await visibleSeqs();
      expect(seen.length).toBeGreaterThan(0);
      // Contiguous rows: nothing skipped inside the window.
      expect(present[present.length - 1] - present[0] + 1).toBe(present.length);
      if (at === 0) expect(present[0]).toBe(1);
      if (at === 1) expect(present[present.length - 1]).toBe(TOTAL);
      if (at === 0.5) expect(Math.abs(seen[0] - TOTAL / 2)).toBeLessThan(TOTAL / 10);
    }
    await screenshot(a, '45-chat-10000-messages-bottom');

    // Scrolling with the wheel through a stretch keeps the rows bounded too.
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight * 0.6));
    for (let i = 0; i < 20; i++) await a.mouse.wheel(0, -600);
    await settle();
    expect(await rows()).toBeLessThan(bound);
    await screenshot(a, '46-chat-10000-messages-middle');

    // At the bottom, a new message keeps the reader at the bottom and is visible.
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await settle();
    const res = await a.request.post(`${h.baseUrl}/api/message/groups/${group}`, {
      headers: { Authorization: `Bearer ${bob.token}` },
      data: { message: 'The newest one' },
    });
    expect(res.status()).toBe(201);
    await list.getByText('The newest one').waitFor();
    await settle();
    await settle();
    expect(await visibleSeqs()).toContain(TOTAL + 1);
    const gap = await scroller.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop);
    expect(gap).toBeLessThan(40);
    expect(await total()).toBe(TOTAL + 1);
    await expect(a.getByTestId('chat-live-region').textContent()).resolves.toContain('Bob Talker: The newest one');
  });
});
