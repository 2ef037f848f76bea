import { ChatMessageType } from '#shared/contracts/chat';
import { InsertBatcher, InsertSink } from './chat-message-insert.queue';
import { InsertMessage, InsertResult, MessageRow } from '../chat-messages.repository';

/** The batching and the retry splitting, against a sink that records its calls (no database involved). */
describe('InsertBatcher', () => {
  const message = (groupCode: string, text: string, clientKey: string | null = null): InsertMessage => ({
    groupCode,
    authorId: 'author',
    code: `code-${text}`,
    type: ChatMessageType.Text,
    text,
    lang: null,
    clientKey,
    fileIds: [],
    fileCodes: [],
  });
  const stored = (item: InsertMessage): InsertResult => ({
    row: { code: item.code, text: item.text } as MessageRow,
    created: true,
    groupType: 0,
    participantCodes: ['p'],
  });

  /** A sink that stores everything, remembers each call's texts, and fails any call containing a text in `bad`. */
  function recordingSink(bad: string[] = []): { sink: InsertSink; calls: string[][] } {
    const calls: string[][] = [];
    const sink: InsertSink = async (items) => {
      calls.push(items.map((i) => i.text));
      if (items.some((i) => bad.includes(i.text))) throw new Error('bad item');
      return items.map(stored);
    };
    return { sink, calls };
  }

  it('stores the sends of one event-loop turn in one call, each answered with its own result', async () => {
    const { sink, calls } = recordingSink();
    const batcher = new InsertBatcher(sink);
    const results = await Promise.all(['a', 'b', 'c'].map((t) => batcher.insert(message('g', t))));
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(results.map((r) => r?.row.text)).toEqual(['a', 'b', 'c']);
  });

  it('gathers sends that arrive while a statement runs into the next call, in arrival order', async () => {
    const calls: string[][] = [];
    let release!: () => void;
    const firstCallDone = new Promise<void>((resolve) => (release = resolve));
    const batcher = new InsertBatcher(async (items) => {
      calls.push(items.map((i) => i.text));
      if (calls.length === 1) await firstCallDone;
      return items.map(stored);
    });
    const first = batcher.insert(message('g', 'a'));
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const later = ['b', 'c', 'd'].map((t) => batcher.insert(message('g', t)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual([['a']]);
    release();
    await Promise.all([first, ...later]);
    expect(calls).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('puts at most 100 items into one call', async () => {
    const { sink, calls } = recordingSink();
    const batcher = new InsertBatcher(sink);
    await Promise.all(Array.from({ length: 250 }, (_, i) => batcher.insert(message('g', String(i)))));
    expect(calls.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(calls.flat()).toEqual(Array.from({ length: 250 }, (_, i) => String(i)));
  });

  it('runs one statement at a time whatever the groups, so every send is stored in arrival order', async () => {
    const calls: string[][] = [];
    let inFlight = 0;
    let most = 0;
    let release!: () => void;
    const firstCallDone = new Promise<void>((resolve) => (release = resolve));
    const batcher = new InsertBatcher(async (items) => {
      most = Math.max(most, ++inFlight);
      calls.push(items.map((i) => `${i.groupCode}:${i.text}`));
      if (calls.length === 1) await firstCallDone;
      inFlight--;
      return items.map(stored);
    });
    const first = batcher.insert(message('g1', 'a'));
    while (calls.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const later = [batcher.insert(message('g2', 'b')), batcher.insert(message('g1', 'c'))];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toEqual([['g1:a']]);
    release();
    await Promise.all([first, ...later]);
    expect(calls).toEqual([['g1:a'], ['g2:b', 'g1:c']]);
    expect(most).toBe(1);
  });

  it('splits a failed call into one call per item, in order, so only the bad item fails', async () => {
    const { sink, calls } = recordingSink(['b']);
    const batcher = new InsertBatcher(sink);
    const outcomes = await Promise.allSettled(['a', 'b', 'c'].map((t) => batcher.insert(message('g', t))));
    expect(calls).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(new Error('bad item'));
  });

  it('tries an item once more when its client key lost a race (unique violation), and only then', async () => {
    const calls: string[][] = [];
    const raced = Object.assign(new Error('duplicate key'), { code: '23505' });
    const batcher = new InsertBatcher(async (items) => {
      calls.push(items.map((i) => i.text));
      if (calls.length <= 2) throw raced;
      return items.map((i) => ({ ...stored(i), created: false }));
    });
    const result = await batcher.insert(message('g', 'a', 'key'));
    expect(calls).toEqual([['a'], ['a'], ['a']]);
    expect(result?.created).toBe(false);

    // Without a client key there is nothing to find on a second run: the error is the answer.
    const plain = new InsertBatcher(async () => {
      throw raced;
    });
    await expect(plain.insert(message('g', 'b'))).rejects.toBe(raced);
  });

  it('answers a client key repeated in one batch from its first item, as a retry, without storing it twice', async () => {
    const { sink, calls } = recordingSink();
    const batcher = new InsertBatcher(sink);
    const [first, again, other] = await Promise.all([
      batcher.insert(message('g', 'a', 'k1')),
      batcher.insert(message('g', 'again', 'k1')),
      batcher.insert(message('g', 'c', 'k2')),
    ]);
    expect(calls).toEqual([['a', 'c']]);
    expect(first).toMatchObject({ created: true, participantCodes: ['p'] });
    expect(again).toMatchObject({ created: false, participantCodes: [], row: { text: 'a' } });
    expect(other?.row.text).toBe('c');
  });

  it("answers null for an item the sink did not store (not the author's group)", async () => {
    const batcher = new InsertBatcher(async (items) => items.map((i) => (i.text === 'stranger' ? null : stored(i))));
    const [ok, refused] = await Promise.all([batcher.insert(message('g', 'a')), batcher.insert(message('g', 'stranger'))]);
    expect(ok?.row.text).toBe('a');
    expect(refused).toBeNull();
  });
});

/** The wait admission reads on every send (NodeLoadSignals.insertWaitMs), with a database the test times. */
describe('InsertBatcher.waitMs', () => {
  const message = (groupCode: string, i: number): InsertMessage => ({
    groupCode,
    authorId: 'author',
    code: `code-${i}`,
    type: ChatMessageType.Text,
    text: `text ${i}`,
    lang: null,
    clientKey: null,
    fileIds: [],
    fileCodes: [],
  });
  const stored = (item: InsertMessage): InsertResult => ({ row: { code: item.code } as MessageRow, created: true, groupType: 0, participantCodes: [] });

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is what the oldest queued send has waited when the database does not answer', async () => {
    const batcher = new InsertBatcher(() => new Promise(() => undefined));
    expect(batcher.waitMs()).toBe(0);
    void batcher.insert(message('g', 0));
    await jest.advanceTimersByTimeAsync(1);
    void batcher.insert(message('g', 1));
    await jest.advanceTimersByTimeAsync(2000);
    expect(batcher.waitMs()).toBe(2000);
  });

  it('counts the statements ahead at their recent duration, before the head has waited that long', async () => {
    // Every statement takes 40 ms.
    const batcher = new InsertBatcher((items) => new Promise((resolve) => setTimeout(() => resolve(items.map(stored)), 40)));
    void batcher.insert(message('g', 0));
    await jest.advanceTimersByTimeAsync(100);
    // One statement running, 250 sends queued behind it: 3 more statements, 4 × 40 ms.
    void batcher.insert(message('g', 1));
    await jest.advanceTimersByTimeAsync(1);
    for (let i = 2; i < 252; i++) void batcher.insert(message('g', i));
    expect(batcher.waitMs()).toBe(160);
    await jest.advanceTimersByTimeAsync(1000);
    expect(batcher.waitMs()).toBe(0);
  });
});

/** An idle queue gathers a send's burst for 1 ms; a busy queue waits a few ms for more sends before its next statement. */
describe('InsertBatcher lingering', () => {
  const message = (n: number): InsertMessage => ({
    groupCode: 'g',
    authorId: 'author',
    code: `code-${n}`,
    type: ChatMessageType.Text,
    text: String(n),
    lang: null,
    clientKey: null,
    fileIds: [],
    fileCodes: [],
  });

  /** A sink whose every statement takes `ms` (fake time), recording when each started and what it held. */
  function timedSink(ms: number) {
    const calls: { at: number; texts: string[] }[] = [];
    const sink: InsertSink = (items) => {
      calls.push({ at: Date.now(), texts: items.map((i) => i.text) });
      return new Promise((resolve) =>
        setTimeout(() => resolve(items.map((i) => ({ row: { code: i.code } as MessageRow, created: true, groupType: 0, participantCodes: [] }))), ms),
      );
    };
    return { sink, calls };
  }

  /** Sends one message every `everyMs` for `forMs`, all in the same group; answers when all are stored. */
  async function sendSteadily(batcher: InsertBatcher, everyMs: number, forMs: number): Promise<number[]> {
    const sentAt: number[] = [];
    const stored: Promise<unknown>[] = [];
    for (let t = 0; t < forMs; t += everyMs) {
      sentAt.push(Date.now());
      stored.push(batcher.insert(message(sentAt.length - 1)));
      await jest.advanceTimersByTimeAsync(everyMs);
    }
    await jest.advanceTimersByTimeAsync(100);
    await Promise.all(stored);
    return sentAt;
  }

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stores each send 1 ms after it arrives while few arrive during a statement', async () => {
    // One send every 20 ms, statements of 2 ms: the queue is idle when each send arrives.
    const { sink, calls } = timedSink(2);
    const sentAt = await sendSteadily(new InsertBatcher(sink), 20, 1000);
    expect(calls.map((c) => c.texts.length)).toEqual(sentAt.map(() => 1));
    calls.forEach((c, i) => expect(c.at - sentAt[i]).toBe(1));
  });

  it('stores a burst that reaches an idle queue over several event-loop turns in one statement', async () => {
    // A load generator's tick: three sends on three sockets, read by the server in separate turns.
    const { sink, calls } = timedSink(2);
    const batcher = new InsertBatcher(sink);
    const startedAt = Date.now();
    const stored = [batcher.insert(message(0))];
    await jest.advanceTimersByTimeAsync(0);
    stored.push(batcher.insert(message(1)));
    await jest.advanceTimersByTimeAsync(0);
    stored.push(batcher.insert(message(2)));
    await Promise.all([...stored, jest.advanceTimersByTimeAsync(10)]);
    expect(calls).toEqual([{ at: startedAt + 1, texts: ['0', '1', '2'] }]);
  });

  it('gathers sends for up to 6 ms once several arrive during each statement, keeping their order', async () => {
    // One send a ms, statements of 4 ms: back to back they would hold 4 each.
    const { sink, calls } = timedSink(4);
    const sentAt = await sendSteadily(new InsertBatcher(sink), 1, 400);
    // The last statement holds what was left when the sends stopped.
    const later = calls.slice(10, -1);
    for (const { at, texts } of later) {
      const oldest = sentAt[Number(texts[0])];
      expect(at - oldest).toBeGreaterThanOrEqual(6);
      expect(at - oldest).toBeLessThanOrEqual(7);
      expect(texts.length).toBeGreaterThanOrEqual(5);
    }
    expect(calls.flatMap((c) => c.texts)).toEqual(sentAt.map((_, i) => String(i)));
  });

  it('does not linger on a queue that was idle, whatever its average said', async () => {
    const { sink, calls } = timedSink(4);
    const batcher = new InsertBatcher(sink);
    await sendSteadily(batcher, 1, 200);
    const before = calls.length;
    const sentAt = Date.now();
    await Promise.all([batcher.insert(message(1000)), jest.advanceTimersByTimeAsync(10)]);
    expect(calls.length).toBe(before + 1);
    expect(calls.at(-1)!.at).toBe(sentAt + 1);
  });

  it('does not wait once 40 sends are gathered', async () => {
    const { sink, calls } = timedSink(4);
    const batcher = new InsertBatcher(sink);
    const pending: Promise<unknown>[] = [];
    const send = (n: number) => pending.push(batcher.insert(message(n)));
    for (let n = 0; n < 100; n++) {
      send(n);
      await jest.advanceTimersByTimeAsync(1);
    }
    const burstAt = Date.now();
    for (let n = 100; n < 145; n++) send(n);
    for (let n = 145; n < 160; n++) {
      send(n);
      await jest.advanceTimersByTimeAsync(1);
    }
    await jest.advanceTimersByTimeAsync(100);
    await Promise.all(pending);
    // The burst waits at most for the statement running when it came, not for the gathering after it.
    const withBurst = calls.find((c) => c.texts.includes('100'))!;
    expect(withBurst.at - burstAt).toBeLessThanOrEqual(4);
    expect(withBurst.texts.length).toBeGreaterThanOrEqual(40);
    expect(calls.flatMap((c) => c.texts)).toEqual(Array.from({ length: 160 }, (_, n) => String(n)));
  });
});
