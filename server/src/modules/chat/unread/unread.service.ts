import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { DomainEvents } from '../../../common/events/domain-events';
import { UnreadCountPayload, userRoom } from '#shared/contracts/socket-events';
import { RedisScript } from '#shared/redis/redis-script';
import { RedisService } from '#shared/redis/redis.service';
import { routeConfig } from '../../../fanout/fanout-routing.scripts';
import { FanoutPublisher, ReleaseStepOwner } from '../../../fanout/fanout-publisher';
import { ChatGroupEntity } from '../chat-group.entity';
import { UnreadCountDto } from '../dto/chat-response.dto';
import { UnreadCountsRepository } from './unread-counts.repository';
import { APPLY_READ, COUNT_RELEASED, FILL, REFRESH_FIELD, TOTAL_FIELD, WATERMARK_SUFFIX } from './unread-counts.scripts';

export const UNREAD_TTL_MS = 10 * 60 * 1000;
/** For the ordering gate (a ReleaseStep): counts a released message, given messageEffect() as its effect. */
export const UNREAD_RELEASE_STEP = { lua: COUNT_RELEASED, config: JSON.stringify({ ttl: UNREAD_TTL_MS, room: userRoom('') }) };
const FILL_ATTEMPTS = 10;
const FILL_RETRY_MS = 500;
const applyRead = new RedisScript(APPLY_READ);
const fill = new RedisScript(FILL);

interface GroupCount {
  code: string;
  unread: number;
  lastSeq: number;
}

/**
 * The one owner of unread counts. Postgres is the truth: counts are never stored, but computed from read
 * markers (UnreadCountsRepository), so REST answers are exact. Redis holds a cache of them for pushes, so a
 * message costs no query per recipient: per user a hash of group → n, the seq each count accounts for, and
 * the total; filled from Postgres when missing or when a change can't be applied exactly; entries expire, so
 * any drift heals. Every change is pushed through the fan-out (fanout-routing.scripts) by the script that
 * makes it, so pushes reach clients in the order they were computed.
 *
 * A message is counted by a step of this owner's (COUNT_RELEASED) that the ordering gate runs in the same
 * Redis call that releases the message, rather than by a call of our own after the gate: one atomic script
 * means exactly once and in seq order even when a server dies between the two or a publication is retried.
 */
@Injectable()
export class UnreadService implements ReleaseStepOwner, OnModuleDestroy {
  private readonly logger = new Logger(UnreadService.name);
  private stopped = false;

  readonly releaseStep = UNREAD_RELEASE_STEP;

  constructor(
    private readonly truth: UnreadCountsRepository,
    private readonly redis: RedisService,
    private readonly events: DomainEvents,
    fanout: FanoutPublisher,
  ) {
    fanout.useReleaseStep(this);
  }

  onModuleDestroy(): void {
    this.stopped = true;
  }

  /** The user's counts, exact, from Postgres. */
  async counts(user: AuthUser): Promise<UnreadCountDto> {
    const rows = await this.truth.byGroup(user.id);
    const groups: Record<string, number> = {};
    let total = 0;
    for (const r of rows) {
      if (r.unread > 0) {
        groups[r.code] = r.unread;
        total += r.unread;
      }
    }
    return { total, groups };
  }

  /** Moves the read marker; the promise settles once listeners (the realtime push) have run. */
  async markRead(user: AuthUser, group: ChatGroupEntity, seq: number): Promise<number> {
    const { readSeq, unread, lastSeq } = await this.truth.markRead(group.id, user.id, seq);
    await this.events.emit('group.read', { groupCode: group.code, userCode: user.code, seq: readSeq, unread, lastSeq });
    return readSeq;
  }

  /** The user's counts, from the cache when it holds them. */
  async current(userCode: string): Promise<UnreadCountPayload> {
    const cached = await this.redis.client.hGetAll(this.keyOf(userCode));
    if (cached[TOTAL_FIELD] === undefined) {
      const rows = (await this.snapshot([userCode])).get(userCode)!.filter((g) => g.unread > 0);
      return { total: rows.reduce((sum, g) => sum + g.unread, 0), groups: Object.fromEntries(rows.map((g) => [g.code, g.unread])) };
    }
    const { [TOTAL_FIELD]: total, [REFRESH_FIELD]: _refresh, ...fields } = cached;
    const counts = Object.entries(fields).filter(([g]) => !g.endsWith(WATERMARK_SUFFIX));
    return { total: Number(total), groups: Object.fromEntries(counts.map(([g, n]) => [g, Number(n)])) };
  }

  /** A message's effect for releaseStep: one more for each recipient, zero for the author (whose marker it moved). */
  messageEffect(recipientCodes: string[], authorCode: string | null): string {
    return JSON.stringify({
      r: recipientCodes.map((code) => [this.keyOf(code), code]),
      ...(authorCode ? { a: [this.keyOf(authorCode), authorCode] } : {}),
    });
  }

  /**
   * After the gate released messages of a group: the recipients releaseStep found without a cache are filled
   * from Postgres, where the released messages are already counted (retried a few times if that fails).
   */
  released(groupCode: string, uncached: string[], seenUpTo: number, attempt = 1): void {
    if (uncached.length === 0) return;
    this.fill(uncached, groupCode, seenUpTo).catch((err: unknown) => {
      this.logger.warn(`unread counts for ${groupCode} (attempt ${attempt}): ${(err as Error).message}`);
      if (attempt < FILL_ATTEMPTS && !this.stopped) {
        setTimeout(() => this.released(groupCode, uncached, seenUpTo, attempt + 1), FILL_RETRY_MS * attempt).unref();
      }
    });
  }

  /** After a read: sets the group's cached count (what Postgres said is left, up to `lastSeq`) and pushes the new counts. */
  async read(userCode: string, groupCode: string, unread: number, lastSeq: number): Promise<UnreadCountPayload> {
    const total = await applyRead.run(this.redis.client, {
      keys: [this.keyOf(userCode)],
      arguments: [groupCode, String(unread), String(lastSeq), String(UNREAD_TTL_MS), userRoom(userCode), routeConfig(this.redis.prefix)],
    });
    if (total !== null) return { total: Number(total), groups: { [groupCode]: unread } };
    return (await this.fill([userCode], groupCode, lastSeq)).get(userCode)!;
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
        const [total, n] = (await fill.run(this.redis.client, {
          keys: [this.keyOf(code)],
          arguments: [
            String(UNREAD_TTL_MS),
            userRoom(code),
            routeConfig(this.redis.prefix),
            groupCode,
            ...rows.flatMap((r) => [r.code, String(r.unread), String(r.lastSeq)]),
          ],
        })) as [number, number];
        counts.set(code, { total, groups: { [groupCode]: n } });
      }),
    );
    return counts;
  }

  /** The Redis key of a user's cached counts. */
  private keyOf(userCode: string): string {
    return this.redis.key('unread', userCode);
  }

  /** Per user, the groups with anything after their read marker: what is unread, counted up to which seq. */
  private async snapshot(userCodes: string[]): Promise<Map<string, GroupCount[]>> {
    const groups = new Map(userCodes.map((c) => [c, [] as GroupCount[]]));
    for (const row of await this.truth.byUserCodes(userCodes)) {
      groups.get(row.user_code)?.push({ code: row.code, unread: Math.max(row.unread, 0), lastSeq: Number(row.last_seq) });
    }
    return groups;
  }
}
