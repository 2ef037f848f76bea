import { io, Socket } from 'socket.io-client';
import { Role } from '#shared/contracts/roles';
import { SocketEmitter } from '../../server/src/realtime/socket-emitter.service';
import { createGroup, createInstance, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp, next } from '../utils/sockets';
import { waitFor } from '../utils/wait';
import { postJob, version } from './marketplace.helpers';

const PUBLIC_URL = 'https://parley.example';

/** Replays the realtime findings of the security probe (issue 36) and asserts each is refused. */
describe('security: realtime sessions', () => {
  let t: ListeningApp;
  const as = (u: TestUser) => ({ Authorization: `Bearer ${u.token}` });
  const extra: Socket[] = [];

  beforeAll(async () => {
    t = await listenTestApp({ PUBLIC_URL });
  });
  afterEach(() => {
    closeAllSockets();
    while (extra.length) extra.pop()!.close();
  });
  afterAll(() => t.close());

  /** What a client needs to recover its session: Socket.IO keeps both on the client socket. */
  function sessionOf(socket: Socket): { pid: string; offset: string } {
    const { _pid, _lastOffset } = socket as unknown as { _pid?: string; _lastOffset?: string };
    if (!_pid || !_lastOffset) throw new Error('the socket holds no recoverable session');
    return { pid: _pid, offset: _lastOffset };
  }

  /** Every event packet that reaches the client's connection, even one that arrives before a refused connect. */
  function wire(socket: Socket): unknown[][] {
    const seen: unknown[][] = [];
    socket.io.on('packet', (packet: { type: number; data?: unknown[] }) => {
      if (packet.type === 2 && packet.data) seen.push(packet.data);
    });
    return seen;
  }

  const opened = (socket: Socket) =>
    new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });

  const groupOf = (data: unknown[]) => (data[1] as { groupCode?: string } | undefined)?.groupCode;

  /** The transport drops under the client (a network loss): the server keeps the session for recovery. */
  async function dropTransport(socket: Socket): Promise<void> {
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    socket.io.engine.close();
    await gone;
  }

  /** The client comes back on its own manager, presenting its pid and offset. */
  async function reconnect(socket: Socket): Promise<void> {
    const back = opened(socket);
    socket.connect();
    await back;
  }

  /**
   * A job of `customer`'s saved again: `job:updated` reaches every socket of the instance through the Socket.IO
   * adapter (chat traffic goes through the ordered fan-out instead), so each client then holds a recovery offset.
   */
  async function instanceBroadcast(customer: TestUser, job: string, sockets: Socket[], title = 'Saved again'): Promise<void> {
    const seen = sockets.map((s) => next(s, 'job:updated', (j) => j.code === job && j.title === title));
    await t
      .http()
      .post(`/api/job/${job}`)
      .set(as(customer))
      .send({ versions: [version('eng', { title })] })
      .expect(200);
    await Promise.all(seen);
  }

  async function auditActions(admin: TestUser, group: string): Promise<string[]> {
    const audit = await t.http().get('/api/admin/audit').set(as(admin)).expect(200);
    return audit.body.entries.filter((e: { groupCode: string }) => e.groupCode === group).map((e: { action: string }) => e.action);
  }

  describe('item 1: a watch ends with the connection, recovery or not', () => {
    it('gives a recovered moderator socket none of the group: no new message or edit live, none replayed', async () => {
      const instanceId = (await createInstance(t)).id;
      const [a, b, admin] = await Promise.all([
        createUser(t, { instanceId }),
        createUser(t, { instanceId }),
        createUser(t, { instanceId, role: Role.InstanceAdmin }),
      ]);
      const group = await createGroup(t, [a, b]);
      const beacon = await createGroup(t, [a, admin]);
      const [sa, sb, sAdmin] = await Promise.all([connect(t.url, a.token), connect(t.url, b.token), connect(t.url, admin.token)]);

      expect(await call(sAdmin, 'room:watch', { groupCode: group })).toEqual({ ok: true });
      const first = await call(sa, 'message:send', { groupCode: group, clientKey: 'w-1', message: 'watched' });
      const editSeen = next(sAdmin, 'message:updated', (m) => m.code === first.message.code);
      await call(sa, 'message:edit', { groupCode: group, code: first.message.code, message: 'watched, edited' });
      await editSeen;
      await instanceBroadcast(a, await postJob(t, a), [sAdmin]);
      const packets = wire(sAdmin);
      const originalId = sAdmin.id;

      await dropTransport(sAdmin);
      await waitFor(async () => (await auditActions(admin, group)).includes('room.unwatch'));
      // While away: an edit the group room would have replayed.
      const awayEdit = next(sb, 'message:updated', (m) => m.message === 'edited while away');
      await call(sa, 'message:edit', { groupCode: group, code: first.message.code, message: 'edited while away' });
      await awayEdit;

      await reconnect(sAdmin);
      expect(sAdmin.recovered).toBe(true);
      expect(sAdmin.id).toBe(originalId);
      await t.http().post(`/api/message/groups/${group}/messages`).set(as(admin)).send({}).expect(403);

      // Live, after the recovery: a new message and an edit, seen by the participant.
      async function groupTrafficThenBeacon(tag: string): Promise<void> {
        const bNew = next(sb, 'message:new', (m) => m.clientKey === `${tag}-g`);
        const later = await call(sa, 'message:send', { groupCode: group, clientKey: `${tag}-g`, message: 'after the watch' });
        await bNew;
        const bEdit = next(sb, 'message:updated', (m) => m.code === later.message.code);
        await call(sa, 'message:edit', { groupCode: group, code: later.message.code, message: 'after the watch, edited' });
        await bEdit;
        // The moderator's own chat comes through the same paths after them: once it arrived, the group's would have.
        const beaconNew = next(sAdmin, 'message:new', (m) => m.clientKey === `${tag}-b`);
        const beaconMessage = await call(sa, 'message:send', { groupCode: beacon, clientKey: `${tag}-b`, message: 'beacon' });
        await beaconNew;
        const beaconEdit = next(sAdmin, 'message:updated', (m) => m.code === beaconMessage.message.code);
        await call(sa, 'message:edit', { groupCode: beacon, code: beaconMessage.message.code, message: 'beacon, edited' });
        await beaconEdit;
      }
      await groupTrafficThenBeacon('w-2');

      // Again, as the issue repeated it: the server's side of the transport closes and the client reconnects by
      // itself, recovering the session once more.
      sAdmin.io.reconnection(true).reconnectionDelay(50).reconnectionDelayMax(100);
      const back = new Promise<void>((resolve) => sAdmin.once('connect', () => resolve()));
      t.app.get(SocketEmitter).io!.of('/').sockets.get(sAdmin.id!)!.conn.close();
      await back;
      expect(sAdmin.recovered).toBe(true);
      expect(sAdmin.id).toBe(originalId);
      await groupTrafficThenBeacon('w-3');

      expect(packets.filter((data) => groupOf(data) === group)).toEqual([]);
      expect(packets.filter((data) => groupOf(data) === beacon)).toHaveLength(4);

      // Watching again is a new, recorded watch of the recovered connection (under an id of its own).
      const flagged = next(sb, 'group:updated', (g) => g.code === group && g.watched === true);
      expect(await call(sAdmin, 'room:watch', { groupCode: group })).toEqual({ ok: true });
      await flagged;
      await t.http().post(`/api/message/groups/${group}/messages`).set(as(admin)).send({}).expect(200);
      expect(await auditActions(admin, group)).toEqual(['room.watch', 'room.unwatch', 'room.watch']);
    });
  });

  describe('item 2: a session is recovered only by its own user', () => {
    it("refuses another user's pid and offset: no socket id, rooms, unread counts or missed packets", async () => {
      const [a, b, c] = await Promise.all([createUser(t), createUser(t), createUser(t)]);
      const group = await createGroup(t, [a, c]);
      const [sa, sc] = await Promise.all([connect(t.url, a.token), connect(t.url, c.token)]);
      const first = await call(sc, 'message:send', { groupCode: group, clientKey: 's-1', message: 'to a' });
      const edited = next(sa, 'message:updated', (m) => m.code === first.message.code);
      await call(sc, 'message:edit', { groupCode: group, code: first.message.code, message: 'to a, edited' });
      await edited;
      const job = await postJob(t, c);
      await instanceBroadcast(c, job, [sa]);
      const stolen = sessionOf(sa);
      const aId = sa.id;

      await dropTransport(sa);
      // While A is away: a broadcast A's session would replay (a missed packet), an edit and a new message (unread counts).
      await instanceBroadcast(c, job, [sc], 'while a is away');
      await call(sc, 'message:edit', { groupCode: group, code: first.message.code, message: 'while a is away' });
      await call(sc, 'message:send', { groupCode: group, clientKey: 's-2', message: 'while a is away' });

      const attacker = io(t.url, { auth: { token: b.token, ...stolen }, transports: ['websocket'], reconnection: false, forceNew: true });
      extra.push(attacker);
      const packets = wire(attacker);
      const outcome = await new Promise<{ connected: boolean; id?: string; error?: string }>((resolve) => {
        attacker.once('connect', () => resolve({ connected: true, id: attacker.id }));
        attacker.once('connect_error', (err) => resolve({ connected: false, error: err.message }));
      });
      expect(outcome).toEqual({ connected: false, error: 'unauthorized' });

      // Nothing of A's afterwards either: a connection of B's own gets B's things only.
      const sb = await connect(t.url, b.token);
      expect(sb.id).not.toBe(aId);
      const bPackets = wire(sb);
      // c's other socket sees it arrive: had b held a's rooms, it would have had it by then.
      const sc2 = await connect(t.url, c.token);
      const cSeen = next(sc2, 'message:new', (m) => m.clientKey === 's-3');
      await call(sc, 'message:send', { groupCode: group, clientKey: 's-3', message: 'later' });
      await cSeen;
      const own = await createGroup(t, [c, b]);
      const ownSeen = next(sb, 'message:new', (m) => m.groupCode === own);
      await call(sc, 'message:send', { groupCode: own, clientKey: 's-4', message: 'to b' });
      await ownSeen;

      expect(packets).toEqual([]);
      expect(bPackets.filter((data) => groupOf(data) === group || (data[0] === 'unread:count' && JSON.stringify(data).includes(group)))).toEqual([]);
    });

    it('recovers the owner: the same socket id and the packets missed while away', async () => {
      const [a, c] = await Promise.all([createUser(t), createUser(t)]);
      const group = await createGroup(t, [a, c]);
      const [sa, sc] = await Promise.all([connect(t.url, a.token), connect(t.url, c.token)]);
      const first = await call(sc, 'message:send', { groupCode: group, clientKey: 'o-1', message: 'to a' });
      const edited = next(sa, 'message:updated', (m) => m.code === first.message.code);
      await call(sc, 'message:edit', { groupCode: group, code: first.message.code, message: 'to a, edited' });
      await edited;
      const job = await postJob(t, c);
      await instanceBroadcast(c, job, [sa]);
      const aId = sa.id;

      await dropTransport(sa);
      await instanceBroadcast(c, job, [sc], 'while a is away');
      const missed = next(sa, 'job:updated', (j) => j.title === 'while a is away');
      await reconnect(sa);
      expect(sa.recovered).toBe(true);
      expect(sa.id).toBe(aId);
      await missed;
      // and live again, through the user's room
      const live = next(sa, 'message:new', (m) => m.clientKey === 'o-2');
      await call(sc, 'message:send', { groupCode: group, clientKey: 'o-2', message: 'back' });
      await live;
    });
  });

  describe('item 6: budgets and sockets belong to the person', () => {
    it('shares the send budget (30, then 10 a second) among all sockets of one user', async () => {
      const [a, b] = await Promise.all([createUser(t), createUser(t)]);
      const group = await createGroup(t, [a, b]);
      const sockets = await Promise.all(Array.from({ length: 10 }, () => connect(t.url, a.token)));
      const started = Date.now();
      const replies = await Promise.all(
        sockets.flatMap((s, i) =>
          Array.from({ length: 30 }, (_, j) => call(s, 'message:send', { groupCode: group, clientKey: `b-${i}-${j}`, message: `m ${i} ${j}` })),
        ),
      );
      const seconds = (Date.now() - started) / 1000;
      const accepted = replies.filter((r) => r.ok).length;
      expect(accepted).toBeGreaterThanOrEqual(30);
      expect(accepted).toBeLessThanOrEqual(30 + Math.ceil(10 * seconds));
      expect(replies.find((r) => !r.ok).error).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { retryAfter: 1 } });
      expect(sockets.every((s) => s.connected)).toBe(true);
    });

    it('refuses the 21st socket of a user with a clear error, and takes one again once a socket closes', async () => {
      const [a, b] = await Promise.all([createUser(t), createUser(t)]);
      const sockets = await Promise.all(Array.from({ length: 20 }, () => connect(t.url, a.token)));
      const refused = await connect(t.url, a.token).then(
        () => null,
        (err: Error & { data?: unknown }) => err,
      );
      expect(refused?.message).toBe('too many sockets');
      expect(refused?.data).toEqual({ code: 429, message: 'SHARED.ERROR.TOO_MANY_REQUESTS', data: { maxSockets: 20 } });
      // Another user is not affected.
      await connect(t.url, b.token);

      sockets[0].close();
      await waitFor(
        () =>
          connect(t.url, a.token).then(
            () => true,
            () => false,
          ),
        { timeoutMs: 5000 },
      );
    });

    it('counts handshakes in flight: 40 at once leave exactly 20 connected', async () => {
      const a = await createUser(t);
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, () =>
          connect(t.url, a.token).then(
            () => 'connected',
            (err: Error) => err.message,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'connected')).toHaveLength(20);
      expect(outcomes.filter((o) => o !== 'connected')).toEqual(Array.from({ length: 20 }, () => 'too many sockets'));
    });
  });

  describe('item 15: only the app itself opens sockets from a browser', () => {
    const handshake = () => t.http().get('/socket.io/?EIO=4&transport=polling');

    it('refuses a handshake from another origin, with no CORS headers', async () => {
      for (const origin of ['http://evil.example', 'null', 'https://parley.example.evil.example']) {
        const res = await handshake().set('Origin', origin);
        expect([origin, res.status]).toEqual([origin, 403]);
        expect(JSON.parse(res.text)).toEqual({ code: 4, message: 'SHARED.ERROR.CROSS_ORIGIN' });
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      }
      const noOrigin = await handshake().set('Sec-Fetch-Site', 'cross-site');
      expect(noOrigin.status).toBe(403);
      const ws = io(t.url, { auth: {}, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { Origin: 'http://evil.example' } });
      extra.push(ws);
      await expect(opened(ws)).rejects.toThrow();
    });

    it('takes the same origin, PUBLIC_URL and clients that send no Origin', async () => {
      const a = await createUser(t);
      for (const origin of [t.url, PUBLIC_URL, undefined]) {
        const req = handshake();
        const res = origin ? await req.set('Origin', origin) : await req;
        expect([origin, res.status]).toEqual([origin, 200]);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
      for (const Origin of [t.url, PUBLIC_URL]) {
        const ws = io(t.url, { auth: { token: a.token }, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { Origin } });
        extra.push(ws);
        await opened(ws);
      }
      await connect(t.url, a.token);
      await connect(t.url, a.token, { transports: ['polling'] });
    });
  });
});
