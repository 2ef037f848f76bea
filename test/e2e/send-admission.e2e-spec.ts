import { DataSource } from 'typeorm';
import { LoadSignals } from '../../server/src/modules/chat/send/node-load-signals';
import { SendAdmission } from '../../server/src/modules/chat/send/send-admission';
import { LoadReading } from '../../server/src/modules/chat/send/send-admission.policy';
import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { waitFor } from '../utils/wait';

/** This node's load as the test says it is: SendAdmission reads it in place of the real signals. */
class ForcedLoad extends LoadSignals {
  reading: LoadReading = { fanoutLagMs: 0, insertWaitMs: 0, loopDelayMs: 0 };
  read(): LoadReading {
    return this.reading;
  }
  insertWaitMs(): number {
    return 0;
  }
}

/**
 * An overloaded node refuses sends over the socket and REST with the retryable 503 before storing anything,
 * and admits them again once its signals clear; the same client key then stores each message once.
 */
describe('send admission under load', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser;
  let group: string;
  const load = new ForcedLoad();
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const storedTexts = async (): Promise<string[]> =>
    (
      await t.app.get(DataSource).query(`SELECT m.text FROM chat_message m JOIN chat_group g ON g.id = m.group_id WHERE g.code = $1 ORDER BY m.seq`, [group])
    ).map((r: { text: string }) => r.text);

  beforeAll(async () => {
    t = await listenTestApp({ OVERLOAD_FANOUT_LAG_MS: '250', OVERLOAD_RETRY_AFTER_MS: '1500' }, [{ provide: LoadSignals, useValue: load }]);
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
    group = await createGroup(t, [a, b]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('refuses message:send and POST /api/message/groups/:id with 503 overloaded while overloaded, stores nothing, and takes the same sends once it clears', async () => {
    const admission = t.app.get(SendAdmission);
    const [sa, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token)]);
    const received = record(sb, 'message:new');

    load.reading = { fanoutLagMs: 5000, insertWaitMs: 0, loopDelayMs: 0 };
    await waitFor(() => admission.refusing);

    const refused = await call(sa, 'message:send', { groupCode: group, clientKey: '-socket-1', message: 'by socket' });
    expect(refused).toEqual({ ok: false, error: { code: 503, message: 'SHARED.ERROR.OVERLOADED', data: { retryAfterMs: 1500 } } });
    const rest = await t.http().post(`/api/message/groups/${group}`).set(as(b)).send({ message: 'by rest', clientKey: '-rest-1' }).expect(503);
    expect(rest.body).toEqual({ code: 503, message: 'SHARED.ERROR.OVERLOADED', data: { retryAfterMs: 1500 } });
    expect(rest.headers['retry-after']).toBe('2');
    // Other events are not refused: reading still works.
    expect(await call(sa, 'sync', { groups: [{ groupCode: group, afterSeq: 0 }] })).toMatchObject({ ok: true, messages: [] });
    expect(await storedTexts()).toEqual([]);

    // Back under the clear fraction of every limit: admitted again.
    load.reading = { fanoutLagMs: 50, insertWaitMs: 0, loopDelayMs: 0 };
    await waitFor(() => !admission.refusing);

    const delivered = next(sb, 'message:new', (m: { clientKey: string }) => m.clientKey === '-socket-1');
    const accepted = await call(sa, 'message:send', { groupCode: group, clientKey: '-socket-1', message: 'by socket' });
    expect(accepted).toMatchObject({ ok: true, message: { seq: 1, message: 'by socket' } });
    expect(await delivered).toMatchObject({ seq: 1, message: 'by socket' });
    const again = await t.http().post(`/api/message/groups/${group}`).set(as(b)).send({ message: 'by rest', clientKey: '-rest-1' }).expect(201);
    expect(again.body).toMatchObject({ seq: 2, message: 'by rest' });
    expect(await storedTexts()).toEqual(['by socket', 'by rest']);
    expect(received.filter((m) => m.clientKey === '-socket-1')).toHaveLength(1);
  });
});
