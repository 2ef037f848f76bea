import { Injectable } from '@nestjs/common';
import { RedisService } from '#shared/redis/redis.service';

const TTL_MS = 90_000;

/** One moderator's socket watching one group. */
export interface RoomWatch {
  groupCode: string;
  userCode: string;
  socketId: string;
}

/** A watch's member in its group's set: who watches and on which socket (codes and socket ids have no spaces). */
const memberOf = (w: Pick<RoomWatch, 'userCode' | 'socketId'>) => `${w.userCode} ${w.socketId}`;

/**
 * Which groups moderators are watching, across every node: a sorted set per group of watching
 * "<userCode> <socketId>" members scored by expiry. Nodes refresh their live watches, so a crashed node's
 * watches lapse by themselves.
 */
@Injectable()
export class RoomWatchersService {
  constructor(private readonly redis: RedisService) {}

  private key(groupCode: string): string {
    return this.redis.key('watchers', groupCode);
  }

  /** Adds a watch; true when the group had no watcher before (the flag changes). */
  async watch({ groupCode, ...who }: RoomWatch): Promise<boolean> {
    const now = Date.now();
    const [before] = (await this.redis.client
      .multi()
      .zCount(this.key(groupCode), now, '+inf')
      .zAdd(this.key(groupCode), { score: now + TTL_MS, value: memberOf(who) })
      .pExpire(this.key(groupCode), TTL_MS)
      .exec()) as unknown as [number];
    return Number(before) === 0;
  }

  /** Removes a watch; true when nobody watches the group any more (the flag changes). */
  async unwatch({ groupCode, ...who }: RoomWatch): Promise<boolean> {
    const now = Date.now();
    const [removed, left] = (await this.redis.client
      .multi()
      .zRem(this.key(groupCode), memberOf(who))
      .zCount(this.key(groupCode), now, '+inf')
      .exec()) as unknown as [number, number];
    return Number(removed) > 0 && Number(left) === 0;
  }

  /** Keeps this node's live watches from lapsing. */
  async refresh(watches: RoomWatch[]): Promise<void> {
    if (watches.length === 0) return;
    const multi = this.redis.client.multi();
    const until = Date.now() + TTL_MS;
    for (const w of watches) {
      multi.zAdd(this.key(w.groupCode), { score: until, value: memberOf(w) }, { XX: true });
      multi.pExpire(this.key(w.groupCode), TTL_MS);
    }
    await multi.exec();
  }

  async watched(groupCodes: string[]): Promise<Set<string>> {
    if (groupCodes.length === 0) return new Set();
    const now = Date.now();
    const multi = this.redis.client.multi();
    for (const code of groupCodes) multi.zCount(this.key(code), now, '+inf');
    const counts = (await multi.exec()) as unknown as number[];
    return new Set(groupCodes.filter((_, i) => Number(counts[i]) > 0));
  }

  /** Whether this user watches the group live on any of their sockets (on any node). */
  async isWatchedBy(groupCode: string, userCode: string): Promise<boolean> {
    const members = await this.redis.client.zRangeByScore(this.key(groupCode), Date.now(), '+inf');
    return members.some((m) => m.startsWith(`${userCode} `));
  }
}
