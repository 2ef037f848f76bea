import { Injectable } from '@nestjs/common';
import { UnreadCountPayload, userRoom } from '#shared/contracts/socket-events';
import { ChatGroupsRepository } from '../modules/chat/chat-groups.repository';
import { RedisService } from '#shared/redis/redis.service';
import { FANOUT_STREAM_MAX_LEN, fanoutStreamKey } from './fanout-stream';
import { APPLY_READ, FILL, TOTAL_FIELD, WATERMARK_SUFFIX } from './unread-cache.scripts';

export const UNREAD_TTL_MS = 10 * 60 * 1000;

interface GroupCount {
  code: string;
  unread: number;
  lastSeq: number;
}

/**
 * Unread counts for pushes, so a message costs no query per recipient: the fan-out's message script moves the
 * cached counts in the same Redis call that publishes the message, in seq order. Each user's counts live in a
 * hash (group → n, the seq each count accounts for, and the total), filled from Postgres when missing or when
 * a change can't be applied exactly; entries expire, so any drift heals. Every change is pushed through the
 * fan-out stream in the script that makes it, so pushes reach clients in the order they were computed.
 * REST answers stay exact from Postgres.
 */
@Injectable()
export class UnreadCacheService {
  constructor(
    private readonly redis: RedisService,
    private readonly groups: ChatGroupsRepository,
  ) {}

  /** The Redis key of a user's cached counts (the fan-out's message script moves it). */
  keyOf(userCode: string): string {
    return this.redis.key('unread', userCode);
  }

  /** After a read: sets the group's count (what Postgres said is left, up to `lastSeq`) and pushes the new counts. */
  async read(userCode: string, groupCode: string, unread: number, lastSeq: number): Promise<UnreadCountPayload> {
    const total = await this.redis.client.eval(APPLY_READ, {
      keys: [this.keyOf(userCode), fanoutStreamKey(this.redis)],
      arguments: [groupCode, String(unread), String(lastSeq), String(UNREAD_TTL_MS), userRoom(userCode), String(FANOUT_STREAM_MAX_LEN)],
    });
    if (total !== null) return { total: Number(total), groups: { [groupCode]: unread } };
    return (await this.fill([userCode], groupCode, lastSeq)).get(userCode)!;
  }

  /** The user's counts, from the cache when it holds them. */
  async current(userCode: string): Promise<UnreadCountPayload> {
    const cached = await this.redis.client.hGetAll(this.keyOf(userCode));
    if (cached[TOTAL_FIELD] === undefined) {
      const rows = (await this.snapshot([userCode])).get(userCode)!.filter((g) => g.unread > 0);
      return { total: rows.reduce((sum, g) => sum + g.unread, 0), groups: Object.fromEntries(rows.map((g) => [g.code, g.unread])) };
    }
    const { [TOTAL_FIELD]: total, ...fields } = cached;
    const counts = Object.entries(fields).filter(([g]) => !g.endsWith(WATERMARK_SUFFIX));
    return { total: Number(total), groups: Object.fromEntries(counts.map(([g, n]) => [g, Number(n)])) };
  }

  /**
   * Recomputes users' counts from Postgres, caches them and pushes each one's total and its count in this
   * group. `seenUpTo`: a seq of the group the caller knows committed (accounted for even if the group is
   * read to the end and so absent from the snapshot).
   */
  async fill(userCodes: string[], groupCode: string, seenUpTo = 0): Promise<Map<string, UnreadCountPayload>> {
    const groups = await this.snapshot(userCodes);
    const counts = new Map<string, UnreadCountPayload>();
    await Promise.all(
      userCodes.map(async (code) => {
        const rows = groups.get(code)!;
        if (!rows.some((r) => r.code === groupCode)) rows.push({ code: groupCode, unread: 0, lastSeq: seenUpTo });
        const [total, n] = (await this.redis.client.eval(FILL, {
          keys: [this.keyOf(code), fanoutStreamKey(this.redis)],
          arguments: [String(UNREAD_TTL_MS), userRoom(code), String(FANOUT_STREAM_MAX_LEN), groupCode, ...rows.flatMap((r) => [r.code, String(r.unread), String(r.lastSeq)])],
        })) as [number, number];
        counts.set(code, { total, groups: { [groupCode]: n } });
      }),
    );
    return counts;
  }

  /** Per user, the groups with anything after their read marker: what is unread, counted up to which seq. */
  private async snapshot(userCodes: string[]): Promise<Map<string, GroupCount[]>> {
    const groups = new Map(userCodes.map((c) => [c, [] as GroupCount[]]));
    for (const row of await this.groups.unreadByUserCodes(userCodes)) {
      groups.get(row.user_code)?.push({ code: row.code, unread: Math.max(row.unread, 0), lastSeq: Number(row.last_seq) });
    }
    return groups;
  }
}
