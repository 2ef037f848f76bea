import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { Adapter } from 'socket.io-adapter';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { groupRoom, userRoom } from '#shared/contracts/socket-events';
import { RedisService } from '#shared/redis/redis.service';
import { fanoutKeys, HEARTBEAT, REGISTER, routeConfig, SUBSCRIBE, UNREGISTER } from './fanout-routing.scripts';

/** A room subscribed for a handshake that never became a connection is dropped after this. */
const ABANDONED_AFTER_MS = 30_000;
/** How long a handshake waits at most for its room's registration while Redis answers (a busy machine can take seconds). */
const SUBSCRIBE_WAIT_MS = 10_000;
const FLUSH_RETRY_MS = 500;
/** How long a shutdown waits to leave its rooms in Redis. */
const LEAVE_WAIT_MS = 2000;

/** The fan-out's rooms: a user's sockets and a group's watching moderators. Others (presence, socket ids) go through the adapter. */
const routedRoom = (room: string): boolean => room.startsWith(userRoom('')) || room.startsWith(groupRoom(''));

/** What this node has read and delivered, for the load scripts (written to its stats hash on each heartbeat). */
export interface FanoutCounters {
  /** entries received: from the inbox, or in the answer of one of its own gate calls */
  read: number;
  /** entries delivered from the recent stream after a re-registration */
  caughtUp: number;
  /** deliveries (an event to a set of rooms) emitted to this node's sockets */
  delivered: number;
}

/**
 * This process as a fan-out node: its id, its inbox, and the rooms it is registered in (see
 * fanout-routing.scripts). A room is subscribed when its first local socket joins it and unsubscribed when
 * the last one leaves (the Socket.IO adapter's create-room / delete-room), the changes of one event-loop
 * turn in one Redis call. A heartbeat keeps the inbox alive; when it finds the inbox gone (Redis lost its
 * data, or the node was away longer than its TTL) the node is `lost` until the reader registers it again.
 */
