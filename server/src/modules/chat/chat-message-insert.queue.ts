import { Injectable } from '@nestjs/common';
import { INSERT_LANES, laneOf } from './chat-message-insert.lanes';
import { againIfClientKeyRaced, ChatMessagesRepository, InsertMessage, InsertResult } from './chat-messages.repository';

const MAX_BATCH = 100;

interface Pending {
  input: InsertMessage;
  resolve: (result: InsertResult | null) => void;
  reject: (err: unknown) => void;
}

const repeatKey = (i: InsertMessage): string | null => (i.clientKey === null ? null : `${i.groupCode}\n${i.authorId}\n${i.clientKey}`);

interface Lane {
  queue: Pending[];
  busy: boolean;
}

/**
 * Micro-batching of the hot path: sends that arrive while their lane's statement is still running are stored
 * together in its next statement (one round trip, one commit) instead of one each. Nothing waits on a timer:
 * at low load every send goes at once (gathered only with those of the same event-loop turn), and batches
 * grow with the load. Messages with files and replies take the single-message statement.
 */
@Injectable()
export class ChatMessageInsertQueue {
  private readonly lanes: Lane[] = Array.from({ length: INSERT_LANES }, () => ({ queue: [], busy: false }));

  constructor(private readonly messages: ChatMessagesRepository) {}

  /** As ChatMessagesRepository.insert: the stored message, the earlier one for a repeated client key, or null. */
  insert(input: InsertMessage): Promise<InsertResult | null> {
    // Replies, like messages with files, take the single-message statement (the batch one has no reply column).
    if (input.fileIds.length || input.replyToId) return this.messages.insert(input);
    const lane = this.lanes[laneOf(input.groupCode)];
    return new Promise((resolve, reject) => {
      lane.queue.push({ input, resolve, reject });
      this.schedule(lane);
    });
  }

  private schedule(lane: Lane): void {
    if (lane.busy || lane.queue.length === 0) return;
    lane.busy = true;
    setImmediate(() => {
      const batch = lane.queue.splice(0, MAX_BATCH);
      this.run(batch)
        // run() settles every item itself; should it ever throw, its senders get the error rather than a hang.
        .catch((err: unknown) => batch.forEach((p) => p.reject(err)))
        .finally(() => {
          lane.busy = false;
          this.schedule(lane);
        });
    });
  }

  private async run(batch: Pending[]): Promise<void> {
    // A repeated (group, author, client key) in one batch is answered from its first item, as a retry.
    const first = new Map<string, Pending>();
    const repeats: [Pending, Pending][] = [];
    const unique: Pending[] = [];
    for (const pending of batch) {
      const key = repeatKey(pending.input);
      const earlier = key === null ? undefined : first.get(key);
      if (earlier) repeats.push([pending, earlier]);
      else {
        if (key !== null) first.set(key, pending);
        unique.push(pending);
      }
    }
    const outcomes = new Map<Pending, PromiseSettledResult<InsertResult | null>>();
    try {
      const results = await this.messages.insertTexts(unique.map((p) => p.input));
      unique.forEach((p, i) => outcomes.set(p, { status: 'fulfilled', value: results[i] }));
    } catch {
      // One bad item (or a client key stored meanwhile by another server) fails the whole statement: each
      // item is then stored on its own, in order, so only the bad one fails.
      for (const p of unique) {
        try {
          outcomes.set(p, { status: 'fulfilled', value: await this.insertAlone(p.input) });
        } catch (reason) {
          outcomes.set(p, { status: 'rejected', reason });
        }
      }
    }
    const settle = (p: Pending, outcome: PromiseSettledResult<InsertResult | null>, repeat: boolean) => {
      if (outcome.status === 'rejected') return p.reject(outcome.reason);
      const result = outcome.value;
      p.resolve(repeat && result ? { ...result, created: false, participantCodes: [] } : result);
    };
    for (const p of unique) settle(p, outcomes.get(p)!, false);
    for (const [p, earlier] of repeats) settle(p, outcomes.get(earlier)!, true);
  }

  private async insertAlone(input: InsertMessage): Promise<InsertResult | null> {
    return againIfClientKeyRaced(input, async () => (await this.messages.insertTexts([input]))[0]);
  }
}
