import { ChatMessagesRepository } from '../../server/src/modules/chat/chat-messages.repository';
import { createGroup, createUser, TestUser } from '../factories';
import { closeAllSockets, connect, ListeningApp, listenTestApp, record } from '../utils/sockets';
import { waitFor } from '../utils/wait';

/**
 * Sends that arrive together are stored together (one statement for many messages): every message still gets
 * its own gap-free seq, a retry in the same burst is answered with the first one, a stranger's send in the
 * burst fails alone, and the counts, read markers and deliveries are what one-by-one sends would give.
 */
describe('micro-batched sends', () => {
  let t: ListeningApp;
  let a: TestUser, b: TestUser, c: TestUser, d: TestUser, stranger: TestUser;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });

  beforeAll(async () => {
    t = await listenTestApp();
    [a, b, c, d, stranger] = await Promise.all([createUser(t), createUser(t), createUser(t), createUser(t), createUser(t)]);
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  it('stores a burst from several sockets into several groups exactly as one-by-one sends would', async () => {
    const g1 = await createGroup(t, [a, b, c]);
    const g2 = await createGroup(t, [a, d]);
    const g3 = await createGroup(t, [b, c, d]);
    const groupsOf = new Map([
      [a, [g1, g2]],
      [b, [g1, g3]],
      [c, [g1, g3]],
      [d, [g2, g3]],
    ]);
    const sockets = new Map(await Promise.all([...groupsOf.keys()].map(async (u) => [u, await connect(t.url, u.token)] as const)));
    const strangerSocket = await connect(t.url, stranger.token);
    const delivered = record(sockets.get(d)!, 'message:new');
    const statements = jest.spyOn(t.app.get(ChatMessagesRepository), 'insertMessages');

    // Everything is emitted in one go, so the server receives it within one turn of its event loop.
    const PER_GROUP = 10;
    const acks: Promise<any>[] = [];
    const retries: { of: number; ack: Promise<any> }[] = [];
    for (const [user, groups] of groupsOf) {
      const socket = sockets.get(user)!;
      for (const groupCode of groups) {
        for (let i = 0; i < PER_GROUP; i++) {
          acks.push(socket.emitWithAck('message:send', { groupCode, clientKey: `-k${i}`, message: `${user.user.code} ${i}` }));
        }
        // A retry of the first message inside the same burst.
        retries.push({ of: acks.length - PER_GROUP, ack: socket.emitWithAck('message:send', { groupCode, clientKey: '-k0', message: 'again' }) });
      }
    }
    const refused = strangerSocket.emitWithAck('message:send', { groupCode: g1, clientKey: '-x', message: 'not mine' });

    const stored = await Promise.all(acks);
    expect(stored.filter((ack) => !ack.ok)).toEqual([]);
    for (const retry of retries) expect((await retry.ack).message.code).toBe(stored[retry.of].message.code);
    expect(await refused).toMatchObject({ ok: false, error: { code: 404 } });
    // Fewer statements than sends: the burst was batched.
    expect(statements.mock.calls.length).toBeLessThan(acks.length);
    statements.mockRestore();

    // Counts first (reading the newest page marks a group read).
    const unreadOf = async (u: TestUser) => (await t.http().get('/api/message/UnreadCount').set(as(u)).expect(200)).body;
    const [aUnread, dUnread] = [await unreadOf(a), await unreadOf(d)];

    const pages = new Map<string, { seq: number; code: string; userCode: string; message: string }[]>();
    for (const [groupCode, members] of [
      [g1, [a, b, c]],
      [g2, [a, d]],
      [g3, [b, c, d]],
    ] as const) {
      const page = await t.http().post(`/api/message/groups/${groupCode}/messages`).set(as(members[0])).send({}).expect(200);
      const messages = page.body.messages;
      pages.set(groupCode, messages);
      const n = members.length * PER_GROUP;
      expect(messages.map((m: { seq: number }) => m.seq)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(new Set(messages.map((m: { code: string }) => m.code)).size).toBe(n);
      // Each author's own messages come in the order that author sent them.
      for (const member of members) {
        const own = messages.filter((m: { userCode: string }) => m.userCode === member.user.code);
        expect(own.map((m: { message: string }) => m.message)).toEqual(Array.from({ length: PER_GROUP }, (_, i) => `${member.user.code} ${i}`));
      }
    }

    // d's socket gets every message of g2 and g3 once but its own (those are in its acknowledgements), none for the retries.
    await waitFor(() => delivered.length === 30);
    expect(new Set(delivered.map((m) => m.code)).size).toBe(30);
    expect(delivered.filter((m) => m.userCode === d.user.code)).toEqual([]);
    // Sending moved each author's read marker to their last message: unread is what others wrote after it.
    const expectedUnread = (u: TestUser, groups: string[]) =>
      Object.fromEntries(
        groups
          .map((g) => {
            const messages = pages.get(g)!;
            const lastOwn = Math.max(...messages.filter((m) => m.userCode === u.user.code).map((m) => m.seq));
            return [g, messages.filter((m) => m.seq > lastOwn).length];
          })
          .filter(([, n]) => n),
      );
    expect(aUnread.groups).toEqual(expectedUnread(a, [g1, g2]));
    expect(dUnread.groups).toEqual(expectedUnread(d, [g2, g3]));
    expect(dUnread.total).toBe(Object.values(dUnread.groups as Record<string, number>).reduce((x, y) => x + y, 0));
  });
});