@Injectable()
export class FanoutNode implements OnModuleDestroy {
  private readonly logger = new Logger(FanoutNode.name);
  readonly id = randomBytes(6).toString('hex');
  readonly counters: FanoutCounters = { read: 0, caughtUp: 0, delivered: 0 };
  /** Set when Redis no longer knows this node; the reader registers it again before reading on. */
  lost = false;
  private readonly rooms = new Set<string>();
  /** Changes not yet written: room → subscribed. */
  private readonly changes = new Map<string, boolean>();
  /** Rooms subscribed ahead of handshakes: per room, the sockets (id → when) that have not joined it yet. */
  private readonly ahead = new Map<string, Map<string, number>>();
  private waiters: (() => void)[] = [];
  private flushing = false;
  private flushTimer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private stopped = false;
  private readonly ttlMs: number;
  private adapter?: Adapter;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.ttlMs = config.FANOUT_NODE_TTL_MS;
  }

  get inbox(): string {
    return fanoutKeys.inbox(this.redis.prefix, this.id);
  }

  get recent(): string {
    return fanoutKeys.recent(this.redis.prefix);
  }

  private get stats(): string {
    return fanoutKeys.stats(this.redis.prefix, this.id);
  }

  /** Follows the namespace's rooms: the first local socket in a room subscribes it, the last to leave unsubscribes. */
  watchRooms(adapter: Adapter): void {
    this.adapter = adapter;
    adapter.on('create-room', (room: string) => {
      if (routedRoom(room) && !this.rooms.has(room)) this.change(room, true);
    });
    adapter.on('join-room', (room: string, socketId: string) => {
      const waiting = this.ahead.get(room);
      if (waiting?.delete(socketId) && waiting.size === 0) this.ahead.delete(room);
    });
    adapter.on('delete-room', (room: string) => {
      // A handshake into this room is under way: its socket joins in a moment.
      if (routedRoom(room) && !this.ahead.has(room)) this.change(room, false);
    });
    this.heartbeat = setInterval(() => this.beat(), Math.max(100, Math.floor(this.ttlMs / 5)));
    this.heartbeat.unref();
    // After a reconnect, find out at once whether Redis still knows this node.
    this.redis.client.on('ready', () => this.beat());
  }

  /**
   * Resolves once this room is registered for this node, so a socket about to join it misses no message
   * routed after its handshake (see docs/message-path.md, "Registered before connected"); after SUBSCRIBE_WAIT_MS at the latest, and at once
   * while Redis is unreachable (the room is written when it is back; the client's sync fails until then).
   */
  subscribeAhead(room: string, socketId: string): Promise<void> {
    let waiting = this.ahead.get(room);
    if (!waiting) this.ahead.set(room, (waiting = new Map()));
    waiting.set(socketId, Date.now());
    if (!this.rooms.has(room)) {
      this.change(room, true);
    } else if (!this.changes.has(room) && !this.lost) {
      return Promise.resolve();
    }
    if (!this.redis.client.isReady) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Creates the inbox and asserts every local room. Answers the recent stream's id up to which this node must
   * deliver from there (Redis lost its data a moment ago), or ''.
   */
  async register(): Promise<string> {
    const changes = [...this.changes];
    this.changes.clear();
    const removed = changes.filter(([, on]) => !on).map(([room]) => room);
    const catchUpTo = (await this.redis.client
      .eval(REGISTER, {
        keys: [this.inbox, this.stats],
        arguments: [routeConfig(this.redis.prefix), this.id, String(this.ttlMs), String(process.pid), ...this.rooms, '-', ...removed],
      })
      .catch((err: unknown) => {
        for (const [room, on] of changes) if (!this.changes.has(room)) this.changes.set(room, on);
        throw err;
      })) as string;
    if (this.lost) this.logger.warn(`fan-out node ${this.id} registered again with ${this.rooms.size} room(s)`);
    this.lost = false;
    this.releaseWaiters();
    return catchUpTo;
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.flushTimer);
    if (!this.redis.client.isReady) return;
    // Best effort: a Redis that stopped answering must not hold the shutdown up (the inbox expires anyway).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.redis.client
        .eval(UNREGISTER, { keys: [this.inbox, this.stats], arguments: [routeConfig(this.redis.prefix), this.id, ...this.rooms] })
        .catch((err: unknown) => this.logger.warn(`fan-out node leaving: ${(err as Error).message}`)),
      new Promise((resolve) => (timer = setTimeout(resolve, LEAVE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  private change(room: string, on: boolean): void {
    if (on) this.rooms.add(room);
    else this.rooms.delete(room);
    this.changes.set(room, on);
    this.scheduleFlush(0);
  }

  private scheduleFlush(delay: number): void {
    if (this.flushTimer || this.flushing || this.stopped) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flush().catch((err: unknown) => this.logger.error({ err }, 'fan-out subscriptions'));
    }, delay);
    this.flushTimer.unref();
  }

  /** Writes the pending room changes in one call; while the node is lost, its next registration carries them. */
  private async flush(): Promise<void> {
    if (this.changes.size === 0 || this.lost) return;
    const batch = [...this.changes];
    this.changes.clear();
    const waiters = this.waiters;
    this.waiters = [];
    this.flushing = true;
    let retry = false;
    try {
      const added = batch.filter(([, on]) => on).map(([room]) => room);
      const removed = batch.filter(([, on]) => !on).map(([room]) => room);
      const known = await this.redis.client.eval(SUBSCRIBE, {
        keys: [this.inbox],
        arguments: [routeConfig(this.redis.prefix), this.id, ...added, '-', ...removed],
      });
      if (known === 1) waiters.forEach((w) => w());
      else {
        this.lost = true;
        this.waiters.push(...waiters);
      }
    } catch (err) {
      // Put back what a later change did not overwrite, and try again.
      for (const [room, on] of batch) if (!this.changes.has(room)) this.changes.set(room, on);
      this.waiters.push(...waiters);
      this.logger.warn(`fan-out subscriptions wait for Redis: ${(err as Error).message}`);
      retry = true;
    } finally {
      this.flushing = false;
    }
    if (this.changes.size) this.scheduleFlush(retry ? FLUSH_RETRY_MS : 0);
  }

  private releaseWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((w) => w());
    if (this.changes.size) this.scheduleFlush(0);
  }

  private beat(): void {
    if (this.stopped || this.lost) return;
    this.dropAbandoned();
    const { read, caughtUp, delivered } = this.counters;
    this.redis.client
      .eval(HEARTBEAT, {
        keys: [this.inbox, this.stats],
        arguments: [String(this.ttlMs), 'read', String(read), 'caughtUp', String(caughtUp), 'delivered', String(delivered), 'rooms', String(this.rooms.size)],
      })
      .then(
        (alive) => {
          if (alive === 0 && !this.lost) {
            this.lost = true;
            this.logger.warn(`fan-out node ${this.id}: Redis no longer knows it; registering again`);
          }
        },
        (err: unknown) => this.logger.warn(`fan-out heartbeat: ${(err as Error).message}`),
      );
  }

  /** Rooms subscribed for a handshake whose socket never joined them (the client went away first). */
  private dropAbandoned(): void {
    const before = Date.now() - ABANDONED_AFTER_MS;
    for (const [room, waiting] of this.ahead) {
      for (const [socketId, at] of waiting) if (at <= before) waiting.delete(socketId);
      if (waiting.size) continue;
      this.ahead.delete(room);
      if (this.rooms.has(room) && !this.adapter?.rooms.has(room)) this.change(room, false);
    }
  }
}
