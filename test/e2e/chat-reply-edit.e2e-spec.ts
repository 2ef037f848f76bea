import { Role } from '#shared/contracts/roles';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { ChatMessagesService } from '../../server/src/modules/chat/chat-messages.service';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next, record } from '../utils/sockets';

describe('chat replies and edits', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const send = (u: TestUser, group: string, body: object) => t.http().post(`/api/message/groups/${group}`).set(as(u)).send(body);
  const edit = (u: TestUser, group: string, code: string, body: object) =>
    t.http().patch(`/api/message/groups/${group}/messages/${code}`).set(as(u)).send(body);
  const page = async (u: TestUser, group: string, body: object = {}) =>
    (await t.http().post(`/api/message/groups/${group}/messages`).set(as(u)).send(body).expect(200)).body;

  beforeAll(async () => {
    t = await listenTestApp();
    [a, b] = await Promise.all([createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('stores a reply with a preview of the original, over REST and the socket, and shows a deleted original as deleted', async () => {
    const group = await createGroup(t, [a, b]);
    const original = (await send(a, group, { message: 'x'.repeat(300) }).expect(201)).body;
    const reply = (await send(b, group, { message: 'answer', replyToId: original.code, clientKey: 'r1' }).expect(201)).body;
    expect(reply.replyTo).toEqual({ code: original.code, seq: 1, type: 1, userCode: a.user.code, message: 'x'.repeat(200), files: 0, deleted: false });
    // A retry of the same reply answers the stored one, with its preview.
    expect((await send(b, group, { message: 'answer', replyToId: original.code, clientKey: 'r1' }).expect(201)).body).toMatchObject({
      code: reply.code,
      replyTo: { code: original.code },
    });

    const sb = await connect(t.url, b.token);
    const live = next(sb, 'message:new', (m) => m.clientKey === 's1');
    const sa = await connect(t.url, a.token);
    const ack = await call(sa, 'message:send', { groupCode: group, clientKey: 's1', message: 'via socket', replyToId: reply.code });
    expect(ack.message.replyTo).toMatchObject({ code: reply.code, message: 'answer', userCode: b.user.code });
    expect((await live).replyTo).toMatchObject({ code: reply.code });

    await t.http().delete(`/api/message/groups/${group}/messages/${original.code}`).set(as(a)).expect(204);
    const messages = (await page(b, group)).messages;
    expect(messages.find((m: { code: string }) => m.code === reply.code).replyTo).toMatchObject({ code: original.code, deleted: true, message: '' });
    expect(messages.find((m: { code: string }) => m.code === original.code)).toMatchObject({ replyTo: null, editedAt: null });
  });

  it('refuses a reply to a message of another group or an unknown one, storing nothing', async () => {
    const [group, other] = await Promise.all([createGroup(t, [a, b]), createGroup(t, [a, b])]);
    const elsewhere = (await send(a, other, { message: 'elsewhere' }).expect(201)).body;
    for (const replyToId of [elsewhere.code, 'unknownCode123']) {
      const res = await send(a, group, { message: 'hi', replyToId }).expect(422);
      expect(res.body).toEqual({ code: 422, message: 'SHARED.ERROR.VALIDATION', data: { brokenRules: ['VALIDATION.REPLY_TO.NOT_FOUND'] } });
    }
    expect((await send(a, group, { message: 'hi', replyToId: 'bad code!' })).status).toBe(422);
    expect((await page(a, group)).messages).toEqual([]);
  });

  it('lets only the author edit a live text message, validated like a send', async () => {
    const group = await createGroup(t, [a, b]);
    const outsider = await createUser(t);
    const sent = (await send(a, group, { message: 'first', lang: 'eng' }).expect(201)).body;

    const res = await edit(a, group, sent.code, { message: '  second  ' }).expect(200);
    expect(res.body).toMatchObject({ code: sent.code, seq: sent.seq, message: 'second', translation: null, deleted: false });
    expect(Date.parse(res.body.editedAt)).toBeGreaterThanOrEqual(Date.parse(sent.createdAt));

    expect((await edit(b, group, sent.code, { message: 'hijack' }).expect(403)).body).toEqual({ code: 403, message: 'SHARED.ERROR.FORBIDDEN' });
    await edit(outsider, group, sent.code, { message: 'hijack' }).expect(404);
    await edit(a, group, 'unknownCode123', { message: 'x' }).expect(404);
    const bad: object[] = [{ message: '   ' }, {}, { message: 'x'.repeat(10_001) }, { message: ['x'] }, { message: 'x', bogus: true }];
    for (const body of bad) {
      const r = await edit(a, group, sent.code, body);
      expect([r.status, r.body.code]).toEqual([422, 422]);
    }
    expect((await edit(a, group, sent.code, { message: ' ' })).body.data.brokenRules).toEqual(['VALIDATION.MESSAGE.EMPTY']);
    await edit(a, group, sent.code, { message: 'x'.repeat(10_000) }).expect(200);

    await t.http().delete(`/api/message/groups/${group}/messages/${sent.code}`).set(as(a)).expect(204);
    expect((await edit(a, group, sent.code, { message: 'back' }).expect(409)).body).toEqual({ code: 409, message: 'CHAT.MESSAGE.DELETED' });
    expect((await page(a, group)).messages[0]).toMatchObject({ deleted: true, message: '' });
  });

  it('pushes an edit as message:updated to the participants and watching moderators, and over the socket', async () => {
    const instanceId = (await createInstance(t)).id;
    const [x, y] = await Promise.all([createUser(t, { instanceId }), createUser(t, { instanceId })]);
    const admin = await createUser(t, { role: Role.InstanceAdmin, instanceId });
    const group = await createGroup(t, [x, y]);
    const [sx, sy, sAdmin] = await Promise.all([connect(t.url, x.token), connect(t.url, y.token), connect(t.url, admin.token)]);
    expect(await call(sAdmin, 'room:watch', { groupCode: group })).toEqual({ ok: true });
    const sent = await call(sx, 'message:send', { groupCode: group, clientKey: 'e1', message: 'typo' });

    const toY = next(sy, 'message:updated', (p) => p.code === sent.message.code);
    const toAdmin = next(sAdmin, 'message:updated', (p) => p.code === sent.message.code);
    const ack = await call(sx, 'message:edit', { groupCode: group, code: sent.message.code, message: 'fixed' });
    expect(ack).toMatchObject({ ok: true, message: { code: sent.message.code, message: 'fixed', editedAt: expect.any(String) } });
    const expected = { groupCode: group, code: sent.message.code, message: 'fixed', translation: null, editedAt: ack.message.editedAt };
    expect(await toY).toEqual(expected);
    expect(await toAdmin).toEqual(expected);

    expect(await call(sy, 'message:edit', { groupCode: group, code: sent.message.code, message: 'mine now' })).toEqual({
      ok: false,
      error: { code: 403, message: 'SHARED.ERROR.FORBIDDEN' },
    });
    expect((await call(sx, 'message:edit', { groupCode: group, code: sent.message.code, message: '' })).error.code).toBe(422);
    expect((await call(sx, 'message:edit', { groupCode: group, code: 'x' })).error.code).toBe(422);

    // The same text again changes and pushes nothing.
    const pushed = record(sy, 'message:updated');
    await call(sx, 'message:edit', { groupCode: group, code: sent.message.code, message: 'fixed' });
    await call(sx, 'message:send', { groupCode: group, clientKey: 'e2', message: 'after' });
    await next(sy, 'message:new', (m) => m.clientKey === 'e2');
    expect(pushed).toEqual([]);
  });

  it('brings edits made while away with sync after the edit seq of the page, once, and keeps them across reloads', async () => {
    const group = await createGroup(t, [a, b]);
    const old = (await send(a, group, { message: 'old text' }).expect(201)).body;
    await send(a, group, { message: 'second' }).expect(201);
    const loaded = await page(b, group);
    expect(loaded.editSeq).toEqual(expect.any(Number));
    const held = loaded.messages[loaded.messages.length - 1].seq;

    // b is away: a edits an old message and writes a new one.
    await edit(a, group, old.code, { message: 'new text' }).expect(200);
    const later = (await send(a, group, { message: 'third' }).expect(201)).body;

    const sb = await connect(t.url, b.token);
    const res = await call(sb, 'sync', { groups: [{ groupCode: group, afterSeq: held, afterEditSeq: loaded.editSeq }] });
    expect(res.ok).toBe(true);
    expect(res.messages.map((m: { code: string }) => m.code)).toEqual([later.code]);
    expect(res.edited).toEqual([expect.objectContaining({ code: old.code, message: 'new text', editedAt: expect.any(String) })]);
    expect(res.editSeqs[group]).toBeGreaterThan(loaded.editSeq);

    const again = await call(sb, 'sync', { groups: [{ groupCode: group, afterSeq: later.seq, afterEditSeq: res.editSeqs[group] }] });
    expect(again).toMatchObject({ messages: [], edited: [], editSeqs: { [group]: res.editSeqs[group] }, more: [] });
    // Without afterEditSeq, sync answers as before (no edits).
    expect(await call(sb, 'sync', { groups: [{ groupCode: group, afterSeq: held }] })).toMatchObject({ edited: [], editSeqs: {} });

    const reloaded = await page(b, group);
    expect(reloaded.editSeq).toBe(res.editSeqs[group]);
    expect(reloaded.messages[0]).toMatchObject({ code: old.code, message: 'new text', editedAt: expect.any(String) });
  });

  it('asks again for a group whose edits did not fit in the answer', async () => {
    const group = await createGroup(t, [a, b]);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push((await send(a, group, { message: `m${i}` }).expect(201)).body);
    const loaded = await page(b, group);
    for (const m of sent) await edit(a, group, m.code, { message: `${m.message} edited` }).expect(200);
    // Two per group instead of 200, so the cut is reached with three edits.
    const service = t.app.get(ChatMessagesService);
    const reader = { id: b.user.id, code: b.user.code, email: b.user.email, role: b.user.role, instanceId: b.user.instanceId };
    const first = await service.since(reader, [{ groupCode: group, afterSeq: 3, afterEditSeq: loaded.editSeq }], 2);
    expect(first.edited.map((m) => m.message)).toEqual(['m0 edited', 'm1 edited']);
    expect(first.more).toEqual([group]);
    const rest = await service.since(reader, [{ groupCode: group, afterSeq: 3, afterEditSeq: first.editSeqs[group] }], 2);
    expect(rest.edited.map((m) => m.message)).toEqual(['m2 edited']);
    expect(rest.more).toEqual([]);
  });
});
