import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { isDependencyUnavailable } from '../common/filters/unavailable';
import { RedisService } from '#shared/redis/redis.service';
import { SocketEmitter } from './socket-emitter.service';
import { SocketWriteBatch } from './socket-write-batch';
import { UnreadService } from '../modules/chat/unread.service';
import { decodeFanoutEntry } from './fanout-entry';
import { FanoutNode } from './fanout-node';
import { OrderingGate, OwnDeliveries } from './ordering-gate';
import { DeliveryOrder, InboxEntry } from './delivery-order';
import { FanoutLag } from './fanout-lag';
import type { ServerToClientEvents } from '#shared/contracts/socket-events';

/** How long a message may wait for its predecessor before it is let through anyway (the client syncs the gap). */
const HOLD_MS = 2000;
const READ_BLOCK_MS = 1000;
/** Publications Redis refused are retried this often, doubling up to the maximum (well inside HOLD_MS). */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 500;
/** A publication Redis refuses for another reason than being unavailable (a bug) is given up after this many tries. */
const MAX_REFUSALS = 5;

interface StreamReply {
  messages: InboxEntry[];
}

/** One message, or a follow-up of one, on its way to the gate (kept until Redis has taken it). */
interface Publication {
  groupCode: string;
  seq: number;
  /** for a follow-up: when the message it follows was committed (ms since the epoch) */
  follows?: number;
  entry: string;
  /** what the gate's release step does with it (see OrderingGate) */
  effect: string;
  /** failures that were not Redis being unavailable */
  refusals: number;
}

