import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { PresencePayload } from '../contracts/socket-events';
import { RedisService } from '../redis/redis.service';
import { RedisScript } from '../redis/redis-script';
import { PresenceClock } from './presence-clock';

/** Activity writes per user are throttled in-process to one per this interval; the last one held back is written at its end. */
const ACTIVITY_WRITE_MS = 15_000;
/**
 * Watchers hear of fresh activity when what they last heard is at least this old: they count the minutes on from
 * what they heard, so an active user's last push is never older than this plus one write interval (45 s), well
 * inside the minute and more that still shows as available.
 */
const WATCHERS_TOLD_MS = 30_000;
const LAST_ACTIVE_TTL_S = 90 * 24 * 3600;
const SOCKETS_TTL_S = 24 * 3600;
const ANNOUNCED_TTL_S = 24 * 3600;

// Decrements the socket counter without ever leaving it below zero, in one atomic step.
const SOCKET_GONE_SCRIPT = `
local left = redis.call('DECR', KEYS[1])
if left <= 0 then redis.call('DEL', KEYS[1]) return 0 end
return left`;
const socketGoneScript = new RedisScript(SOCKET_GONE_SCRIPT);

// KEYS: last activity, last activity watchers were told of, sockets, announced state. ARGV: at, TTLs, WATCHERS_TOLD_MS.
// Moves the last activity forward (never back, whichever node writes first); answers the user's socket count when
// the watchers should hear of it (what they heard is old), else -2 (written, not told yet) or -1 (nothing newer).
// The announced state is then available.
const TOUCH_SCRIPT = `
local at = tonumber(ARGV[1])
if at <= tonumber(redis.call('GET', KEYS[1]) or '0') then return -1 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
if at - tonumber(redis.call('GET', KEYS[2]) or '0') < tonumber(ARGV[4]) then return -2 end
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3])
local sockets = tonumber(redis.call('GET', KEYS[3]) or '0')
redis.call('SET', KEYS[4], (sockets > 0 and 'on' or 'off') .. ':available', 'EX', ARGV[3])
return sockets`;
const touchScript = new RedisScript(TOUCH_SCRIPT);

// Same keys; ARGV: TTL. When the last activity is newer than what the watchers heard, marks it told and answers
// {sockets, last activity}, else -1: the catch-up of an activity written between two pushes, once over all nodes.
const CATCH_UP_SCRIPT = `
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if last <= tonumber(redis.call('GET', KEYS[2]) or '0') then return -1 end
redis.call('SET', KEYS[2], last, 'EX', ARGV[1])
local sockets = tonumber(redis.call('GET', KEYS[3]) or '0')
redis.call('SET', KEYS[4], (sockets > 0 and 'on' or 'off') .. ':available', 'EX', ARGV[1])
return {sockets, last}`;
const catchUpScript = new RedisScript(CATCH_UP_SCRIPT);
/** How often the catch-ups that are due are looked for. */
const CATCH_UP_TICK_MS = 5_000;

export type PresenceBucket = 'available' | 'away' | 'unavailable';

/** The spec's presence rule: 1 minute or less since the last activity is available, up to 60 away, else unavailable. */
export function presenceBucket(awayMinutes: number | null): PresenceBucket {
  if (awayMinutes === null) return 'unavailable';
  if (awayMinutes <= 1) return 'available';
  if (awayMinutes <= 60) return 'away';
  return 'unavailable';
}

/**
 * Presence lives in Redis: the last activity per user (ms timestamp) and a counter of connected sockets,
 * so every node and the REST API read the same thing. Many users are read in one round trip.
 *
 * Last activity is defined here once: an authenticated request, a socket event that acts (a send, an edit, a
 * connect) or the client's `activity` (a visible tab's interaction). Its changes reach watchers through the
 * announcer (the realtime side's presence pushes).
 */
@Injectable()
export class PresenceService implements OnModuleDestroy {
  private readonly lastWrite = new Map<string, number>();
  /** activity held back by the write throttle: the latest time per user, written at the end of the interval */
  private readonly heldBack = new Map<string, number>();
  private flushTimer?: NodeJS.Timeout;
  /** users whose last activity was written without a push: when their watchers must hear of it */
  private readonly catchUps = new Map<string, number>();
  private catchUpTimer?: NodeJS.Timeout;
  private announcer?: (status: PresencePayload) => void;

  constructor(
    private readonly redis: RedisService,
    private readonly clock: PresenceClock,
  ) {}

  onModuleDestroy(): void {
    clearTimeout(this.flushTimer);
    clearInterval(this.catchUpTimer);
  }

  /** Who pushes a status whose fresh activity watchers should hear of (the realtime side sets it). */
  setAnnouncer(announce: (status: PresencePayload) => void): void {
    this.announcer = announce;
  }

  private lastKey(code: string): string {
    return this.redis.key('presence', 'last', code);
  }

  private socketsKey(code: string): string {
    return this.redis.key('presence', 'sockets', code);
  }

  /** The state last pushed to a user's watchers (`on:available`, …), kept so no node pushes the same twice. */
  announcedKey(code: string): string {
    return this.redis.key('presence', 'announced', code);
  }

