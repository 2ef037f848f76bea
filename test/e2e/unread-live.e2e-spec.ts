import type { Socket } from 'socket.io-client';
import { createGroup, createUser, TestUser } from '../factories';
import { call, closeAllSockets, connect, ListeningApp, listenTestApp } from '../utils/sockets';
import { waitFor } from '../utils/wait';

interface Counts {
  total: number;
  groups: Record<string, number>;
}

/** What a client shows: the last pushed total, and per group the last pushed count (pushes name only the groups that changed). */
class PushedCounts {
  readonly now: Counts = { total: 0, groups: {} };

  constructor(socket: Socket) {
    socket.on('unread:count', (p: Counts) => {
      this.now.total = p.total;
      Object.assign(this.now.groups, p.groups);
    });
  }

  equals(rest: Counts): boolean {
    const codes = new Set([...Object.keys(rest.groups), ...Object.keys(this.now.groups)]);
    return this.now.total === rest.total && [...codes].every((g) => (this.now.groups[g] ?? 0) === (rest.groups[g] ?? 0));
  }
}

/** A small seeded generator, so a failing conversation can be replayed. */
function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('pushed unread counts follow the REST counts', () => {
  let t: ListeningApp;
  let people: TestUser[];
  const sockets = new Map<string, Socket>();
  const pushed = new Map<string, PushedCounts>();
  let sent = 0;

  beforeAll(async () => {
    t = await listenTestApp();
  });
  afterEach(() => closeAllSockets());
  afterAll(() => t.close());

  async function join(users: TestUser[]): Promise<void> {
    for (const u of users) {
      const socket = await connect(t.url, u.token);
      sockets.set(u.user.code, socket);
      pushed.set(u.user.code, new PushedCounts(socket));
    }
  }

  const rest = async (u: TestUser): Promise<Counts> =>
    (await t.http().get('/api/message/UnreadCount').set('Authorization', `Bearer ${u.token}`).expect(200)).body as Counts;

  async function send(u: TestUser, group: string): Promise<number> {
    const ack = await call(sockets.get(u.user.code)!, 'message:send', { groupCode: group, clientKey: `k${++sent}`, message: `m${sent}` });
    if (!ack.ok) throw new Error(`send failed: ${JSON.stringify(ack)}`);
    return ack.message.seq as number;
  }

  async function read(u: TestUser, group: string, seq: number): Promise<void> {
    expect((await call(sockets.get(u.user.code)!, 'group:read', { groupCode: group, seq })).ok).toBe(true);
  }

  /** Every person's pushed counts settle on what REST answers. */
  async function expectAllInStep(step: string): Promise<void> {
    for (const u of people) {
      let last: Counts | undefined;
      await waitFor(async () => pushed.get(u.user.code)!.equals((last = await rest(u))), { timeoutMs: 3000 }).catch(() => {
        throw new Error(`${step}: ${u.user.name} was pushed ${JSON.stringify(pushed.get(u.user.code)!.now)}, REST says ${JSON.stringify(last)}`);
      });
    }
  }

  it("corrects the count when one's own message moves one's read marker (B sends 5, A replies, B sends 2: A has 2)", async () => {
    people = [await createUser(t), await createUser(t)];
    const [a, b] = people;
    const group = await createGroup(t, [a, b]);
    await join(people);
    for (let i = 0; i < 5; i++) await send(b, group);
    await expectAllInStep('B sent 5');
    await send(a, group);
    await expectAllInStep('A replied');
    for (let i = 0; i < 2; i++) await send(b, group);
    await expectAllInStep('B sent 2 more');
    expect(pushed.get(a.user.code)!.now).toEqual({ total: 2, groups: { [group]: 2 } });
  });

  it('stays equal to REST after every step of a long random conversation in several groups', async () => {
    sockets.clear();
    pushed.clear();
    people = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    const [a, b, c, d] = people;
    const groups = [
      { code: await createGroup(t, [a, b, c, d]), members: [a, b, c, d], lastSeq: 0 },
      { code: await createGroup(t, [b, a]), members: [a, b], lastSeq: 0 },
      { code: await createGroup(t, [c, a, d]), members: [a, c, d], lastSeq: 0 },
    ];
    await join(people);
    const random = mulberry32(15);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
    for (let step = 1; step <= 120; step++) {
      const group = pick(groups);
      const who = pick(group.members);
      const roll = random();
      let what: string;
      if (roll < 0.65) {
        group.lastSeq = await send(who, group.code);
        what = `sends #${group.lastSeq}`;
      } else if (roll < 0.9) {
        await read(who, group.code, group.lastSeq);
        what = 'reads all';
      } else {
        const seq = Math.floor(random() * (group.lastSeq + 1));
        await read(who, group.code, seq);
        what = `reads to #${seq}`;
      }
      await expectAllInStep(`step ${step}: ${who.user.name} ${what} in group ${groups.indexOf(group) + 1}`);
    }
  }, 120_000);

  it('settles on the REST counts after bursts of concurrent sends and reads by everyone', async () => {
    sockets.clear();
    pushed.clear();
    people = await Promise.all(Array.from({ length: 4 }, () => createUser(t)));
    const [a, b, c, d] = people;
    const groups = [
      { code: await createGroup(t, [a, b, c, d]), members: [a, b, c, d], lastSeq: 0 },
      { code: await createGroup(t, [b, a, c]), members: [a, b, c], lastSeq: 0 },
    ];
    await join(people);
    const random = mulberry32(1515);
    const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
    for (let burst = 1; burst <= 15; burst++) {
      const actions = Array.from({ length: 8 }, () => {
        const group = pick(groups);
        const who = pick(group.members);
        if (random() < 0.7) return send(who, group.code).then((seq) => void (group.lastSeq = Math.max(group.lastSeq, seq)));
        return read(who, group.code, group.lastSeq);
      });
      await Promise.all(actions);
      await expectAllInStep(`burst ${burst}`);
    }
  }, 120_000);
});
