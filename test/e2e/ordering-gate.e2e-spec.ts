import { randomBytes } from 'node:crypto';
import { readTestRun } from '../utils/test-env';
import type { AppConfig } from '#shared/config/config.schema';
import { COUNT_RELEASED, REFRESH_FIELD, TOTAL_FIELD } from '../../server/src/modules/chat/unread/unread-counts.scripts';
import { RedisService } from '#shared/redis/redis.service';
import { decodeFanoutEntry } from '../../server/src/fanout/fanout-entry';
import { fanoutKeys, roomNodesField } from '../../server/src/fanout/fanout-routing.scripts';
import { luaPiece } from '../../server/src/fanout/lua-script';
import { NO_RELEASE_STEP, OrderingGate, ReleaseStep } from '../../server/src/fanout/ordering-gate';

/** The per-group ordering gate against the test run's Redis, under a prefix of its own. */
describe('OrderingGate', () => {
  let redis: RedisService;

  beforeAll(async () => {
    const run = readTestRun();
    const prefix = `${run.REDIS_PREFIX}gate-spec:${randomBytes(4).toString('hex')}:`;
    redis = new RedisService({ REDIS_URL: run.REDIS_URL, REDIS_PREFIX: prefix } as AppConfig);
    await redis.connect();
  });

  afterAll(async () => {
    for await (const keys of redis.client.scanIterator({ MATCH: `${redis.prefix}*`, COUNT: 100 })) {
      if (keys.length) await redis.client.del(keys);
    }
    await redis.onApplicationShutdown();
  });

  /** A node of this test, registered in the rooms it reads (as FanoutNode would): what the gate routes lands in its inbox. */
  const node = 'spec-node';
  const inbox = () => fanoutKeys.inbox(redis.prefix, node);
  const subscribe = (...rooms: string[]) => Promise.all(rooms.map((room) => redis.client.hSet(fanoutKeys.rooms(redis.prefix), room, roomNodesField([node]))));

  let group = '';
  beforeEach(async () => {
    group = `g${randomBytes(4).toString('hex')}`;
    await redis.client.xAdd(inbox(), '*', { created: '1' }, { TRIM: { strategy: 'MAXLEN', threshold: 0 } });
    await subscribe(group);
  });

  interface Released {
    rooms: string[];
    event: string;
    payload: { seq: number; effect?: string; config?: string; groups?: Record<string, number> };
  }

  /** The deliveries in the inbox that belong to this test's group, their Socket.IO packets decoded. */
  async function released(): Promise<Released[]> {
    const entries = await redis.client.xRange(inbox(), '-', '+');
    return entries
      .filter((e) => e.message.e?.includes(group))
      .flatMap((e) => decodeFanoutEntry(e.message.e))
      .map(({ rooms, packet }) => {
        expect(packet.startsWith('2[')).toBe(true);
        const [event, payload] = JSON.parse(packet.slice(1)) as [string, Released['payload']];
        return { rooms, event, payload };
      });
  }
  const entry = (seq: number, groupCode = group) => OrderingGate.entry([groupCode], 'message:new', { seq });
  /** One message through the gate; answers its release-step answers. */
  const pass = async (gate: OrderingGate, groupCode: string, seq: number, text: string, effect: string) =>
    (await gate.passAll([{ groupCode, seq, entry: text, effect }])).answers[0];
  const seqs = async () => (await released()).map((d) => d.payload.seq);

  /** A release step that routes what it saw and answers the effect. */
  const recordingStep: ReleaseStep = {
    lua: luaPiece(
      'RecordingStep',
      [],
      `local function RecordingStep(config, routing)
        return function(group, seq, effect, answers)
          routing.route({ group }, 'step', cjson.encode({ seq = seq, effect = effect, config = config }))
          answers[#answers + 1] = effect
        end
      end`,
    ),
    config: 'the-config',
  };

  it('releases a group in seq order and drops a seq it released before (a retry)', async () => {
    const gate = new OrderingGate(redis);
    await pass(gate, group, 1, entry(1), '');
    await pass(gate, group, 2, entry(2), '');
    await pass(gate, group, 1, entry(1), '');
    await pass(gate, group, 3, entry(3), '');
    expect(await seqs()).toEqual([1, 2, 3]);
  });

  it('passes a batch of messages of several groups in one call as if one by one, answering each its own', async () => {
    const gate = new OrderingGate(redis, recordingStep);
    const other = `${group}x`;
    await subscribe(other);
    const { answers } = await gate.passAll([
      { groupCode: group, seq: 2, entry: entry(2), effect: 'a2' },
      { groupCode: other, seq: 1, entry: entry(1, other), effect: 'b1' },
      { groupCode: group, seq: 1, entry: entry(1), effect: 'a1' },
      { groupCode: group, seq: 1, entry: entry(1), effect: 'a1' },
    ]);
    expect(answers).toEqual([[], ['b1'], ['a1', 'a2'], []]);
    const mine = (await released()).filter((d) => d.event === 'message:new' && d.rooms[0] === group);
    expect(mine.map((d) => d.payload.seq)).toEqual([1, 2]);
  });

  it("answers its own node's deliveries instead of writing them to its inbox, with the inbox's newest id then", async () => {
    const other = 'spec-other-node';
    const otherInbox = fanoutKeys.inbox(redis.prefix, other);
    await redis.client.xAdd(otherInbox, '*', { created: '1' }, { TRIM: { strategy: 'MAXLEN', threshold: 0 } });
    await redis.client.hSet(fanoutKeys.rooms(redis.prefix), group, roomNodesField([node, other]));
    const earlier = await redis.client.xAdd(inbox(), '*', { e: `${group}\t2["earlier",{}]` });
    const gate = new OrderingGate(redis, recordingStep, node);

    const { answers, own } = await gate.passAll([
      { groupCode: group, seq: 1, entry: entry(1), effect: 'e1' },
      { groupCode: group, seq: 2, entry: entry(2), effect: 'e2' },
    ]);
    expect(answers).toEqual([['e1'], ['e2']]);
    expect(own?.after).toBe(earlier);
    const events = decodeFanoutEntry(own!.entry).map(({ packet }) => JSON.parse(packet.slice(1)) as [string, { seq: number }]);
    expect(events.map(([event, { seq }]) => `${event} ${seq}`)).toEqual(['message:new 1', 'step 1', 'message:new 2', 'step 2']);
    // Nothing more in its own inbox; the other node's got the same deliveries.
    expect((await redis.client.xRange(inbox(), '-', '+')).map((e) => e.id)).toEqual([earlier]);
    const [theirs] = await redis.client.xRange(otherInbox, '-', '+');
    expect(theirs.message.e).toBe(own!.entry);
  });

  it("writes its own deliveries as any other node's once its inbox is gone (refused: it must register again)", async () => {
    await redis.client.del(inbox());
    const gate = new OrderingGate(redis, NO_RELEASE_STEP, node);
    const { own } = await gate.passAll([{ groupCode: group, seq: 1, entry: entry(1), effect: '' }]);
    expect(own).toBeNull();
    expect(await redis.client.exists(inbox())).toBe(0);
    expect(await redis.client.hGet(fanoutKeys.rooms(redis.prefix), group)).toBeNull();
  });

  it('holds a message until its predecessor arrives, then releases both in seq order', async () => {
    const gate = new OrderingGate(redis);
    await pass(gate, group, 1, entry(1), '');
    await pass(gate, group, 3, entry(3), '');
    await pass(gate, group, 4, entry(4), '');
    expect(await seqs()).toEqual([1]);
    await pass(gate, group, 2, entry(2), '');
    expect(await seqs()).toEqual([1, 2, 3, 4]);
    // Nothing is left held, so the group is not stalled.
    expect(await gate.stalled(0)).not.toContain(group);
  });

  it('lets a stalled group through past its missing seq only once it has waited long enough, and the missing one later once', async () => {
    const gate = new OrderingGate(redis);
    await pass(gate, group, 1, entry(1), '');
    await pass(gate, group, 3, entry(3), '');
    expect(await gate.stalled(60_000)).not.toContain(group);
    expect(await gate.letThrough(group, 60_000)).toEqual({ released: 0, answers: [] });
    expect(await seqs()).toEqual([1]);

    expect(await gate.stalled(0)).toContain(group);
    expect((await gate.letThrough(group, 0)).released).toBe(1);
    expect(await seqs()).toEqual([1, 3]);

    // The skipped seq arrives late: released once, and a retry of it is dropped.
    await pass(gate, group, 2, entry(2), '');
    await pass(gate, group, 2, entry(2), '');
    await pass(gate, group, 4, entry(4), '');
    expect(await seqs()).toEqual([1, 3, 2, 4]);
  });

  describe('follow-ups (edits, deletes, translations, group changes)', () => {
    const followUp = (after: number, name: string, at = Date.now()) => ({
      groupCode: group,
      seq: after,
      follows: at,
      entry: OrderingGate.entry([group], 'follow-up', { seq: after, name }),
      effect: '',
    });
    const order = async () =>
      (await released()).map((d) => (d.event === 'follow-up' ? `${(d.payload as { name?: string }).name}` : `message ${d.payload.seq}`));

    it('routes a follow-up of a released message at once, and holds one of a message not yet released until right after it', async () => {
      const gate = new OrderingGate(redis);
      await pass(gate, group, 1, entry(1), '');
      await gate.passAll([followUp(1, 'edit 1'), followUp(2, 'edit 2'), followUp(2, 'delete 2'), followUp(3, 'edit 3')]);
      expect(await order()).toEqual(['message 1', 'edit 1']);
      await pass(gate, group, 3, entry(3), '');
      await pass(gate, group, 2, entry(2), '');
      expect(await order()).toEqual(['message 1', 'edit 1', 'message 2', 'edit 2', 'delete 2', 'message 3', 'edit 3']);
      expect(await gate.stalled(0)).not.toContain(group);
    });

    it('holds a follow-up in a group it has no record of when the message is recent, not when it is long past', async () => {
      const gate = new OrderingGate(redis);
      await gate.passAll([followUp(7, 'edit of an old message', Date.now() - 3_600_000)]);
      expect(await order()).toEqual(['edit of an old message']);
      await gate.passAll([followUp(1, 'edit of a recent message')]);
      expect(await order()).toEqual(['edit of an old message']);
      await pass(gate, group, 1, entry(1), '');
      expect(await order()).toEqual(['edit of an old message', 'message 1', 'edit of a recent message']);
    });

    it('lets the follow-ups of a stalled group through at their places, also those of a missing message', async () => {
      const gate = new OrderingGate(redis);
      await pass(gate, group, 1, entry(1), '');
      await gate.passAll([followUp(2, 'edit 2')]);
      await pass(gate, group, 3, entry(3), '');
      await gate.passAll([followUp(3, 'edit 3')]);
      expect(await gate.letThrough(group, 0)).toEqual({ released: 1, answers: [] });
      expect(await order()).toEqual(['message 1', 'edit 2', 'message 3', 'edit 3']);
      expect(await gate.stalled(0)).not.toContain(group);
    });
  });

  it('runs the release step right after each release, once, with the message effect and its config, and answers what it appended', async () => {
    const gate = new OrderingGate(redis, recordingStep);
    expect(await pass(gate, group, 2, entry(2), 'e2')).toEqual([]);
    expect(await pass(gate, group, 1, entry(1), 'e1')).toEqual(['e1', 'e2']);
    expect(await pass(gate, group, 1, entry(1), 'e1')).toEqual([]);
    const events = await released();
    expect(events.map((e) => (e.event === 'step' ? `step ${e.payload.seq} ${e.payload.effect} ${e.payload.config}` : `message ${e.payload.seq}`))).toEqual([
      'message 1',
      'step 1 e1 the-config',
      'message 2',
      'step 2 e2 the-config',
    ]);
  });

  it('runs the release step for messages a stalled group lets through', async () => {
    const gate = new OrderingGate(redis, recordingStep);
    await pass(gate, group, 1, entry(1), 'e1');
    await pass(gate, group, 3, entry(3), 'e3');
    expect(await gate.letThrough(group, 0)).toEqual({ released: 1, answers: ['e3'] });
  });

  describe('with the unread counts release step', () => {
    const step: ReleaseStep = { lua: COUNT_RELEASED, config: JSON.stringify({ ttl: 60_000, room: 'user:' }) };
    const key = (code: string) => redis.key('unread', code);
    const effect = (recipients: string[], author: string | null) =>
      JSON.stringify({ r: recipients.map((c) => [key(c), c]), ...(author ? { a: [key(author), author] } : {}) });

    it('counts a message once for each cached recipient, even when its publication is retried, zeroes the author, and answers the uncached', async () => {
      const gate = new OrderingGate(redis, step);
      const [bob, carol, ann] = ['bob', 'carol', 'ann'].map((n) => `${n}-${group}`);
      await subscribe(`user:${bob}`, `user:${ann}`);
      await redis.client.hSet(key(bob), { [TOTAL_FIELD]: 0 });
      await redis.client.hSet(key(ann), { [TOTAL_FIELD]: 2, [group]: 2 });

      expect(await pass(gate, group, 1, entry(1), effect([bob, carol], ann))).toEqual([carol]);
      expect(await pass(gate, group, 1, entry(1), effect([bob, carol], ann))).toEqual([]);
      expect(await pass(gate, group, 2, entry(2), effect([bob], null))).toEqual([]);

      expect(await redis.client.hGetAll(key(bob))).toMatchObject({ [TOTAL_FIELD]: '2', [group]: '2', [`${group}@`]: '2' });
      expect(await redis.client.hGetAll(key(ann))).toEqual({ [TOTAL_FIELD]: '0', [`${group}@`]: '1', [REFRESH_FIELD]: expect.any(String) });
      // The counts follow their message into the inbox, in order.
      const pushes = (await released()).filter((d) => d.event === 'unread:count');
      expect(pushes.map((d) => [d.rooms[0], d.payload.groups?.[group]])).toEqual([
        [`user:${bob}`, 1],
        [`user:${ann}`, 0],
        [`user:${bob}`, 2],
      ]);
    });

    it("renews a cached count's TTL when its refresh time has come, not on every message", async () => {
      const gate = new OrderingGate(redis, step);
      const [due, fresh, author] = ['due', 'fresh', 'author'].map((n) => `${n}-${group}`);
      const later = String(Date.now() + 3_600_000);
      await redis.client.hSet(key(due), { [TOTAL_FIELD]: 0 });
      await redis.client.hSet(key(fresh), { [TOTAL_FIELD]: 0, [REFRESH_FIELD]: later });
      await redis.client.hSet(key(author), { [TOTAL_FIELD]: 0, [REFRESH_FIELD]: later });
      for (const k of [due, fresh, author]) await redis.client.pExpire(key(k), 5_000);

      await pass(gate, group, 1, entry(1), effect([due, fresh], author));
      // Renewed to the step's TTL (60 s), the next renewal half a TTL away; the others keep theirs.
      expect(await redis.client.pTTL(key(due))).toBeGreaterThan(50_000);
      const next = Number(await redis.client.hGet(key(due), REFRESH_FIELD));
      expect(next).toBeGreaterThan(Date.now() + 25_000);
      expect(next).toBeLessThan(Date.now() + 35_000);
      for (const k of [fresh, author]) expect(await redis.client.pTTL(key(k))).toBeLessThanOrEqual(5_000);
      expect(await redis.client.hGetAll(key(fresh))).toMatchObject({ [TOTAL_FIELD]: '1', [group]: '1', [REFRESH_FIELD]: later });
    });

    it('does not count a message a fill from Postgres already counted (watermark at or past its seq)', async () => {
      const gate = new OrderingGate(redis, step);
      const bob = `bob-${group}`;
      await redis.client.hSet(key(bob), { [TOTAL_FIELD]: 1, [group]: 1, [`${group}@`]: 1 });
      await pass(gate, group, 1, entry(1), effect([bob], null));
      await pass(gate, group, 2, entry(2), effect([bob], null));
      expect(await redis.client.hGetAll(key(bob))).toMatchObject({ [TOTAL_FIELD]: '2', [group]: '2' });
    });
  });
});
