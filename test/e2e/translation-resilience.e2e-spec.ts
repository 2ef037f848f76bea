import { TestingModule } from '@nestjs/testing';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { createGroup, createUser, TestUser } from '../factories';
import { bootWorker } from '../push-service/harness';
import { isolatedEnv, IsolatedEnv } from '../translation/harness';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next } from '../utils/sockets';
import { pause, waitFor } from '../utils/wait';

/**
 * A hosted engine that fails, answers garbage or is slow: the one place a stand-in speaking its documented format
 * (LibreTranslate's) takes the engine's place. Sends are never held up; failures are retried with back-off, then
 * given up; repeated texts come from the cache.
 */
describe('machine translation when the engine misbehaves (LibreTranslate stand-in)', () => {
  let setup: IsolatedEnv;
  let t: ListeningApp;
  let worker: TestingModule;
  let server: Server;
  let es: TestUser, en: TestUser;
  /** what the stand-in does with the next translate requests, by text */
  const behaviour = new Map<string, { fails: number; answer?: string; hangMs?: number }>();
  const calls = new Map<string, number>();
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const translationOf = async (group: string, code: string) =>
    (
      (await t.http().post(`/api/message/groups/${group}/messages`).set(as(en)).send({}).expect(200)).body.messages as {
        code: string;
        translation: string | null;
      }[]
    ).find((m) => m.code === code)?.translation ?? null;
  const rows = (code: string) =>
    t.app.get(DataSource).query(`SELECT t.lang FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id WHERE m.code = $1`, [code]);

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        if (req.url === '/languages') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ code: 'es', targets: ['en'] }]));
          return;
        }
        const { q } = JSON.parse(body) as { q: string[] };
        const key = q.join('|');
        calls.set(key, (calls.get(key) ?? 0) + 1);
        const b = behaviour.get(key) ?? { fails: 0 };
        const answer = () => {
          if (b.fails > 0) {
            b.fails -= 1;
            res.writeHead(503).end('busy');
          } else if (b.answer) res.writeHead(200, { 'content-type': 'text/html' }).end(b.answer);
          else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: q.map((s) => `EN(${s})`) }));
        };
        // An engine that hangs: answers only after hangMs.
        if (b.hangMs) void pause(b.hangMs).then(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    setup = await isolatedEnv('translation-faults', {
      TRANSLATION_ENGINES: 'libretranslate',
      LIBRETRANSLATE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      TRANSLATION_ATTEMPTS: '3',
      TRANSLATION_BACKOFF_MS: '100',
      TRANSLATION_TIMEOUT_MS: '500',
    });
    t = await listenTestApp(setup.env);
    worker = await bootWorker(setup.env);
    [es, en] = await Promise.all([createUser(t, { lang: 'spa' }), createUser(t, { lang: 'eng' })]);
  }, 60_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await setup?.drop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const send = async (group: string, message: string) =>
    (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message, lang: 'spa' }).expect(201)).body as { code: string; seq: number };

  it('retries an engine that fails or times out with back-off, and stores the translation once it answers', async () => {
    const group = await createGroup(t, [es, en]);
    behaviour.set('uno', { fails: 2 });
    behaviour.set('dos', { fails: 0, hangMs: 800 });
    const first = await send(group, 'uno');
    const second = await send(group, 'dos');
    await waitFor(async () => (await translationOf(group, first.code)) === 'EN(uno)', { timeoutMs: 15_000 });
    expect(calls.get('uno')).toBe(3);
    // 'dos' times out on every attempt (800 ms against 500): given up after TRANSLATION_ATTEMPTS, nothing stored.
    await waitFor(() => (calls.get('dos') ?? 0) >= 3, { timeoutMs: 15_000 });
    // Longer than a back-off, for a fourth attempt that should not come.
    await pause(1500);
    expect(calls.get('dos')).toBe(3);
    expect(await rows(second.code)).toEqual([]);
  }, 40_000);

  it('stores nothing for an answer that is HTML, and never holds a send up or reorders it', async () => {
    const group = await createGroup(t, [es, en]);
    behaviour.set('tres', { fails: 0, answer: '<html><body>502 Bad Gateway</body></html>' });
    behaviour.set('cuatro', { fails: 0, hangMs: 3000 });
    const sEs = await connect(t.url, es.token);
    const sEn = await connect(t.url, en.token);
    const started = Date.now();
    const acks: { message: { code: string; seq: number } }[] = [];
    for (const [i, message] of ['tres', 'cuatro', 'cinco'].entries())
      acks.push(await call(sEs, 'message:send', { groupCode: group, clientKey: `r${i}`, message, lang: 'spa' }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(acks.map((a) => a.message.seq)).toEqual([1, 2, 3]);
    await next(sEn, 'message:updated', (p) => p.code === acks[2].message.code && p.translation === 'EN(cinco)', 10_000);
    await waitFor(() => (calls.get('tres') ?? 0) >= 1, { timeoutMs: 5000 });
    expect(await rows(acks[0].message.code)).toEqual([]);
    expect(calls.get('tres')).toBe(1);
  }, 30_000);

  it('takes a text translated before from the cache', async () => {
    const group = await createGroup(t, [es, en]);
    const a = await send(group, 'seis');
    await waitFor(async () => (await translationOf(group, a.code)) === 'EN(seis)', { timeoutMs: 10_000 });
    const b = await send(group, 'seis');
    await waitFor(async () => (await translationOf(group, b.code)) === 'EN(seis)', { timeoutMs: 10_000 });
    expect(calls.get('seis')).toBe(1);
  }, 30_000);
});
