import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { PresenceService, presenceBucket } from '#shared/presence/presence.service';
import { RedisService } from '#shared/redis/redis.service';
import { SocketEmitter } from './socket-emitter.service';

/** Every local user is looked at once per SWEEP_MS, a slice per tick, so the work never arrives as one burst. */
const SWEEP_MS = 30_000;
const SWEEP_SLICES = 15;
const SWEEP_BATCH = 200;

export const presenceRoom = (userCode: string) => `presence:${userCode}`;

/**
 * Pushes `presence` to the sockets watching a user when the user comes online, goes offline or moves to
 * another bucket (available, away, unavailable). What was last announced is kept in Redis, so several
 * nodes and quick reconnects never announce the same state twice.
 */
@Injectable()
export class PresenceBroadcaster implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PresenceBroadcaster.name);
  private sweep?: NodeJS.Timeout;
  private sweepTick = 0;
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private connecting: string[] = [];
  /** the batch that will take the users in `connecting` */
  private nextBatch?: Promise<void>;
  /** settles once every batch started so far has */
  private batches: Promise<void> = Promise.resolve();

  constructor(
    private readonly presence: PresenceService,
    private readonly redis: RedisService,
    private readonly emitter: SocketEmitter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // Fresh activity of a user whose watchers heard of it long ago (recorded on any node) goes out at once.
    this.presence.setAnnouncer((status) => this.emitter.io?.to(presenceRoom(status.userCode)).emit('presence', status));
    this.sweep = setInterval(() => this.sweepSlice().catch((err: unknown) => this.failed('sweeping presence', err)), SWEEP_MS / SWEEP_SLICES);
    this.sweep.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweep);
    this.pending.forEach((t) => clearTimeout(t));
  }

  /**
   * Sockets connecting in the same turn of the event loop (a wave of reconnects after a deploy) are counted and
   * announced together: three Redis round trips for the batch instead of four per socket.
   */
  connected(userCode: string): Promise<void> {
    clearTimeout(this.pending.get(userCode));
    this.pending.delete(userCode);
    this.connecting.push(userCode);
    if (!this.nextBatch) {
      this.nextBatch = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        const codes = this.connecting;
        this.connecting = [];
        this.nextBatch = undefined;
        return this.countConnected(codes);
      });
      this.batches = Promise.all([this.batches, this.nextBatch.catch(() => undefined)]).then(() => undefined);
    }
    return this.nextBatch;
  }

  private async countConnected(userCodes: string[]): Promise<void> {
    await this.presence.socketsConnected(userCodes);
    await this.announceIfChanged([...new Set(userCodes)]);
  }

  async disconnected(userCode: string): Promise<void> {
    // A socket's connect is counted before its disconnect, or the counter could stay up for a user who left.
    await this.batches;
    const left = await this.presence.socketDisconnected(userCode);
    if (left > 0) return;
    clearTimeout(this.pending.get(userCode));
    // Going offline is announced only if still offline after the grace time, so quick reconnects don't flap.
    const timer = setTimeout(() => {
      this.pending.delete(userCode);
      this.announceIfChanged([userCode]).catch((err: unknown) => this.failed('announcing an offline user', err));
    }, this.config.PRESENCE_OFFLINE_GRACE_MS);
    timer.unref();
    this.pending.set(userCode, timer);
  }

  private failed(what: string, err: unknown): void {
    this.logger.warn(`${what}: ${(err as Error).message}`);
  }

  /**
   * Users connected here may drift from available to away without any event, so they are looked at now and
   * then: each tick takes the users whose code falls in that tick's slice, in small batches.
   */
  private async sweepSlice(): Promise<void> {
    const io = this.emitter.io;
    if (!io) return;
    const slice = this.sweepTick++ % SWEEP_SLICES;
    const codes = new Set<string>();
    for (const socket of io.of('/').sockets.values()) {
      const code = (socket.data as { userCode?: string }).userCode;
      if (code && sliceOf(code) === slice) codes.add(code);
    }
    const list = [...codes];
    for (let i = 0; i < list.length; i += SWEEP_BATCH) {
      await this.announceIfChanged(list.slice(i, i + SWEEP_BATCH));
    }
  }

  private async announceIfChanged(userCodes: string[]): Promise<void> {
    if (userCodes.length === 0) return;
    const statuses = await this.presence.statuses(userCodes);
    const multi = this.redis.client.multi();
    const states = statuses.map((s) => `${s.online ? 'on' : 'off'}:${presenceBucket(s.away)}`);
    statuses.forEach((s, i) => multi.set(this.presence.announcedKey(s.userCode), states[i], { GET: true, expiration: { type: 'EX', value: 24 * 3600 } }));
    const previous = (await multi.exec()) as unknown as (string | null)[];
    statuses.forEach((s, i) => {
      if (previous[i] !== states[i]) this.emitter.io?.to(presenceRoom(s.userCode)).emit('presence', s);
    });
  }
}

/** A stable slice for a user code, so each user is swept once per cycle. */
function sliceOf(code: string): number {
  let hash = 0;
  for (let i = 0; i < code.length; i++) hash = (hash * 31 + code.charCodeAt(i)) | 0;
  return Math.abs(hash) % SWEEP_SLICES;
}