/**
 * Chat messages reach sockets in seq order per group, from every node. Concurrent sends commit in one order
 * but their fan-out could run in another (and on different nodes); so messages pass a per-group gate in Redis
 * that routes them, in seq order, to the inboxes of the nodes with sockets in their rooms (FanoutNode,
 * fanout-routing.scripts); each node reads its own inbox and delivers to its own sockets. The deliveries for
 * this node's own sockets come back in its gate call's answer instead, and DeliveryOrder puts them in their
 * place among what its inbox holds.
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
  /** Publications of this turn of the event loop, passed to the gate in one call (see flushOutgoing). */
  private outgoing: Publication[] = [];
  private readonly gate: OrderingGate;
  private readonly order = new DeliveryOrder((entries) => this.deliverAll(entries));

  constructor(
    private readonly redis: RedisService,
    private readonly emitter: SocketEmitter,
    private readonly unread: UnreadService,
    private readonly node: FanoutNode,
    private readonly lag: FanoutLag,
  ) {
    this.gate = new OrderingGate(redis, unread.releaseStep, node.id);
  }

  async onModuleInit(): Promise<void> {
    this.reader = this.redis.client.duplicate() as RedisClientType;
    this.reader.on('error', (err: Error) => this.logger.warn(`fan-out reader: ${err.message}`));
    await this.reader.connect();
    this.running = true;
    const catchUpTo = await this.node.register();
    this.read(catchUpTo).catch((err: unknown) => this.logger.error({ err }, 'fan-out reader stopped'));
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
    this.publish({ groupCode, seq, entry: OrderingGate.entry(rooms, 'message:new', payload), effect, refusals: 0 });
  }

  /**
   * Delivers an event about a group's message (an edit, a delete, a translation) or about the group once it had
   * that message (a change of the group): right after that message on every node, never before it. `after` is the
   * message's seq and commit time (0 and null: nothing to wait for). Never fails, as publishMessage.
   */
  publishFollowUp<E extends keyof ServerToClientEvents>(
    groupCode: string,
    after: { seq: number; at: string | Date | null },
    rooms: string[],
    event: E,
    payload: Parameters<ServerToClientEvents[E]>[0],
  ): void {
    const follows = after.at === null ? 0 : new Date(after.at).getTime();
    this.publish({ groupCode, seq: after.seq, follows, entry: OrderingGate.entry(rooms, event, payload), effect: '', refusals: 0 });
  }

  private publish(publication: Publication): void {
    const { groupCode } = publication;
    const waiting = this.backlog.get(groupCode);
    if (waiting) return inSeqOrder(waiting, publication);
    if (this.outgoing.push(publication) === 1) setImmediate(() => this.flushOutgoing());
  }

  /**
   * The messages an insert batch committed are published together, in one gate call: one round trip and one
   * script run instead of one per message. What Redis does not take is kept for retry, each in its group's order.
   */
  private flushOutgoing(): void {
    const batch = this.outgoing;
    this.outgoing = [];
    this.passGate(batch)
      .then(
        (answers) => batch.forEach((p, i) => this.unread.released(p.groupCode, answers[i], p.seq)),
        (err: unknown) => batch.forEach((p) => this.keepForRetry(p, err)),
      )
      .catch((err: unknown) => this.logger.error({ err }, 'fan-out publication failed'));
  }

  private async pass(p: Publication): Promise<void> {
    const [uncached] = await this.passGate([p]);
    this.unread.released(p.groupCode, uncached, p.seq);
  }

  /** One gate call; this node's own deliveries in its answer are delivered (in order) before it resolves. */
  private async passGate(batch: readonly Publication[]): Promise<string[][]> {
    const call = this.order.callSent();
    const sentAt = Date.now();
    let own: OwnDeliveries | null = null;
    try {
      const answer = await this.gate.passAll(batch);
      own = answer.own;
      return answer.answers;
    } finally {
      this.order.answered(call, own);
      if (own) this.lag.observeDelivered(Date.now() - sentAt);
    }
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

  /**
   * Reads this node's inbox from its start. When Redis no longer knows the node (FanoutNode.lost), registers it
   * again first, delivers what the recent stream holds for it, and reads the new inbox from its start: nothing
   * is read from the inbox before what preceded it, so each group stays in order.
   */
  private async read(firstCatchUpTo: string): Promise<void> {
    // A concrete position, never '$': a read that fails (Redis away or LOADING) resumes from there.
    let lastId = '0-0';
    let catchUpTo = firstCatchUpTo;
    while (this.running && this.reader?.isOpen) {
      try {
        if (this.node.lost) {
          this.order.restart();
          catchUpTo = await this.node.register();
          lastId = '0-0';
        }
        if (catchUpTo) {
          await this.catchUp(catchUpTo);
          catchUpTo = '';
        }
        this.order.resume();
        const reply = (await this.reader.xRead({ key: this.node.inbox, id: lastId }, { BLOCK: READ_BLOCK_MS, COUNT: 500 })) as StreamReply[] | null;
        for (const batch of reply ?? []) {
          // The lag is the inbox's: entries delivered from the recent stream after a re-registration are old on purpose.
          for (const { id } of batch.messages) this.lag.observe(id);
          this.order.received(batch.messages);
          lastId = batch.messages.at(-1)?.id ?? lastId;
        }
      } catch (err) {
        if (!this.running) return;
        this.logger.warn(`fan-out read failed: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Delivers the recent stream's entries up to `until` that were not routed to this node (see FanoutNode.register). */
  private async catchUp(until: string): Promise<void> {
    let from = '-';
    for (;;) {
      const page = await this.reader!.xRange(this.node.recent, from, until, { COUNT: 500 });
      const missed = page.filter(({ message }) => !(message.t ?? '').split(',').includes(this.node.id));
      this.deliverAll(missed.map(({ message }) => message.e));
      this.node.counters.caughtUp += missed.length;
      if (page.length < 500) return;
      from = `(${page.at(-1)!.id}`;
    }
  }

  /** The one place every entry this node receives (from its inbox, its gate calls or the recent stream) passes through. */
  private deliverAll(entries: readonly (string | undefined)[]): void {
    const io = this.emitter.io;
    if (!io) return;
    const writes = new SocketWriteBatch(io.of('/'));
    try {
      for (const entry of entries) {
        this.node.counters.read++;
        if (entry) this.deliver(entry, writes);
      }
    } finally {
      writes.release();
    }
  }

  /** Only the deliveries for this node's rooms are in its inbox; each reaches this node's sockets in its rooms. */
  private deliver(entry: string, writes: SocketWriteBatch): void {
    for (const { rooms, packet } of decodeFanoutEntry(entry)) {
      writes.send(rooms, packet);
      this.node.counters.delivered++;
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
