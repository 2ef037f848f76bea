import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { isDependencyUnavailable } from '../common/filters/unavailable';
import { RedisService } from '#shared/redis/redis.service';
import { SocketEmitter } from './socket-emitter.service';
import { SocketWriteBatch } from './socket-write-batch';
import { UnreadService } from '../modules/chat/unread.service';
import { fanoutStreamKey } from './fanout-stream';
import { OrderingGate } from './ordering-gate';
import { FanoutLag } from './fanout-lag';

/** How long a message may wait for its predecessor before it is let through anyway (the client syncs the gap). */
const HOLD_MS = 2000;
const READ_BLOCK_MS = 1000;
/** Publications Redis refused are retried this often, doubling up to the maximum (well inside HOLD_MS). */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 500;
/** A publication Redis refuses for another reason than being unavailable (a bug) is given up after this many tries. */
const MAX_REFUSALS = 5;

interface Delivery {
  rooms: string[];
  event: 'message:new' | 'unread:count';
  payload: unknown;
}

/** One stream entry: deliveries that every node makes to its own sockets. */
type FanoutEntry = Delivery[];

/** One message on its way to the gate (kept until Redis has taken it). */
interface Publication {
  groupCode: string;
  seq: number;
  entry: string;
  /** what the gate's release step does with it (see OrderingGate) */
  effect: string;
  /** failures that were not Redis being unavailable */
  refusals: number;
}

/**
 * Chat messages reach sockets in seq order per group, from every node. Concurrent sends commit in one order
 * but their fan-out could run in another (and on different nodes); so messages pass a per-group gate in Redis
 * into one shared stream, and every node reads that stream and delivers to its own sockets.
 *
 * A publication Redis does not take (away, restarting, LOADING) is kept here and retried until it does,
 * in seq order per group: later messages of that group queue behind it. The gate drops a seq it has already
 * released, so a retry whose first attempt did reach Redis delivers nothing twice. The gate runs the unread
 * owner's release step in the same call (see UnreadService): this service only passes its effect along.
 */
