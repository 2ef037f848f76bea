import { RedisService } from '#shared/redis/redis.service';

/**
 * The one Redis stream every node reads and delivers from (see OrderedFanoutService). Messages and every
 * `unread:count` push go through it, each written in the same script that changes what it announces, so a
 * client receives a user's counts in the order they were computed.
 */
export const fanoutStreamKey = (redis: RedisService): string => redis.key('fanout', 'stream');

export const FANOUT_STREAM_MAX_LEN = 100_000;
