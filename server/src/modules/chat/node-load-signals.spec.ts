import { ChatMessageType } from '#shared/contracts/chat';
import type { FanoutLag } from '../../realtime/fanout-lag';
import { ChatMessageInsertQueue, InsertBatcher } from './chat-message-insert.queue';
import { InsertMessage } from './chat-messages.repository';
import { NodeLoadSignals } from './node-load-signals';

/** The insert queue's wait as admission reads it on every send: a stalled database, and a queue ahead of a new send. */
describe('NodeLoadSignals.insertWaitMs', () => {
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
  const noLag = { take: () => 0 } as unknown as FanoutLag;

  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is 0 with nothing queued, the queue ahead at the floor throughput, then what its oldest send has waited', async () => {
    // A database that never answers: the first statement runs for ever and everything after it queues.
    const batcher = new InsertBatcher(() => new Promise(() => undefined));
    const signals = new NodeLoadSignals(noLag, batcher as ChatMessageInsertQueue);
    try {
      expect(signals.insertWaitMs()).toBe(0);
      void batcher.insert(message('g', 0));
      await jest.advanceTimersByTimeAsync(1);
      for (let i = 1; i <= 1200; i++) void batcher.insert(message('g', i));
      // 1,200 sends ahead, no throughput measured yet: the floor of 2 per ms (a statement takes 100) says 600 ms.
      expect(signals.insertWaitMs()).toBe(600);
      await jest.advanceTimersByTimeAsync(2000);
      expect(signals.insertWaitMs()).toBe(2000);
      expect(signals.read().insertWaitMs).toBe(2000);
    } finally {
      signals.onModuleDestroy();
    }
  });
});