  /**
   * Records activity `agoMs` before now (the client reports an interaction its own throttle held back); writes at most once per
   * ACTIVITY_WRITE_MS per user from this process, and what the throttle held back at the end of that interval,
   * so the stored time is exact to the event.
   */
  async recordActivity(userCode: string, force = false, agoMs = 0): Promise<void> {
    const now = this.clock.now();
    const when = now - Math.max(0, agoMs);
    if (!force && now - (this.lastWrite.get(userCode) ?? -Infinity) < ACTIVITY_WRITE_MS) {
      if (when > (this.heldBack.get(userCode) ?? 0)) this.heldBack.set(userCode, when);
      this.flushHeldBackLater();
      return;
    }
    this.lastWrite.set(userCode, now);
    this.heldBack.delete(userCode);
    if (this.lastWrite.size > 100_000) this.lastWrite.clear();
    await this.touch(userCode, when, now);
  }

  private flushHeldBackLater(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const held = [...this.heldBack];
      this.heldBack.clear();
      const now = this.clock.now();
      for (const [code, at] of held) {
        this.lastWrite.set(code, now);
        this.touch(code, at, now).catch(() => undefined);
      }
    }, ACTIVITY_WRITE_MS);
    this.flushTimer.unref();
  }

  private touchKeys(userCode: string): string[] {
    return [this.lastKey(userCode), this.redis.key('presence', 'told', userCode), this.socketsKey(userCode), this.announcedKey(userCode)];
  }

  /**
   * Writes the activity; pushes it to the watchers if what they heard is old, else within WATCHERS_TOLD_MS (the
   * catch-up): so the last activity of someone who has left reaches every watcher long before it shows as minutes.
   */
  private async touch(userCode: string, at: number, now: number): Promise<void> {
    const sockets = Number(
      await touchScript.run(this.redis.client, {
        keys: this.touchKeys(userCode),
        arguments: [String(at), String(LAST_ACTIVE_TTL_S), String(ANNOUNCED_TTL_S), String(WATCHERS_TOLD_MS)],
      }),
    );
    if (sockets === -2 && !this.catchUps.has(userCode)) this.scheduleCatchUp(userCode, now + WATCHERS_TOLD_MS);
    if (sockets < 0) return;
    this.announcer?.(statusOf(userCode, sockets > 0, at, now));
  }

  private scheduleCatchUp(userCode: string, due: number): void {
    this.catchUps.set(userCode, due);
    this.catchUpTimer ??= setInterval(() => this.catchUp(), CATCH_UP_TICK_MS);
    this.catchUpTimer.unref();
  }

  private catchUp(): void {
    const now = this.clock.now();
    for (const [userCode, due] of this.catchUps) {
      if (due > now) continue;
      this.catchUps.delete(userCode);
      catchUpScript
        .run(this.redis.client, { keys: this.touchKeys(userCode), arguments: [String(ANNOUNCED_TTL_S)] })
        .then((told) => {
          if (Array.isArray(told)) this.announcer?.(statusOf(userCode, Number(told[0]) > 0, Number(told[1]), this.clock.now()));
        })
        .catch(() => this.scheduleCatchUp(userCode, now + CATCH_UP_TICK_MS));
    }
    if (this.catchUps.size === 0) {
      clearInterval(this.catchUpTimer);
      this.catchUpTimer = undefined;
    }
  }

  /**
   * A batch of sockets connected (a user may appear once per socket): counts each and records activity for
   * their users, with the same per-user write throttle as recordActivity.
   */
  async socketsConnected(userCodes: string[]): Promise<void> {
    if (userCodes.length === 0) return;
    const multi = this.redis.client.multi();
    for (const code of userCodes) multi.incr(this.socketsKey(code)).expire(this.socketsKey(code), SOCKETS_TTL_S);
    await multi.exec();
    await Promise.all([...new Set(userCodes)].map((code) => this.recordActivity(code)));
  }
  /** Counts a connected socket; answers how many the user has now. */
  async socketConnected(userCode: string): Promise<number> {
    const key = this.socketsKey(userCode);
    const [count] = (await this.redis.client.multi().incr(key).expire(key, SOCKETS_TTL_S).exec()) as unknown as [number];
    return Number(count);
  }

  /** Counts a socket gone; never below zero. Answers how many remain. */
  async socketDisconnected(userCode: string): Promise<number> {
    return Number(await socketGoneScript.run(this.redis.client, { keys: [this.socketsKey(userCode)] }));
  }

  /** Online = at least one connected socket, on any node. */
  async isOnline(userCode: string): Promise<boolean> {
    return Number((await this.redis.client.get(this.socketsKey(userCode))) ?? 0) > 0;
  }

  async onlineAmong(userCodes: string[]): Promise<Set<string>> {
    if (userCodes.length === 0) return new Set();
    const counts = await this.redis.client.mGet(userCodes.map((c) => this.socketsKey(c)));
    return new Set(userCodes.filter((_, i) => Number(counts[i] ?? 0) > 0));
  }

  /** Statuses of any users (no visibility check: for pushes and internal use; viewers ask PresenceAudience). */
  async statuses(userCodes: string[]): Promise<PresencePayload[]> {
    if (userCodes.length === 0) return [];
    const keys = userCodes.flatMap((c) => [this.lastKey(c), this.socketsKey(c)]);
    const values = await this.redis.client.mGet(keys);
    const now = this.clock.now();
    return userCodes.map((userCode, i) => statusOf(userCode, Number(values[2 * i + 1] ?? 0) > 0, values[2 * i] ? Number(values[2 * i]) : null, now));
  }
}

/** A status as of `now`: the minutes are whole minutes since the last activity, rounded down once. */
function statusOf(userCode: string, online: boolean, last: number | null, now: number): PresencePayload {
  const idleMs = last === null ? null : Math.max(0, now - last);
  return {
    userCode,
    online,
    lastActiveAt: last === null ? null : new Date(last).toISOString(),
    away: idleMs === null ? null : Math.floor(idleMs / 60_000),
    idleMs,
  };
}
