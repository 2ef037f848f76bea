import type { Queue } from 'bullmq';
import { PUSH_STATS_KEY } from '../contracts/queues';
import type { RedisService } from '../redis/redis.service';

export type PushCounter = 'sent' | 'failed' | 'removed' | 'skipped';

export interface PushStats {
  /** jobs of the notifications queue waiting to run (incl. prioritised) */
  waiting: number;
  /** jobs waiting for their delay: chat pushes in their grace period, retries after 429/5xx */
  delayed: number;
  active: number;
  /** pushes a push service accepted, since the counters were created (all workers) */
  sent: number;
  /** pushes given up (rejected, or attempts exhausted) */
  failed: number;
  /** subscriptions deleted after 404/410 or pruned as unused */
  removed: number;
  /** recipients not pushed to (online, read, deleted, superseded, muted, no subscription) */
  skipped: number;
}

/** Counts worker outcomes in one Redis hash shared by every worker; /api/health reads it. */
export async function countPush(redis: RedisService, counter: PushCounter, by = 1): Promise<void> {
  if (by <= 0) return;
  await redis.client.hIncrBy(redis.key(...PUSH_STATS_KEY), counter, by);
}

/** Queue depth and counters; null when Redis does not answer within `timeoutMs`. */
export async function readPushStats(redis: RedisService, queue: Queue, timeoutMs = 1500): Promise<PushStats | null> {
  if (!redis.client.isReady) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  const read = (async (): Promise<PushStats> => {
    const [counts, hash] = await Promise.all([
      queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active'),
      redis.client.hGetAll(redis.key(...PUSH_STATS_KEY)),
    ]);
    const n = (k: string) => Number((hash as Record<string, string>)[k] ?? 0);
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      delayed: counts.delayed ?? 0,
      active: counts.active ?? 0,
      sent: n('sent'),
      failed: n('failed'),
      removed: n('removed'),
      skipped: n('skipped'),
    };
  })();
  try {
    return await Promise.race([read, timeout]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
