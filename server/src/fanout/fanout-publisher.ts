import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { ServerToClientEvents } from '#shared/contracts/socket-events';
import { RedisService } from '#shared/redis/redis.service';
import { isDependencyUnavailable } from '../common/filters/unavailable';
import { FanoutLag } from './fanout-lag';
import { FanoutNode } from './fanout-node';
import { LocalDelivery } from './local-delivery';
import { OrderingGate, OwnDeliveries, ReleaseStep } from './ordering-gate';

/** How long a message may wait for its predecessor before it is let through anyway (the client syncs the gap). */
const HOLD_MS = 2000;
/** Publications Redis refused are retried this often, doubling up to the maximum (well inside HOLD_MS). */
const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 500;
/** A publication Redis refuses for another reason than being unavailable (a bug) is given up after this many tries. */
const MAX_REFUSALS = 5;

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
 * What runs when the gate releases a message, owned elsewhere (the unread counts): its Lua step, run in the gate's
 * own call, and what to do with the step's answers afterwards. One owner, registered before anything is published.
 */
export interface ReleaseStepOwner {
  readonly releaseStep: ReleaseStep;
  released(groupCode: string, answers: string[], seenUpTo: number): void;
}

/**
 * The one way into the fan-out: everything a chat's sockets must see, in per-group order, from every node.
 * Concurrent sends commit in one order but their fan-out could run in another (and on different nodes); so each
 * message passes a per-group gate in Redis (OrderingGate) that routes it, in seq order, to the inboxes of the
 * nodes with sockets in its rooms (FanoutNode, fanout-routing.scripts), where InboxReader reads it. A follow-up
 * (an edit, a delete, a translation, a group change) passes the same gate right behind the message it concerns.
 * This node's own deliveries come back in its gate call's answer instead (LocalDelivery puts them in place).
 *
 * A publication Redis does not take (away, restarting, LOADING) is kept here and retried until it does, in seq
 * order per group: later ones of that group queue behind it. The gate drops a seq it has already released, so a
 * retry whose first attempt did reach Redis delivers nothing twice. A message whose predecessor never comes is let
 * through after HOLD_MS by a sweeper (any node's).
 */
@Injectable()
export class FanoutPublisher implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FanoutPublisher.name);
  private gate: OrderingGate;
  private stepOwner?: ReleaseStepOwner;
  private running = false;
  private sweeper?: NodeJS.Timeout;
  /** Per group, the publications waiting for Redis, in seq order. */
  private readonly backlog = new Map<string, Publication[]>();
  private retryTimer?: NodeJS.Timeout;
  private retrying = false;
  private retryDelay = RETRY_MIN_MS;
  /** Publications of this turn of the event loop, passed to the gate in one call (see flushOutgoing). */
  private outgoing: Publication[] = [];

  constructor(
    private readonly redis: RedisService,
    private readonly node: FanoutNode,
    private readonly local: LocalDelivery,
    private readonly lag: FanoutLag,
  ) {
    this.gate = new OrderingGate(redis, undefined, node.id);
  }

  /** Registers the release step's owner (once, at construction: before anything is published). */
  useReleaseStep(owner: ReleaseStepOwner): void {
    if (this.stepOwner) throw new Error('the fan-out has a release step already');
    this.stepOwner = owner;
    this.gate = new OrderingGate(this.redis, owner.releaseStep, this.node.id);
  }

  onModuleInit(): void {
    this.running = true;
    this.sweeper = setInterval(() => this.flushStalled().catch((err: unknown) => this.logger.warn(`fan-out sweep: ${(err as Error).message}`)), HOLD_MS / 2);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    this.running = false;
    clearInterval(this.sweeper);
    clearTimeout(this.retryTimer);
    const unsent = [...this.backlog.values()].reduce((n, list) => n + list.length, 0);
    if (unsent) this.logger.warn(`stopping with ${unsent} publication(s) not fanned out (Redis unavailable); clients get them by sync`);
  }

  /**
   * Delivers a group's message to these rooms on every node, after all its group's lower seqs, with its
   * effect for the release step (UnreadService.messageEffect); not to the socket it was sent from (`originSocketId`,
   * on this node), which has it in its acknowledgement. Never fails: what Redis does not take now is retried until
   * it does.
   */
  publishMessage(groupCode: string, seq: number, rooms: string[], payload: { code: string }, effect: string, originSocketId?: string): void {
    if (originSocketId) this.local.skipSocket(payload.code, originSocketId);
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
    const waiting = this.backlog.get(publication.groupCode);
    if (waiting) return inSeqOrder(waiting, publication);
    if (this.outgoing.push(publication) === 1) setImmediate(() => this.flushOutgoing());
  }

  /**
   * The publications of one event-loop turn (an insert batch's messages) go together, in one gate call: one round
   * trip and one script run instead of one each. What Redis does not take is kept for retry, each in its group's order.
   */
  private flushOutgoing(): void {
    const batch = this.outgoing;
    this.outgoing = [];
    this.passGate(batch)
      .then(
        (answers) => batch.forEach((p, i) => this.released(p.groupCode, answers[i], p.seq)),
        (err: unknown) => batch.forEach((p) => this.keepForRetry(p, err)),
      )
      .catch((err: unknown) => this.logger.error({ err }, 'fan-out publication failed'));
  }

  private released(groupCode: string, answers: string[], seenUpTo: number): void {
    this.stepOwner?.released(groupCode, answers, seenUpTo);
  }

  private async pass(p: Publication): Promise<void> {
    const [answers] = await this.passGate([p]);
    this.released(p.groupCode, answers, p.seq);
  }

  /** One gate call; this node's own deliveries in its answer are delivered (in order) before it resolves. */
  private async passGate(batch: readonly Publication[]): Promise<string[][]> {
    const call = this.local.order.callSent();
    const sentAt = Date.now();
    let own: OwnDeliveries | null = null;
    try {
      const answer = await this.gate.passAll(batch);
      own = answer.own;
      return answer.answers;
    } finally {
      this.local.order.answered(call, own);
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

  /** Publishes each group's waiting publications in order; stops at the first refusal and tries again later. */
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

  private async flushStalled(): Promise<void> {
    for (const groupCode of await this.gate.stalled(HOLD_MS)) {
      const { released, answers } = await this.gate.letThrough(groupCode, HOLD_MS);
      if (released > 0) this.logger.warn(`fan-out of ${groupCode}: let ${released} held message(s) past a missing seq`);
      this.released(groupCode, answers, 0);
    }
  }
}

/** Behind every publication of a lower or equal seq: a follow-up goes after its message. */
function inSeqOrder(list: Publication[], p: Publication): void {
  let i = list.length;
  while (i > 0 && list[i - 1].seq > p.seq) i--;
  list.splice(i, 0, p);
}
