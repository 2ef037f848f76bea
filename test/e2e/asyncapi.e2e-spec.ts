import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser, DiagnosticSeverity } from '@asyncapi/parser';
import Ajv from 'ajv';
import { MESSAGE_METADATA } from '@nestjs/websockets/constants';
import { SOCKET_GATEWAYS } from '../../server/src/realtime/realtime.module';
import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';
import { waitFor } from '../utils/wait';

interface AsyncApiDocument {
  operations: Record<string, { action: 'send' | 'receive'; reply?: object }>;
  channels: { socket: { messages: Record<string, { name: string }> } };
}

/** The document in the repository, for readers who do not run the app; UPDATE_API_DOCS=1 rewrites it. */
const COMMITTED = join(__dirname, '../../docs/asyncapi.json');

describe('AsyncAPI document of the socket contract', () => {
  let t: ListeningApp;
  let doc: AsyncApiDocument;
  let a: TestUser, b: TestUser;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const messageIds = new Map<string, string>();
  /** Fails with the schema's complaint when a real payload does not fit what the document says of that event. */
  const expectFits = (event: string, payload: unknown) => {
    const id = messageIds.get(event);
    expect({ event, documented: Boolean(id) }).toEqual({ event, documented: true });
    const validate = ajv.getSchema(`asyncapi#/channels/socket/messages/${id}/payload`)!;
    const ok = validate(payload);
    expect({ event, errors: ok ? null : validate.errors }).toEqual({ event, errors: null });
  };

  beforeAll(async () => {
    t = await listenTestApp({ PRESENCE_OFFLINE_GRACE_MS: '150' });
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
    doc = (await t.http().get('/api/docs/asyncapi.json').expect(200)).body;
    ajv.addSchema(doc, 'asyncapi');
    for (const [id, message] of Object.entries(doc.channels.socket.messages)) messageIds.set(message.name, id);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('is a valid AsyncAPI 3 document (the AsyncAPI parser finds no error)', async () => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    const errors = diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
  });

  it('is the committed docs/asyncapi.json', () => {
    if (process.env.UPDATE_API_DOCS === '1') writeFileSync(COMMITTED, `${JSON.stringify(doc, null, 2)}\n`);
    expect(JSON.parse(readFileSync(COMMITTED, 'utf8'))).toEqual(doc);
  });

  it('documents every event the gateway handles, each with an acknowledgement but typing and activity', () => {
    const handled = SOCKET_GATEWAYS.flatMap((gateway) =>
      Object.values(Object.getOwnPropertyDescriptors(gateway.prototype))
        .map((descriptor) => descriptor.value as unknown)
        .filter((method): method is object => typeof method === 'function')
        .map((method) => Reflect.getMetadata(MESSAGE_METADATA, method) as string | undefined),
    )
      .filter((event): event is string => typeof event === 'string')
      .sort();
    const received = Object.entries(doc.operations).filter(([, op]) => op.action === 'receive');
    const receivedNames = received.map(([id]) => doc.channels.socket.messages[id].name).sort();
    expect(receivedNames).toEqual(handled);
    expect(received.filter(([, op]) => !op.reply).map(([id]) => doc.channels.socket.messages[id].name)).toEqual(['typing', 'activity']);
  });

  it('describes what the server really sends: messages, acks, sync, edits, unread counts, presence and refusals', async () => {
    const group = await createGroup(t, [a, b]);
    const [sa, sb] = await Promise.all([connect(t.url, a.token), connect(t.url, undefined)]);
    const login = await call(sb, 'auth', { token: b.token });
    expectFits('auth', { token: b.token });
    expectFits('auth (acknowledgement)', login);
    const pushed = record(sb, 'message:new');
    const updates = record(sb, 'message:updated');
    const counts = record(sb, 'unread:count');
    const presence = next(sb, 'presence');
    const watch = await call(sb, 'presence:watch', { userCodes: [a.user.code] });
    expectFits('presence:watch (acknowledgement)', watch);

    const send = { groupCode: group, clientKey: 'doc-1', message: 'hello' };
    expectFits('message:send', send);
    const sent = await call(sa, 'message:send', send);
    expectFits('message:send (acknowledgement)', sent);
    const reply = await call(sa, 'message:send', { groupCode: group, clientKey: 'doc-2', message: 'again', replyToId: sent.message.code });
    expectFits('message:send (acknowledgement)', reply);
    const edited = await call(sa, 'message:edit', { groupCode: group, code: sent.message.code, message: 'hello, edited' });
    expectFits('message:edit (acknowledgement)', edited);
    await waitFor(() => pushed.length === 2 && updates.length === 1 && counts.length > 0);
    pushed.forEach((m) => expectFits('message:new', m));
    expectFits('message:updated', updates[0]);
    expectFits('unread:count', counts[0]);

    const syncRequest = { groups: [{ groupCode: group, afterSeq: 0, afterEditSeq: 0 }] };
    expectFits('sync', syncRequest);
    expectFits('sync (acknowledgement)', await call(sb, 'sync', syncRequest));
    expectFits('group:read (acknowledgement)', await call(sb, 'group:read', { groupCode: group, seq: 2 }));
    sa.close();
    expectFits('presence', await presence);

    const refused = await call(sb, 'message:send', { groupCode: group, clientKey: 'x', message: '' });
    expect(refused.error.data.brokenRules).toBeDefined();
    expectFits('message:send (acknowledgement)', refused);
    expectFits('room:watch (acknowledgement)', await call(sb, 'room:watch', { groupCode: group }));
  });
});
