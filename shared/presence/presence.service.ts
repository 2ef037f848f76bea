import { Injectable } from '@nestjs/common';
import { PresencePayload } from '../contracts/socket-events';
import { RedisService } from '../redis/redis.service';
import { RedisScript } from '../redis/redis-script';

/** Activity writes per user are throttled in-process to one per this interval. */
const ACTIVITY_WRITE_MS = 15_000;
const LAST_ACTIVE_TTL_S = 90 * 24 * 3600;
const SOCKETS_TTL_S = 24 * 3600;

// Decrements the socket counter without ever leaving it below zero, in one atomic step.
const SOCKET_GONE_SCRIPT = `
local left = redis.call('DECR', KEYS[1])
if left <= 0 then redis.call('DEL', KEYS[1]) return 0 end
return left`;
const socketGoneScript = new RedisScript(SOCKET_GONE_SCRIPT);

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
 */
@Injectable()
export class PresenceService {
  private readonly lastWrite = new Map<string, number>();

  constructor(private readonly redis: RedisService) {}

  private lastKey(code: string): string {
    return this.redis.key('presence', 'last', code);
  }

  private socketsKey(code: string): string {
    return this.redis.key('presence', 'sockets', code);
  }

  /** Records activity now; writes at most once per ACTIVITY_WRITE_MS per user from this process. */
  async recordActivity(userCode: string, force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - (this.lastWrite.get(userCode) ?? 0) < ACTIVITY_WRITE_MS) return;
    this.lastWrite.set(userCode, now);
    if (this.lastWrite.size > 100_000) this.lastWrite.clear();
    await this.redis.client.set(this.lastKey(userCode), String(now), { expiration: { type: 'EX', value: LAST_ACTIVE_TTL_S } });
  }

  /**
   * A batch of sockets connected (a user may appear once per socket): counts each and records activity for
   * their users, with the same per-user write throttle as recordActivity, in one round trip.
   */
  async socketsConnected(userCodes: string[]): Promise<void> {
    if (userCodes.length === 0) return;
    const now = Date.now();
    const multi = this.redis.client.multi();
    for (const code of userCodes) multi.incr(this.socketsKey(code)).expire(this.socketsKey(code), SOCKETS_TTL_S);
    for (const code of new Set(userCodes)) {
      if (now - (this.lastWrite.get(code) ?? 0) < ACTIVITY_WRITE_MS) continue;
      this.lastWrite.set(code, now);
      multi.set(this.lastKey(code), String(now), { expiration: { type: 'EX', value: LAST_ACTIVE_TTL_S } });
    }
    if (this.lastWrite.size > 100_000) this.lastWrite.clear();
    await multi.exec();
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
    const now = Date.now();
    return userCodes.map((userCode, i) => {
      const last = values[2 * i] ? Number(values[2 * i]) : null;
      return {
        userCode,
        online: Number(values[2 * i + 1] ?? 0) > 0,
        lastActiveAt: last ? new Date(last).toISOString() : null,
        away: last === null ? null : Math.max(0, Math.floor((now - last) / 60_000)),
      };
    });
  }
}
