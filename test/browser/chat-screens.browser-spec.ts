import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import type { Page, WebSocketRoute } from 'playwright-core';
import { Role } from '#shared/contracts/roles';
import { DEFAULT_PASSWORD, type TestUser, createGroup, createUser } from '../factories';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { pause } from '../utils/wait';

jest.setTimeout(180_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function loginWithToken(page: Page, email: string, menuClosed = false) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
  // On a phone the shell's menu starts open over everything; this user closed it before.
  if (menuClosed) await page.evaluate(`localStorage.setItem('menu.over.opened', 'false')`);
}

async function sendByApi(from: TestUser, group: string, message: string) {
  const res = await h.app.http().post(`/api/message/groups/${group}`).set('Authorization', `Bearer ${from.token}`).send({ message });
  expect(res.status).toBe(201);
  return res.body as { code: string; seq: number };
}

async function openChat(page: Page, group: string) {
  await page.goto(`${h.baseUrl}/messages/${group}`);
  await page.getByTestId('chat-conversation').waitFor();
  await page.getByTestId('realtime-banner').waitFor({ state: 'attached' });
}

const messageCount = (page: Page, text: string) => page.getByTestId('chat-messages').getByText(text, { exact: true }).count();

describe('chat screens in the browser', () => {
  it('falls back to polling while the socket is down and goes live again by itself, nothing missing or doubled', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Online' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Offline' });
    const group = await createGroup(h.app, [ada, bob]);
    const b = (await h.open()).page;
    await loginWithToken(b, bob.user.email);

    // Bob's WebSockets go through this switch: proxied to the server, or closed at once while "offline".
    let blocked = false;
    let live: WebSocketRoute | null = null;
    await b.routeWebSocket(/\/socket\.io\//, (ws) => {
      if (blocked) return void ws.close();
      ws.connectToServer();
      live = ws;
    });
    const polls: string[] = [];
    b.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith(`/api/message/groups/${group}/messages`) && (req.postData() ?? '').includes('afterSeq'))
        polls.push(req.url());
    });

    await openChat(b, group);
    await sendByApi(ada, group, 'before the cut');
    await b.getByTestId('chat-messages').getByText('before the cut').waitFor();
    expect(await b.getByTestId('realtime-banner').getAttribute('data-state')).toBe('hidden');
    expect(polls).toHaveLength(0);

    // The cut: the network drops Bob's socket and refuses new ones.
    blocked = true;
    await (live as WebSocketRoute | null)?.close();
    const cutAt = Date.now();
    await b.locator('[data-testid="realtime-banner"][data-state="polling"]').waitFor({ timeout: 10_000 });
    await screenshot(b, '60-socket-lost-polling-banner');

    // Messages still arrive, through polling (every 5 s).
    await sendByApi(ada, group, 'sent while Bob is offline 1');
    await sendByApi(ada, group, 'sent while Bob is offline 2');
    await b.getByTestId('chat-messages').getByText('sent while Bob is offline 2').waitFor({ timeout: 15_000 });
    expect(polls.length).toBeGreaterThan(0);
    expect(await b.getByTestId('realtime-banner').getAttribute('data-state')).toBe('polling');
    await screenshot(b, '61-message-arrived-by-polling');
    // Keep the socket down for 10 s in all.
    await pause(Math.max(0, 10_000 - (Date.now() - cutAt)));
    expect(Date.now() - cutAt).toBeGreaterThanOrEqual(10_000);

    // Back: the socket reconnects by itself (no reload), the banner says so and goes, polling stops.
    blocked = false;
    await b.locator('[data-testid="realtime-banner"][data-state="recovered"]').waitFor({ timeout: 15_000 });
    await screenshot(b, '62-socket-back-live-again');
    await sendByApi(ada, group, 'live again after the cut');
    await b.getByTestId('chat-messages').getByText('live again after the cut').waitFor({ timeout: 5_000 });
    const pollsWhenBack = polls.length;
    await b.locator('[data-testid="realtime-banner"][data-state="hidden"]').waitFor({ state: 'attached', timeout: 10_000 });
    await pause(6_000); // longer than one polling period, for a poll that should not come
    expect(polls.length).toBe(pollsWhenBack);

    for (const text of ['before the cut', 'sent while Bob is offline 1', 'sent while Bob is offline 2', 'live again after the cut']) {
      expect(await messageCount(b, text)).toBe(1);
    }
    expect(await b.locator('[data-testid="chat-message"]').count()).toBe(4);
  });

  it('lets a moderator watch a room live and delete a message there, while the participants see the moderated badge', async () => {
    const admin = await createUser(h.app, { name: 'Mo', surname: 'Derator', role: Role.InstanceAdmin });
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Talker' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Listener' });
    const group = await createGroup(h.app, [ada, bob]);
    await sendByApi(ada, group, 'the room is busy');

    const b = (await h.open()).page;
    await loginWithToken(b, bob.user.email);
    await openChat(b, group);
    expect(await b.getByTestId('chat-moderated-badge').count()).toBe(0);

    const m = (await h.open()).page;
    await loginWithToken(m, admin.user.email);
    await m.goto(`${h.baseUrl}/`);
    // The side menu offers the rooms view to moderators.
    await m.getByTestId('side-menu').getByText('Rooms', { exact: true }).click();
    const row = m.getByTestId(`moderation-room-${group}`);
    await row.waitFor();
    await screenshot(m, '63-moderator-rooms');
    await row.getByTestId('moderation-watch').click();
    await m.locator('[data-testid="moderation-watch-room"][data-watch="live"]').waitFor();
    await m.getByTestId('chat-messages').getByText('the room is busy').waitFor();
    expect(await m.getByTestId('chat-composer-input').count()).toBe(0);

    // Bob sees that the room is moderated, live.
    await b.getByTestId('chat-moderated-badge').waitFor();
    await b.getByTestId(`chat-list-item-${group}`).getByTestId('chat-list-moderated').waitFor();
    await screenshot(b, '64-participant-sees-moderated-badge');

    // Ada writes; the moderator sees it live, deletes it; everyone sees the deleted marker.
    const sent = await sendByApi(ada, group, 'please delete me');
    const watched = m.locator(`[data-testid="chat-message"][data-code="${sent.code}"]`);
    await watched.getByText('please delete me').waitFor({ timeout: 5_000 });
    await screenshot(m, '65-moderator-sees-message-live');
    await watched.getByTestId('chat-message-menu').click();
    await m.getByTestId('chat-message-delete').click();
    await m.getByTestId('confirm-yes').click();
    await watched.getByTestId('chat-message-deleted').waitFor();
    await b.locator(`[data-testid="chat-message"][data-code="${sent.code}"]`).getByTestId('chat-message-deleted').waitFor({ timeout: 5_000 });
    await screenshot(m, '66-moderator-deleted-message');

    // The moderator leaves: the badge goes away for Bob.
    await m.goto(`${h.baseUrl}/`);
    await b.getByTestId('chat-moderated-badge').waitFor({ state: 'detached', timeout: 10_000 });
  });

  it('shows the information bar and offer cards in a job-offer chat, and the chat list as an overlay on a phone', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Customer' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Provider' });
    // A real job and offer through the marketplace API, moved on to CustomerApproved (50).
    const api = (who: TestUser) => ({ Authorization: `Bearer ${who.token}` });
    const deadline = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const job = await h.app
      .http()
      .post('/api/job')
      .set(api(ada))
      .send({ deadline, versions: [{ lang: 'eng', title: 'Paint the garden fence', description: 'Two coats of paint on a 20 m wooden fence.' }] });
    expect(job.status).toBe(201);
    const jobCode = job.body.code as string;
    const offer = await h.app.http().post(`/api/jobs/${jobCode}/offers`).set(api(bob)).send({ message: 'About your job' });
    expect(offer.status).toBe(201);
    const offerCode = offer.body.code as string;
    const group = offer.body.groupCode as string;
    const base = `/api/jobs/${jobCode}/offers/${offerCode}`;
    expect(
      (
        await h.app
          .http()
          .put(base)
          .set(api(bob))
          .send({ price: { amount: '120.50', currency: 'USD' }, deadline })
      ).status,
    ).toBe(200);
    expect((await h.app.http().post(`${base}/final`).set(api(bob)).send({})).status).toBe(200);
    expect((await h.app.http().post(`${base}/choose`).set(api(ada)).send({ allowForMoreOffers: true })).status).toBe(200);

    const a = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    await openChat(a, group);
    const bar = a.getByTestId('chat-info-bar');
    await bar.waitFor();
    const badge = bar.getByTestId('chat-info-status');
    await a.locator('[data-testid="chat-info-status"][data-status="50"]').waitFor();
    expect(await badge.textContent()).toBe('Approved by customer');
    expect(await bar.textContent()).toContain('Offer: Paint the garden fence');
    expect(await bar.getByTestId('chat-info-view').getAttribute('href')).toBe(`/jobs/${jobCode}/offers/${offerCode}`);
    // The provider's first message, then the marketplace's notes as cards with translated titles, no raw keys.
    await a.getByTestId('chat-messages').getByText('About your job', { exact: true }).waitFor();
    const cards = a.getByTestId('chat-system-message');
    await a.locator('[data-testid="chat-system-message"][data-type="3"]').waitFor();
    // Each card is titled by its own text and shows its own move's status (not the offer's now: Approved by customer).
    expect(await cards.getByTestId('chat-system-title').allTextContents()).toEqual([
      'The provider sent a price and a deadline',
      'The provider made a final offer',
      'The customer approved the offer',
    ]);
    const statuses = cards.getByTestId('chat-system-status');
    expect(await Promise.all((await statuses.all()).map((b) => b.getAttribute('data-status')))).toEqual(['5', '10', '50']);
    expect(await cards.getByTestId('chat-system-terms').first().textContent()).toContain('Price: $120.50');
    expect(await a.getByTestId('chat-page').textContent()).not.toMatch(/JOB_OFFER\./);
    expect(await a.getByTestId(`chat-list-item-${group}`).getByTestId('chat-list-last').textContent()).toBe('The customer approved the offer');
    await screenshot(a, '67-offer-chat-info-bar-and-cards');

    // Bob confirms: the offer:status push moves Ada's badge on, and the note arrives, without a reload.
    const offerFetches: string[] = [];
    a.on('request', (req) => {
      if (req.url().includes(`/api/jobs/offers/${offerCode}`)) offerFetches.push(req.url());
    });
    expect((await h.app.http().post(`${base}/reapprove`).set(api(bob)).send({})).status).toBe(200);
    await a.locator('[data-testid="chat-info-status"][data-status="100"]').waitFor({ timeout: 10_000 });
    expect(await badge.textContent()).toBe('Agreed');
    await a.getByTestId('chat-messages').getByText('The provider confirmed the agreement', { exact: true }).waitFor({ timeout: 10_000 });
    expect(offerFetches).toEqual([]);
    await screenshot(a, '67b-offer-chat-status-pushed');

    // Hide and show the list on a wide screen.
    await a.getByTestId('chat-sidebar-toggle').click();
    await a.getByTestId('chat-sidebar').waitFor({ state: 'detached' });
    expect(await a.getByTestId('chat-page').getAttribute('data-sidebar')).toBe('closed');
    await a.getByTestId('chat-sidebar-toggle').click();
    await a.locator('[data-testid="chat-sidebar"][data-state="open"]').waitFor();

    // A phone: the chat alone; the list comes over it on request and goes once a chat is picked.
    const p = (await h.open({ width: 390, height: 800 })).page;
    await loginWithToken(p, ada.user.email, true);
    await openChat(p, group);
    expect(await p.getByTestId('chat-sidebar').count()).toBe(0);
    await p.getByTestId('chat-sidebar-toggle').click();
    await p.locator('[data-testid="chat-sidebar"][data-state="visible"]').waitFor();
    await screenshot(p, '68-phone-chat-list-overlay');
    await p.getByTestId(`chat-list-item-${group}`).click();
    await p.getByTestId('chat-sidebar').waitFor({ state: 'detached' });
    await screenshot(p, '69-phone-chat');
  });

  it("shows presence live: a direct chat's dot and the participants page turn green when the other person comes online", async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Arriving' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Waiting' });
    // Bob starts the chat: Ada has never been active, so she is unavailable (presence follows the minutes since activity).
    const group = await createGroup(h.app, [bob, ada]);
    const b = (await h.open()).page;
    // Bob's socket frames, shown only if the presence never arrives.
    const frames: string[] = [];
    b.on('websocket', (ws) => {
      ws.on('framesent', (f) => frames.push(`sent ${String(f.payload).slice(0, 160)}`));
      ws.on('framereceived', (f) => frames.push(`recv ${String(f.payload).slice(0, 160)}`));
    });
    await loginWithToken(b, bob.user.email);
    await b.goto(`${h.baseUrl}/messages/${group}/participants`);
    const adaRow = b.getByTestId(`chat-participant-${ada.user.code}`);
    await b.locator(`[data-testid="chat-participant-${ada.user.code}"][data-presence="unavailable"]`).waitFor();
    const dot = b.getByTestId(`chat-list-item-${group}`).getByTestId('chat-list-presence');
    expect(await dot.getAttribute('data-presence')).toBe('unavailable');
    await b.locator(`[data-testid="chat-participant-${bob.user.code}"][data-presence="available"]`).waitFor();

    const a = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    await a.goto(`${h.baseUrl}/messages`);
    // Pushed, not reloaded.
    await b
      .locator(`[data-testid="chat-participant-${ada.user.code}"][data-presence="available"]`)
      .waitFor({ timeout: 10_000 })
      .catch((err: Error) => {
        throw new Error(`${err.message}\nBob's socket frames:\n${frames.join('\n')}`);
      });
    await b.locator(`[data-testid="chat-list-item-${group}"] [data-testid="chat-list-presence"][data-presence="available"]`).waitFor();
    expect(await adaRow.textContent()).toContain('Available');
    await screenshot(b, '70-participants-live-presence');
  });

  it('starts a new chat with a picked person, renames it in its settings and adds someone on the participants page', async () => {
    const tag = randomBytes(3).toString('hex');
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Starter' });
    const bob = await createUser(h.app, { name: 'Bob', surname: `Picked${tag}` });
    const cy = await createUser(h.app, { name: 'Cy', surname: `Added${tag}` });
    const a = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    const pick = async (query: string, code: string) => {
      await a.getByTestId('user-search-query').fill(query);
      await a.getByTestId(`user-search-result-${code}`).click();
      await a.getByTestId('user-search-confirm').click();
      await a.getByTestId('user-search-query').waitFor({ state: 'detached' });
    };

    // The 'new' group state: no chat yet, the first message waits for someone to write to.
    await a.goto(`${h.baseUrl}/messages/new/create`);
    await a.getByTestId('chat-new').waitFor();
    expect(await a.getByTestId('chat-new-message').isDisabled()).toBe(true);
    expect(await a.getByTestId('chat-new-start').isDisabled()).toBe(true);
    await a.getByTestId('chat-new-pick').click();
    await pick(`Picked${tag}`, bob.user.code);
    await a.getByTestId(`chat-new-person-${bob.user.code}`).waitFor();
    await a.getByTestId('chat-new-message').fill('Hello from a new chat');
    await screenshot(a, '71-new-chat-picked-person');
    await a.getByTestId('chat-new-start').click();
    await a.getByTestId('chat-conversation').waitFor();
    await a.getByTestId('chat-messages').getByText('Hello from a new chat').waitFor();
    const group = new URL(a.url()).pathname.split('/')[2];
    expect(group.length).toBeGreaterThanOrEqual(5);

    // Settings: a name and a subtitle; the list and the header follow.
    await a.getByTestId('chat-open-settings').click();
    await a.getByTestId('chat-settings-name').fill('Garden project');
    await a.getByTestId('chat-settings-subtitle').fill('Fence and paint');
    await a.getByTestId('chat-settings-save').click();
    await a.getByTestId(`chat-list-item-${group}`).getByText('Garden project', { exact: true }).waitFor();
    await a.getByText('Chat settings saved', { exact: true }).waitFor();
    await screenshot(a, '72-chat-settings-renamed');

    // Participants: Cy is added through the user search dialog.
    await a.goto(`${h.baseUrl}/messages/${group}/participants`);
    await a.getByTestId(`chat-participant-${bob.user.code}`).waitFor();
    await a.getByTestId('chat-participants-add').click();
    await pick(`Added${tag}`, cy.user.code);
    await a.getByTestId(`chat-participant-${cy.user.code}`).waitFor();
    expect(await a.getByTestId('chat-participants').locator('li').count()).toBe(3);
    await screenshot(a, '73-participants-person-added');

    // Back in the chat: the new name and subtitle in the header.
    await openChat(a, group);
    expect(await a.getByTestId('chat-conversation').getByTestId('group-name').textContent()).toBe('Garden project');
    expect(await a.getByTestId('chat-conversation').textContent()).toContain('Fence and paint');
  });

  it('measures send→render latency between two browsers (median of 20)', async () => {
    const ada = await createUser(h.app, { name: 'Ada', surname: 'Fast' });
    const bob = await createUser(h.app, { name: 'Bob', surname: 'Watcher' });
    const group = await createGroup(h.app, [ada, bob]);
    const a = (await h.open()).page;
    const b = (await h.open()).page;
    await loginWithToken(a, ada.user.email);
    await loginWithToken(b, bob.user.email);
    await openChat(a, group);
    await openChat(b, group);
    await a.locator('[data-testid="realtime-banner"][data-state="hidden"]').waitFor({ state: 'attached' });
    // Ada's page notes when Enter goes down; Bob's notes when each text first appears on screen.
    // (Browser code as strings: the test project's TypeScript has no DOM types.)
    await a.evaluate(`document.addEventListener('keydown', (e) => { if (e.key === 'Enter') window.enterAt = Date.now(); }, true)`);
    await b.evaluate(`(() => {
      const seen = (window.seen = {});
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-testid="chat-message-text"]')) {
          const text = el.textContent || '';
          if (text.startsWith('lat-') && !seen[text]) seen[text] = Date.now();
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    })()`);

    const samples: number[] = [];
    for (let i = 0; i < 20; i++) {
      const text = `lat-${i}`;
      await a.getByTestId('chat-composer-input').fill(text);
      await a.getByTestId('chat-composer-input').press('Enter');
      const shownAt = (await (
        await b.waitForFunction((t) => (globalThis as unknown as { seen: Record<string, number> }).seen[t], text, { timeout: 10_000 })
      ).jsonValue()) as number;
      const enterAt = (await a.evaluate('window.enterAt')) as number;
      samples.push(shownAt - enterAt);
    }
    const sorted = [...samples].sort((x, y) => x - y);
    const median = (sorted[9] + sorted[10]) / 2;
    console.log(
      `send→render latency over 20 messages (Enter in one browser → text on the other's screen): median ${median} ms, min ${sorted[0]} ms, max ${sorted[19]} ms; samples ${samples.join(', ')}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`,
    );
    expect(samples).toHaveLength(20);
    expect(await b.locator('[data-testid="chat-message"]').count()).toBe(20);
  });
});
