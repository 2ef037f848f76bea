import { Injectable } from '@nestjs/common';
import { withTraceparent } from '#shared/telemetry/trace-context';
import { ChatMessagesRepository, InsertMessage, InsertResult } from '../chat-messages.repository';

const MAX_BATCH = 100;
/**
 * An idle queue's statement waits until its first send has waited this long: the sends of one burst reach the
 * server over several event-loop turns (one socket each), and go into one statement instead of two or three.
 */
const GATHER_MS = 1;
/** Weight of the newest statement's duration, and of the newest arrival rate, in their running averages. */
const STATEMENT_WEIGHT = 0.2;
/**
 * A busy queue gathers sends for up to this long (from the oldest one's arrival) before its next statement, or
 * until this many are queued. Busy: at least LINGER_FROM sends arrive, on average, while one statement runs.
 */
const LINGER_MS = 6;
const LINGER_BATCH = 40;
const LINGER_FROM = 3;
const UNIQUE_VIOLATION = '23505';

/** Stores items in one statement and answers each in item order (ChatMessagesRepository.insertMessages). */
export type InsertSink = (items: InsertMessage[]) => Promise<(InsertResult | null)[]>;

interface Pending {
  input: InsertMessage;
  /** Date.now() when it was queued */
  queuedAt: number;
  resolve: (result: InsertResult | null) => void;
  reject: (err: unknown) => void;
}

const repeatKey = (i: InsertMessage): string | null => (i.clientKey === null ? null : `${i.groupCode}\n${i.authorId}\n${i.clientKey}`);

/**
 * Micro-batching of the hot path: sends that arrive while a statement is still running are stored together in
 * the next statement (one round trip, one commit) instead of one each. One statement runs at a time, so every
 * group's messages are stored in arrival order. At low load a send waits GATHER_MS for the rest of its burst,
 * and batches grow with the load. A statement costs Postgres several times what a message in it adds
 * (docs/message-path.md, the insert queue), so a busy queue (see LINGER_FROM) also waits a few ms
 * for more sends before its next statement: fewer statements for the same messages when the cores are needed most.
 */
export class InsertBatcher {
  private readonly queue: Pending[] = [];
  /** a statement is running, or about to (its sends are being gathered) */
  private busy = false;
  /** set while the next statement's sends are being gathered */
  private linger?: NodeJS.Timeout;
  /** sends since the last statement started, and when it did */
  private arrivals = 0;
  private startedAt = 0;
  /** sends per ms (running average, sampled at each statement's start) */
  private arrivalRate = 0;

  constructor(private readonly sink: InsertSink) {}

  /** The stored message, the earlier one for a repeated client key, or null when the group isn't the author's. */
  insert(input: InsertMessage): Promise<InsertResult | null> {
    return new Promise((resolve, reject) => {
      // The send's trace continues in its outbox row; taken now, as the statement runs in another send's context.
      this.queue.push({ input: withTraceparent(input), queuedAt: Date.now(), resolve, reject });
      this.arrivals++;
      if (this.linger && this.queue.length >= LINGER_BATCH) {
        // Enough to go now; the rest of this event-loop turn's sends still join the statement.
        clearTimeout(this.linger);
        this.linger = undefined;
        setImmediate(() => this.start());
      } else this.schedule();
    });
  }

  /** How long a statement took lately (a running average), for the wait of the queue ahead of a send. */
  private statementMs = 0;

  /**
   * How long a send queued now would wait for its statement, for admission (NodeLoadSignals): the longer of
   * what the oldest queued send has waited (a stalled database) and the statements ahead of it at their recent
   * duration (a queue growing faster than it drains, before its head has waited that long). Cheap enough for
   * every send.
   */
  waitMs(now = Date.now()): number {
    if (!this.queue.length) return 0;
    const ahead = (Math.ceil(this.queue.length / MAX_BATCH) + (this.busy ? 1 : 0)) * this.statementMs;
    return Math.max(now - this.queue[0].queuedAt, ahead);
  }

  private schedule(): void {
    if (this.busy || this.queue.length === 0) return;
    this.busy = true;
    const wait = this.gatherMs();
    if (wait > 0) {
      this.linger = setTimeout(() => {
        this.linger = undefined;
        this.start();
      }, wait);
    } else setImmediate(() => this.start());
  }

  /**
   * How long the queue still gathers sends before its next statement, counted from its oldest send's arrival:
   * GATHER_MS, or LINGER_MS when it is busy; none once it has enough. Busy by the running average of its
   * arrivals and by those since its last statement started, so a queue that was just idle doesn't wait on an
   * old average.
   */
  private gatherMs(): number {
    if (this.queue.length >= LINGER_BATCH) return 0;
    const now = Date.now();
    const rate = Math.min(this.arrivalRate, this.arrivals / Math.max(1, now - this.startedAt));
    const busy = rate * this.statementMs >= LINGER_FROM;
    return (busy ? LINGER_MS : GATHER_MS) - (now - this.queue[0].queuedAt);
  }

  private start(): void {
    const batch = this.queue.splice(0, MAX_BATCH);
    const started = Date.now();
    if (this.startedAt && started > this.startedAt) {
      const rate = this.arrivals / (started - this.startedAt);
      this.arrivalRate += STATEMENT_WEIGHT * (rate - this.arrivalRate);
    }
    this.arrivals = 0;
    this.startedAt = started;
    this.run(batch)
      // run() settles every item itself; should it ever throw, its senders get the error rather than a hang.
      .catch((err: unknown) => batch.forEach((p) => p.reject(err)))
      .finally(() => {
        const took = Date.now() - started;
        this.statementMs = this.statementMs ? this.statementMs + STATEMENT_WEIGHT * (took - this.statementMs) : took;
        this.busy = false;
        this.schedule();
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
      const results = await this.sink(unique.map((p) => p.input));
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

  /**
   * One item alone, and once more if it lost a race with the same client key: the loser rolled back (no seq
   * used), and its second run finds the winner's row and answers it as a retry.
   */
  private async insertAlone(input: InsertMessage): Promise<InsertResult | null> {
    const once = async () => (await this.sink([input]))[0];
    try {
      return await once();
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION && input.clientKey) return once();
      throw err;
    }
  }
}

/** The app's batcher, storing through the repository's one statement. */
@Injectable()
export class ChatMessageInsertQueue extends InsertBatcher {
  constructor(messages: ChatMessagesRepository) {
    super((items) => messages.insertMessages(items));
  }
}
