import { Injectable } from '@nestjs/common';
import { UnreadCountPayload } from '../contracts/socket-events';
import { ChatGroupsRepository } from '../modules/chat/chat-groups.repository';
import { RedisService } from '../redis/redis.service';

export const UNREAD_TOTAL_FIELD = '_total';
/** Beside a group's count, the group's last seq that a fill from Postgres counted (the fan-out adds only later ones). */
export const COUNTED_UP_TO_SUFFIX = '@';
export const UNREAD_TTL_MS = 10 * 60 * 1000;
const TOTAL = UNREAD_TOTAL_FIELD;
const TTL_MS = UNREAD_TTL_MS;

/** Sets one group's count after a read and moves the total by the difference; false when not cached. */
const SET_GROUP = `
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then return false end
local old = tonumber(redis.call('HGET', key, ARGV[1]) or '0')
local new = tonumber(ARGV[2])
if new == 0 then redis.call('HDEL', key, ARGV[1]) else redis.call('HSET', key, ARGV[1], new) end
local total = redis.call('HINCRBY', key, '${TOTAL}', new - old)
redis.call('PEXPIRE', key, ARGV[3])
return total`;

/**
 * Unread counts for pushes, so a message costs no query per recipient (the fan-out's message script
 * increments the cached counts in the same Redis call that publishes the message). Each user's counts live in a hash (group → n, plus the total) filled from Postgres when
 * missing and refilled on every read; entries expire, so any drift heals. REST answers stay exact from Postgres.
 */
@Injectable()
export class UnreadCacheService {
  constructor(
    private readonly redis: RedisService,
    private readonly groups: ChatGroupsRepository,
  ) {}

  private key(userCode: string): string {
    return this.redis.key('unread', userCode);
  }

  /** The Redis key of a user's cached counts (the fan-out's message script increments it). */
  keyOf(userCode: string): string {
    return this.key(userCode);
  }

  /** After a read: the group's remaining count and the user's new total. */
  async groupRead(userCode: string, groupCode: string, unread: number): Promise<UnreadCountPayload> {
    const total = await this.redis.client.eval(SET_GROUP, {
      keys: [this.key(userCode)],
      arguments: [groupCode, String(unread), String(TTL_MS)],
    });
    if (total === null) {
      const fresh = (await this.refresh([userCode])).get(userCode)!;
      return { total: fresh.total, groups: { [groupCode]: fresh.groups[groupCode] ?? 0 } };
    }
    return { total: Number(total), groups: { [groupCode]: unread } };
  }

  /** The user's counts, from the cache when it holds them. */
  async current(userCode: string): Promise<UnreadCountPayload> {
    const cached = await this.redis.client.hGetAll(this.key(userCode));
    if (cached[TOTAL] === undefined) return (await this.refresh([userCode])).get(userCode)!;
    const { [TOTAL]: total, ...fields } = cached;
    const groups = Object.entries(fields).filter(([g]) => !g.endsWith(COUNTED_UP_TO_SUFFIX));
    return { total: Number(total), groups: Object.fromEntries(groups.map(([g, n]) => [g, Number(n)])) };
  }

  /** Forgets users' counts (after deletes); the next push recomputes them. */
  async forget(userCodes: string[]): Promise<void> {
    if (userCodes.length) await this.redis.client.del(userCodes.map((c) => this.key(c)));
  }

  /** Recomputes users' counts from Postgres and caches them. */
  async refresh(userCodes: string[]): Promise<Map<string, UnreadCountPayload>> {
    const counts = new Map<string, UnreadCountPayload>(userCodes.map((c) => [c, { total: 0, groups: {} }]));
    const countedUpTo = new Map<string, Record<string, string>>(userCodes.map((c) => [c, {}]));
    for (const row of await this.groups.unreadByUserCodes(userCodes)) {
      countedUpTo.get(row.user_code)![row.code + COUNTED_UP_TO_SUFFIX] = String(row.last_seq);
      if (row.unread <= 0) continue;
      const c = counts.get(row.user_code)!;
      c.groups[row.code] = row.unread;
      c.total += row.unread;
    }
    const multi = this.redis.client.multi();
    for (const [code, c] of counts) {
      const key = this.key(code);
      multi.del(key);
      multi.hSet(key, {
        ...Object.fromEntries(Object.entries(c.groups).map(([g, n]) => [g, String(n)])),
        ...countedUpTo.get(code),
        [TOTAL]: String(c.total),
      });
      multi.pExpire(key, TTL_MS);
    }
    await multi.exec();
    return counts;
  }
}