@Injectable()
export class OrderedFanoutService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OrderedFanoutService.name);
  private reader?: RedisClientType;
  private running = false;
  private sweeper?: NodeJS.Timeout;
  /** Per group, the publications waiting for Redis, in seq order. */
  private readonly backlog = new Map<string, Publication[]>();
  private retryTimer?: NodeJS.Timeout;
  private retrying = false;
  private retryDelay = RETRY_MIN_MS;
  private readonly gate: OrderingGate;

  constructor(
    private readonly redis: RedisService,
    private readonly emitter: SocketEmitter,
    private readonly unread: UnreadService,
    private readonly lag: FanoutLag,
  ) {
    this.gate = new OrderingGate(redis, unread.releaseStep);
  }

  private get stream(): string {
    return fanoutStreamKey(this.redis);
  }

  async onModuleInit(): Promise<void> {
    this.reader = this.redis.client.duplicate() as RedisClientType;
    this.reader.on('error', (err: Error) => this.logger.warn(`fan-out reader: ${err.message}`));
    await this.reader.connect();
    this.running = true;
    // Read from a concrete position, never '$': a read that fails (Redis away or LOADING) resumes from there,
    // so what was added meanwhile (the backlog a recovering node publishes) is not skipped.
    const [newest] = await this.redis.client.xRevRange(this.stream, '+', '-', { COUNT: 1 });
    this.read(newest?.id ?? '0-0').catch((err: unknown) => this.logger.error({ err }, 'fan-out reader stopped'));
    this.sweeper = setInterval(() => this.flushStalled().catch((err: unknown) => this.logger.warn(`fan-out sweep: ${(err as Error).message}`)), HOLD_MS / 2);
    this.sweeper.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    clearInterval(this.sweeper);
    clearTimeout(this.retryTimer);
    const unsent = [...this.backlog.values()].reduce((n, list) => n + list.length, 0);
    if (unsent) this.logger.warn(`stopping with ${unsent} message(s) not fanned out (Redis unavailable); clients get them by sync`);
    // The blocking read returns within READ_BLOCK_MS; closing the connection ends it at once.
    await this.reader?.destroy();
  }

  /**
   * Delivers a group's message to these rooms on every node, after all its group's lower seqs, with its
   * effect on unread counts (UnreadService.messageEffect). Never fails: what Redis does not take now is
   * retried until it does.
   */
  publishMessage(groupCode: string, seq: number, rooms: string[], payload: unknown, effect: string): void {
    const entry: FanoutEntry = [{ rooms, event: 'message:new', payload }];
    const publication: Publication = { groupCode, seq, entry: JSON.stringify(entry), effect, refusals: 0 };
    const waiting = this.backlog.get(groupCode);
    if (waiting) return inSeqOrder(waiting, publication);
    this.pass(publication).catch((err: unknown) => this.keepForRetry(publication, err));
  }

  private async pass(p: Publication): Promise<void> {
    const uncached = await this.gate.pass(p.groupCode, p.seq, p.entry, p.effect);
    this.unread.released(p.groupCode, uncached, p.seq);
  }

  private keepForRetry(p: Publication, err: unknown): void {
    let waiting = this.backlog.get(p.groupCode);
    if (!waiting) {
      waiting = [];
      this.backlog.set(p.groupCode, waiting);
      this.logger.warn(`fan-out of ${p.groupCode} waits for Redis: ${(err as Error).message}`);
    }
    inSeqOrder(waiting, p);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.retrying || !this.running) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.retryBacklog().catch((err: unknown) => this.logger.error({ err }, 'fan-out retry failed'));
    }, this.retryDelay);
    this.retryTimer.unref();
  }

  /** Publishes each group's waiting messages in order; stops at the first refusal and tries again later. */
  private async retryBacklog(): Promise<void> {
    this.retrying = true;
    try {
      for (const [groupCode, waiting] of this.backlog) {
        while (waiting.length) {
          await this.pass(waiting[0]).catch((err: unknown) => this.refused(waiting[0], err));
          waiting.shift();
        }
        this.backlog.delete(groupCode);
        this.logger.log(`fan-out of ${groupCode} caught up`);
      }
      this.retryDelay = RETRY_MIN_MS;
    } catch {
      this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
    } finally {
      this.retrying = false;
    }
    if (this.backlog.size) this.scheduleRetry();
  }

  /** Rethrows while Redis is unavailable (try again later); a publication it keeps refusing otherwise is dropped. */
  private refused(p: Publication, err: unknown): void {
    if (isDependencyUnavailable(err) || ++p.refusals < MAX_REFUSALS) throw err;
    this.logger.error({ err }, `fan-out of ${p.groupCode} gave up on seq ${p.seq} (clients get it by sync)`);
  }

  private async read(from: string): Promise<void> {
    let lastId = from;
    while (this.running && this.reader?.isOpen) {
      try {
        const reply = await this.reader.xRead({ key: this.stream, id: lastId }, { BLOCK: READ_BLOCK_MS, COUNT: 500 });
        const io = this.emitter.io;
        const writes = io ? new SocketWriteBatch(io.of('/')) : null;
        try {
          for (const batch of (reply as { messages: { id: string; message: Record<string, string> }[] }[] | null) ?? []) {
            for (const { id, message } of batch.messages) {
              lastId = id;
              this.lag.observe(id);
              this.deliver(message.e, writes);
            }
          }
        } finally {
          writes?.release();
        }
      } catch (err) {
        if (!this.running) return;
        this.logger.warn(`fan-out read failed: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  private deliver(raw: string | undefined, writes: SocketWriteBatch | null): void {
    if (!raw) return;
    // Every node reads the stream, so each delivers only to its own sockets.
    for (const { rooms, event, payload } of JSON.parse(raw) as FanoutEntry) {
      writes?.hold(rooms);
      this.emitter.io?.local.to(rooms).emit(event, payload as never);
    }
  }

  private async flushStalled(): Promise<void> {
    for (const groupCode of await this.gate.stalled(HOLD_MS)) {
      const { released, answers } = await this.gate.letThrough(groupCode, HOLD_MS);
      if (released > 0) this.logger.warn(`fan-out of ${groupCode}: let ${released} held message(s) past a missing seq`);
      this.unread.released(groupCode, answers, 0);
    }
  }
}

function inSeqOrder(list: Publication[], p: Publication): void {
  let i = list.length;
  while (i > 0 && list[i - 1].seq > p.seq) i--;
  list.splice(i, 0, p);
}
