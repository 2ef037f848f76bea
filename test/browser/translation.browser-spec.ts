import type { TestingModule } from '@nestjs/testing';
import type { Page } from 'playwright-core';
import { DEFAULT_PASSWORD, type TestUser, createUser } from '../factories';
import { bootWorker } from '../push-service/harness';
import { isolatedEnv, type IsolatedEnv } from '../translation/harness';
import type { TestRun } from '../utils/test-env';
import { type BrowserHarness, screenshot, startHarness } from './harness';
import { BROWSER_RUN_VAR } from './paths';

jest.setTimeout(180_000);

/**
 * The "done when": a Spanish-writing provider and an English-reading customer negotiate in an offer chat,
 * each reading the other in their own language (Debian's Apertium, for real), the original one tap away, on a
 * desktop and at 390 px. Its own database: the worker's outbox relay takes every pending row of its database.
 */
let setup: IsolatedEnv;
let h: BrowserHarness;
let worker: TestingModule;

beforeAll(async () => {
  // The browser tier's own run (its global setup), also when the tier runs alone.
  setup = await isolatedEnv('browser_translation', { TRANSLATION_ENGINES: 'apertium' }, JSON.parse(process.env[BROWSER_RUN_VAR]!) as TestRun);
  h = await startHarness({ env: setup.env });
  worker = await bootWorker(setup.env);
});
afterAll(async () => {
  await worker?.close();
  await h?.close();
  await setup?.drop();
});

async function login(page: Page, user: TestUser, menuClosed = false) {
  const res = await page.request.post(`${h.baseUrl}/api/user/login`, { data: { email: user.user.email, password: DEFAULT_PASSWORD, rememberMe: false } });
  expect(res.status()).toBe(200);
  const { token } = (await res.json()) as { token: string };
  await page.goto(`${h.baseUrl}/auth`);
  await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
  if (menuClosed) await page.evaluate(`localStorage.setItem('menu.over.opened', 'false')`);
}

const bubbleOf = (page: Page, text: string) =>
  page.getByTestId('chat-message').filter({ has: page.getByTestId('chat-message-text').getByText(text, { exact: true }) });

it('lets a Spanish provider and an English customer read each other in their own language, the original one tap away', async () => {
  const ada = await createUser(h.app, { name: 'Ada', surname: 'Customer', lang: 'eng' });
  const pablo = await createUser(h.app, { name: 'Pablo', surname: 'Pintor', lang: 'spa' });
  const api = (who: TestUser) => ({ Authorization: `Bearer ${who.token}` });
  const deadline = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const job = await h.app
    .http()
    .post('/api/job')
    .set(api(ada))
    .send({ deadline, versions: [{ lang: 'eng', title: 'Paint the garden fence', description: 'Two coats of paint on a 20 m wooden fence.' }] });
  expect(job.status).toBe(201);
  const offer = await h.app.http().post(`/api/jobs/${job.body.code}/offers`).set(api(pablo)).send({ message: 'Hola, puedo pintar la valla el martes.' });
  expect(offer.status).toBe(201);
  const group = offer.body.groupCode as string;

  // Ada, on a desktop, reads Pablo's Spanish in English, and his original on request.
  const a = (await h.open()).page;
  await login(a, ada);
  await a.goto(`${h.baseUrl}/messages/${group}`);
  const fromPablo = a
    .getByTestId('chat-message')
    .filter({ has: a.getByTestId('chat-message-translated') })
    .first();
  await fromPablo.waitFor({ timeout: 30_000 });
  const english = (await fromPablo.getByTestId('chat-message-text').textContent())!;
  expect(english).toMatch(/Tuesday/);
  // The offer's first message has no language of its own (its author's is used to translate it): named generically.
  expect(await fromPablo.getByTestId('chat-message-translated').textContent()).toMatch(/^(Translated from Spanish|Machine translation) ·\s?Show original$/);
  await screenshot(a, 'translation-offer-chat-desktop');
  await fromPablo.getByTestId('chat-message-translated-toggle').click();
  expect(await fromPablo.getByTestId('chat-message-text').textContent()).toBe('Hola, puedo pintar la valla el martes.');
  await fromPablo.getByTestId('chat-message-translated-toggle').click();
  expect(await fromPablo.getByTestId('chat-message-text').textContent()).toBe(english);

  // Ada answers in English; Pablo, on a phone, reads it in Spanish as it arrives.
  const p = (await h.open({ width: 390, height: 800 })).page;
  await login(p, pablo, true);
  await p.goto(`${h.baseUrl}/messages/${group}`);
  await p.getByTestId('chat-conversation').waitFor();
  await a.getByTestId('chat-composer-input').fill('Great, see you on Tuesday morning.');
  await a.getByTestId('chat-send').click();
  const fromAda = p
    .getByTestId('chat-message')
    .filter({ has: p.getByTestId('chat-message-translated') })
    .last();
  await fromAda
    .getByTestId('chat-message-text')
    .getByText(/martes/)
    .waitFor({ timeout: 30_000 });
  expect(await fromAda.getByTestId('chat-message-translated').textContent()).toMatch(/^Translated from English ·\s?Show original$/);
  await screenshot(p, 'translation-offer-chat-390');
  await fromAda.getByTestId('chat-message-translated-toggle').click();
  await bubbleOf(p, 'Great, see you on Tuesday morning.').waitFor();
  await screenshot(p, 'translation-offer-chat-390-original');

  // Pablo's interface is English, so is his composer's language; he writes Spanish and is offered Spanish.
  await p.getByTestId('chat-composer-input').fill('Perfecto, nos vemos el martes por la mañana.');
  const suggestion = p.getByTestId('chat-language-suggestion');
  await suggestion.waitFor({ timeout: 15_000 });
  expect(await suggestion.getAttribute('data-language')).toBe('spa');
  await screenshot(p, 'translation-composer-suggestion-390');
  await p.getByTestId('chat-language-suggestion-accept').click();
  expect(await p.getByTestId('chat-language').inputValue()).toBe('spa');
  await p.getByTestId('chat-send').click();
  // Pablo's second message: the second translated one Ada sees.
  const reply = a
    .getByTestId('chat-message')
    .filter({ has: a.getByTestId('chat-message-translated') })
    .nth(1);
  await reply.waitFor({ timeout: 30_000 });
  expect(await reply.getByTestId('chat-message-text').textContent()).toMatch(/Tuesday/);
  expect(await reply.getByTestId('chat-message-translated').textContent()).toMatch(/^Translated from Spanish ·\s?Show original$/);
});
