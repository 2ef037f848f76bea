import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { JobName } from '#shared/contracts/queues';
import { JobService } from '#shared/queue/job.service';
import { outboxJobId } from '../../workers/src/outbox/outbox-relay.service';
import { createGroup, createUser, TestUser } from '../factories';
import { bootWorker, pushTestEnv, PushTestEnv } from '../push-service/harness';
import { LocalPushService, TestSubscription } from '../push-service/push-service';
import { closeAllSockets, ListeningApp, listenTestApp } from '../utils/sockets';
import { waitFor } from '../utils/wait';

/**
 * A chat push reads in the recipient's language: the machine translation of the body (Debian's Apertium, for
 * real) when it is stored by the time the push is decided, the text as written otherwise.
 */
describe('web push of a translated chat message', () => {
  let push: LocalPushService;
  let setup: PushTestEnv;
  let t: ListeningApp;
  let worker: TestingModule;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    push = await LocalPushService.start();
    // The notify job waits until the test promotes it, so it is decided after the translation is stored.
    setup = await pushTestEnv('push-translation', push, { TRANSLATION_ENGINES: 'apertium', PUSH_DELAY_MS: '3600000' });
    t = await listenTestApp(setup.env);
    worker = await bootWorker(setup.env);
  }, 60_000);
  afterAll(async () => {
    closeAllSockets();
    await worker?.close();
    await t?.close();
    await push?.stop();
    await setup?.drop();
  });

  async function subscribe(u: TestUser): Promise<TestSubscription> {
    const sub = push.subscribe(setup.vapidPublicKey);
    await t.http().post('/api/User/WebPush/Register').set(as(u)).send({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }).expect(204);
    return sub;
  }

  const db = () => t.app.get(DataSource);
  const translatedInto = async (code: string): Promise<string[]> =>
    (
      await db().query(`SELECT t.lang FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id WHERE m.code = $1 ORDER BY t.lang`, [code])
    ).map((r: { lang: string }) => r.lang);

  /** Runs the message's delayed notify job now. */
  async function decideNow(code: string): Promise<void> {
    const [{ id }]: { id: string }[] = await db().query(
      `SELECT o.id FROM outbox o JOIN chat_message m ON m.id = (o.payload->>'messageId')::bigint WHERE m.code = $1 AND o.topic = 'message.created'`,
      [code],
    );
    const queue = worker.get(JobService).queue(JobName.NotifyMessage);
    const job = await waitFor(() => queue.getJob(outboxJobId(id)), { until: (j) => j !== undefined, timeoutMs: 30_000, message: 'the notify job' });
    await job!.promote();
  }

  it('pushes the English reader the translation, the Spanish and Polish readers (no pair) the original, each in their language', async () => {
    const [es, en, es2, pl] = await Promise.all([
      createUser(t, { lang: 'spa' }),
      createUser(t, { lang: 'eng' }),
      createUser(t, { lang: 'spa' }),
      createUser(t, { lang: 'pol' }),
    ]);
    const [subEn, subEs2, subPl] = [await subscribe(en), await subscribe(es2), await subscribe(pl)];
    const group = await createGroup(t, [es, en, es2, pl]);
    await t.http().patch(`/api/message/groups/${group}`).set(as(es)).send({ name: 'Obra' }).expect(200);
    const sent = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: 'Hola mundo', lang: 'spa' }).expect(201)).body;
    await waitFor(() => translatedInto(sent.code), { until: (langs) => langs.length > 0, timeoutMs: 30_000, message: 'the translation' });
    expect(await translatedInto(sent.code)).toEqual(['eng']);

    await decideNow(sent.code);
    await waitFor(() => [subEn, subEs2, subPl].every((s) => push.arrivalsFor(s.id).length === 1), { timeoutMs: 20_000, message: 'the three pushes' });
    const sender = `${es.user.name} ${es.user.surname}`;
    const payload = (s: TestSubscription) => push.arrivalsFor(s.id)[0].payload;
    expect(payload(subEn)).toEqual({ title: `${sender} in Obra`, body: 'Hello World', url: `/messages/${group}`, tag: group });
    expect(payload(subEs2)).toMatchObject({ title: `${sender} in Obra`, body: 'Hola mundo' });
    expect(payload(subPl)).toMatchObject({ title: `${sender} w Obra`, body: 'Hola mundo' });
  }, 60_000);

  it('pushes the translation of the edited text once the edit is translated', async () => {
    const [es, en] = await Promise.all([createUser(t, { lang: 'spa' }), createUser(t, { lang: 'eng' })]);
    const subEn = await subscribe(en);
    const group = await createGroup(t, [es, en]);
    const sent = (await t.http().post(`/api/message/groups/${group}`).set(as(es)).send({ message: 'Buenos días', lang: 'spa' }).expect(201)).body;
    const translationText = () =>
      db()
        .query(`SELECT t.text FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id WHERE m.code = $1`, [sent.code])
        .then((r: { text: string }[]) => r[0]?.text);
    const before = await waitFor(translationText, { until: (text) => text !== undefined, timeoutMs: 30_000, message: 'the translation' });
    await t.http().patch(`/api/message/groups/${group}/messages/${sent.code}`).set(as(es)).send({ message: 'Buenas tardes' }).expect(200);
    const edited = await waitFor(translationText, { until: (text) => text !== undefined, timeoutMs: 30_000, message: 'the translation of the edit' });
    expect(edited).not.toBe(before);

    await decideNow(sent.code);
    await waitFor(() => push.arrivalsFor(subEn.id).length === 1, { timeoutMs: 20_000, message: 'the push' });
    expect(push.arrivalsFor(subEn.id)[0].payload).toMatchObject({ body: edited });
  }, 60_000);
});
