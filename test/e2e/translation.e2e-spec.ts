import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { ChatMessageType } from '#shared/contracts/chat';
import { ChatMessagesService } from '../../server/src/modules/chat/chat-messages.service';
import { ChatGroupsRepository } from '../../server/src/modules/chat/chat-groups.repository';
import { TRANSLATION_PAIRS_KEY } from '#shared/contracts/translation';
import { RedisService } from '#shared/redis/redis.service';
import { TranslateMessageJob } from '../../workers/src/translation/translate-message.job';
import { createGroup, createUser, TestUser } from '../factories';
import { bootWorker } from '../push-service/harness';
import { isolatedEnv, IsolatedEnv } from '../translation/harness';
import { postJob, version } from './marketplace.helpers';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { waitFor } from '../utils/wait';

/**
 * The whole path for real: a message sent in Spanish over a socket is translated by Debian's Apertium (the
 * worker starts apertium-apy itself on a free port) and reaches an English reader over REST, sync and live.
 */
describe('machine translation of chat messages (Apertium)', () => {
  let setup: IsolatedEnv;
  let t: ListeningApp;
  let worker: TestingModule;
  let es: TestUser, en: TestUser, en2: TestUser, es2: TestUser, pl: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const page = async (u: TestUser, group: string, body: object = {}) =>
    (await t.http().post(`/api/message/groups/${group}/messages`).set(as(u)).send(body).expect(200)).body as {
      messages: { code: string; message: string; language: string | null; translation: string | null; editedAt: string | null }[];
    };
  const translationOf = async (u: TestUser, group: string, code: string, body: object = {}) =>
    (await page(u, group, body)).messages.find((m) => m.code === code)?.translation ?? null;
  const rows = (code: string) =>
    t.app
      .get(DataSource)
      .query(`SELECT t.lang, t.engine, t.text FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id WHERE m.code = $1 ORDER BY t.lang`, [
        code,
      ]);

  beforeAll(async () => {
    setup = await isolatedEnv('translation', { TRANSLATION_ENGINES: 'apertium', TRANSLATION_MAX_CHARS: '300', TRANSLATION_BACKOFF_MS: '100' });
    t = await listenTestApp(setup.env);
    worker = await bootWorker(setup.env);
    [es, en, en2, es2, pl] = await Promise.all([
      createUser(t, { lang: 'spa' }),
      createUser(t, { lang: 'eng' }),
      createUser(t, { lang: 'eng' }),
      createUser(t, { lang: 'spa' }),
      createUser(t, { lang: 'pol' }),
    ]);
  }, 60_000);
  afterEach(() => closeAllSockets());
  afterAll(async () => {
    await worker?.close();
    await t?.close();
    await setup?.drop();
  });

  it('translates a Spanish message for the English readers: live to exactly them, then over REST and sync', async () => {
    const group = await createGroup(t, [es, en, en2, es2]);
    const [sEs, sEn, sEn2, sEs2] = await Promise.all([es, en, en2, es2].map((u) => connect(t.url, u.token)));
    const toEs = record(sEs, 'message:updated');
    const toEs2 = record(sEs2, 'message:updated');

    const ack = await call(sEs, 'message:send', { groupCode: group, clientKey: 'k1', message: 'Hola mundo', lang: 'spa' });
    expect(ack).toMatchObject({ ok: true, message: { language: 'spa', translation: null } });
    const code = ack.message.code as string;
    const live = (await Promise.all([sEn, sEn2].map((s) => next(s, 'message:updated', (p) => p.code === code, 20_000)))) as object[];
    for (const p of live) expect(p).toEqual({ groupCode: group, code, translation: 'Hello World', sourceEditedAt: null });

    expect(await translationOf(en, group, code)).toBe('Hello World');
    // The Spanish readers and the author get the original only, live and over REST.
    expect(await translationOf(es2, group, code)).toBeNull();
    expect(await translationOf(es, group, code)).toBeNull();
    // A reader may ask for another language than the stored one.
    expect(await translationOf(es2, group, code, { lang: 'eng' })).toBe('Hello World');
    expect(toEs).toEqual([]);
    expect(toEs2).toEqual([]);

    const synced = await call(sEn, 'sync', { groups: [{ groupCode: group, afterSeq: 0 }] });
    expect(synced.messages).toEqual([expect.objectContaining({ code, message: 'Hola mundo', language: 'spa', translation: 'Hello World' })]);
    expect(await rows(code)).toEqual([{ lang: 'eng', engine: 'apertium', text: 'Hello World' }]);
  }, 40_000);

  it('brings a reconnecting reader, by sync, the translations stored after its page of messages it already holds', async () => {
    const group = await createGroup(t, [es, en, es2]);
    const sent = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: 'Hola mundo', lang: 'spa' }).expect(201)).body;
    await waitFor(async () => (await rows(sent.code)).length > 0, { timeoutMs: 20_000 });
    // As if the reader had loaded the page before the translation was stored: drop it, read, then store it again.
    await t.app.get(DataSource).query(`DELETE FROM chat_message_translation t USING chat_message m WHERE m.id = t.message_id AND m.code = $1`, [sent.code]);
    const held = (await t.http().post(`/api/message/groups/${group}/messages`).set(as(en)).send({}).expect(200)).body;
    expect(held.messages.find((m: { code: string }) => m.code === sent.code).translation).toBeNull();
    const groupId = String((await t.app.get(ChatGroupsRepository).findByCode(group))!.id);
    const [{ id: messageId }] = await t.app.get(DataSource).query(`SELECT id FROM chat_message WHERE code = $1`, [sent.code]);
    expect(await worker.get(TranslateMessageJob).run({ outboxId: 'x', groupId, messageId: String(messageId) })).toEqual({ stored: ['eng'] });

    const sEn = await connect(t.url, en.token);
    const ask = (afterTranslationSeq?: number) => call(sEn, 'sync', { groups: [{ groupCode: group, afterSeq: sent.seq, afterTranslationSeq }] });
    const caughtUp = await ask(held.translationSeq);
    expect(caughtUp).toMatchObject({
      messages: [],
      more: [],
      translated: [{ groupCode: group, code: sent.code, translation: 'Hello World', sourceEditedAt: null }],
    });
    expect(caughtUp.translationSeqs[group]).toBeGreaterThan(held.translationSeq);
    // From the seq it answered: nothing again. Without a translation seq: the answer is as before.
    expect(await ask(caughtUp.translationSeqs[group])).toMatchObject({ translated: [], translationSeqs: { [group]: caughtUp.translationSeqs[group] } });
    expect(await ask()).toMatchObject({ translated: [], translationSeqs: {} });
    // A Spanish reader has no translation to catch up on.
    const sEs2 = await connect(t.url, es2.token);
    expect(await call(sEs2, 'sync', { groups: [{ groupCode: group, afterSeq: sent.seq, afterTranslationSeq: 0 }] })).toMatchObject({ translated: [] });
    // A page read now starts the cursor after it.
    const reloaded = (await t.http().post(`/api/message/groups/${group}/messages`).set(as(en)).send({}).expect(200)).body;
    expect(reloaded.translationSeq).toBeGreaterThanOrEqual(caughtUp.translationSeqs[group]);
  }, 40_000);

  it('tells clients which pairs are served, and that translation is off with no engine configured or no worker heard from', async () => {
    const status = (await t.http().get('/api/translation').set(as(pl)).expect(200)).body;
    expect(status.enabled).toBe(true);
    expect(status.pairs).toEqual(
      expect.arrayContaining([
        { from: 'spa', to: 'eng' },
        { from: 'eng', to: 'spa' },
      ]),
    );
    expect(status.pairs).not.toContainEqual(expect.objectContaining({ to: 'pol' }));
    await t.http().get('/api/translation').expect(401);

    const off = await listenTestApp({ ...setup.env, TRANSLATION_ENGINES: 'none' });
    try {
      expect((await off.http().get('/api/translation').set(as(pl)).expect(200)).body).toEqual({ enabled: false, pairs: [] });
    } finally {
      await off.close();
    }
    const redis = t.app.get(RedisService);
    const key = redis.key(...TRANSLATION_PAIRS_KEY);
    const kept = (await redis.client.get(key))!;
    await redis.client.del(key);
    try {
      expect((await t.http().get('/api/translation').set(as(pl)).expect(200)).body).toEqual({ enabled: false, pairs: [] });
    } finally {
      await redis.client.set(key, kept);
    }
  });

  it("machine-translates a job for a reader it has no version for, without saving it as one of the customer's versions", async () => {
    const job = await postJob(t, es, {
      versions: [version('spa', { title: 'Pintar la cocina', description: 'Necesitamos pintar la cocina antes del viernes. Gracias.', isDefault: true })],
    });
    const translate = (u: TestUser, lang: string) => t.http().post(`/api/job/${job}/machine-translation`).query({ lang }).set(as(u));
    const res = await translate(en, 'eng').expect(200);
    expect(res.body).toEqual({
      lang: 'eng',
      from: 'spa',
      title: expect.any(String),
      description: expect.any(String),
      engine: 'apertium',
      machine: true,
    });
    expect(res.body.title).not.toBe('Pintar la cocina');
    expect(res.body.description).toMatch(/^We need to paint/);
    // Never one of the customer's versions.
    const stored = (await t.http().get(`/api/job/${job}`).query({ lang: 'eng' }).set(as(en)).expect(200)).body;
    expect(stored.versions.map((v: { lang: string }) => v.lang)).toEqual(['spa']);

    // No engine for Spanish → Polish; a version in the language exists; an unknown language; an unknown job.
    expect((await translate(pl, 'pol').expect(422)).body).toMatchObject({ code: 422, message: 'SHARED.TRANSLATION.UNSUPPORTED_PAIR' });
    expect((await translate(es2, 'spa').expect(409)).body).toEqual({ code: 409, message: 'JOB.VERSION_EXISTS' });
    expect((await translate(en, 'xx').expect(422)).body).toMatchObject({ code: 422, message: 'SHARED.ERROR.VALIDATION' });
    await t.http().post(`/api/job/AAAAAAAAAAAAAAAA/machine-translation`).query({ lang: 'eng' }).set(as(en)).expect(404);

    // With translation off: 503 in the same envelope, and no job is queued.
    const off = await listenTestApp({ ...setup.env, TRANSLATION_ENGINES: 'none' });
    try {
      const answer = await off.http().post(`/api/job/${job}/machine-translation`).query({ lang: 'eng' }).set(as(en)).expect(503);
      expect(answer.body).toEqual({ code: 503, message: 'SHARED.TRANSLATION.OFF' });
    } finally {
      await off.close();
    }
  }, 40_000);

  it('keeps links, e-mail addresses, amounts, code and emoji as written', async () => {
    const group = await createGroup(t, [es, en]);
    const text = 'Hola, mira https://ejemplo.com/casa?id=7 o escribe a ana.perez@ejemplo.com, cuesta 1.200,50 € y `casa grande` 🙂👍🏽';
    const sent = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: text, lang: 'spa' }).expect(201)).body;
    await waitFor(async () => (await translationOf(en, group, sent.code)) !== null, { timeoutMs: 20_000 });
    const translated = (await translationOf(en, group, sent.code))!;
    for (const kept of ['https://ejemplo.com/casa?id=7', 'ana.perez@ejemplo.com', '1.200,50 €', '`casa grande`', '🙂👍🏽']) expect(translated).toContain(kept);
    expect(translated).toMatch(/^Hello, /);
    expect(translated).not.toContain('Hola');
  }, 30_000);

  it('translates an edit again (the old translation goes at once) and drops the translations of a deleted message', async () => {
    const group = await createGroup(t, [es, en]);
    const sEn = await connect(t.url, en.token);
    const sent = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: 'Buenos días', lang: 'spa' }).expect(201)).body;
    await waitFor(async () => (await translationOf(en, group, sent.code)) !== null, { timeoutMs: 20_000 });

    const edited = next(sEn, 'message:updated', (p) => p.message === 'Buenas noches');
    const translated = next(sEn, 'message:updated', (p) => p.sourceEditedAt !== undefined && p.sourceEditedAt !== null, 20_000);
    const res = await t.http().patch(`/api/message/groups/${group}/messages/${sent.code}`).set(as(es)).send({ message: 'Buenas noches' }).expect(200);
    expect((await edited).translation).toBeNull();
    expect(await translated).toEqual({ groupCode: group, code: sent.code, translation: 'Good nights', sourceEditedAt: res.body.editedAt });
    expect(await translationOf(en, group, sent.code)).toBe('Good nights');

    await t
      .http()
      .delete(`/api/message/groups/${group}/messages/${sent.code}`)
      .set(as(es))
      .expect((r) => expect(r.status).toBeLessThan(300));
    expect(await rows(sent.code)).toEqual([]);
    expect(await translationOf(en, group, sent.code)).toBeNull();
  }, 40_000);

  it('translates nothing it should not: a pair no engine serves, an overlong text, a system message, one deleted meanwhile', async () => {
    const group = await createGroup(t, [es, pl, en]);
    const job = worker.get(TranslateMessageJob);
    const groupId = String((await t.app.get(ChatGroupsRepository).findByCode(group))!.id);
    const idOf = async (code: string) => String((await t.app.get(DataSource).query(`SELECT id FROM chat_message WHERE code = $1`, [code]))[0].id);

    // Polish reader: Apertium has no Spanish–Polish pair here, so only English is stored.
    const sent = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: 'Gracias', lang: 'spa' }).expect(201)).body;
    await waitFor(async () => (await rows(sent.code)).length > 0, { timeoutMs: 20_000 });
    expect((await rows(sent.code)).map((r: { lang: string }) => r.lang)).toEqual(['eng']);
    expect(await translationOf(pl, group, sent.code)).toBeNull();

    const long = (
      await t
        .http()
        .post(`/api/message/groups/${group}`)
        .set(as(es))
        .send({ message: 'hola '.repeat(80), lang: 'spa' })
        .expect(201)
    ).body;
    expect(await job.run({ outboxId: 'x', groupId, messageId: await idOf(long.code) })).toEqual({ stored: [], skipped: 'too-long' });

    const note = await t.app
      .get(ChatMessagesService)
      .postSystemMessage((await t.app.get(ChatGroupsRepository).findByCode(group))!, ChatMessageType.FinalJobOfferRequest, 'Hola');
    expect(await job.run({ outboxId: 'x', groupId, messageId: await idOf(note.code) })).toEqual({ stored: [], skipped: 'system-message' });

    const gone = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: 'Adiós', lang: 'spa' }).expect(201)).body;
    await t
      .http()
      .delete(`/api/message/groups/${group}/messages/${gone.code}`)
      .set(as(es))
      .expect((r) => expect(r.status).toBeLessThan(300));
    expect(await job.run({ outboxId: 'x', groupId, messageId: await idOf(gone.code) })).toEqual({ stored: [], skipped: 'deleted' });
    expect(await rows(gone.code)).toEqual([]);
    expect(await rows(long.code)).toEqual([]);
  }, 40_000);
});
