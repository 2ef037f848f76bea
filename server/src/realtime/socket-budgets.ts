import { TokenBucket, UserBucketRegistry } from './socket-rate-limiter';

/** Every budget is per user (all their sockets on a node). Sends and edits: 10 a second with bursts of 30. */
const SEND_RATE = 10;
const SEND_BURST = 30;
const TYPING_RATE = 3;
const TYPING_BURST = 6;
/** Per user (all their sockets on a node): sync answers up to SYNC_MAX_MESSAGES each, 1 a second with bursts of 10 (a reconnect's catch-up rounds). */
const SYNC_RATE = 1;
const SYNC_BURST = 10;
/** Per user: presence:watch and room:watch together, 2 a second with bursts of 10 (the watches of a screen after a reconnect). Ending a watch is never limited. */
const WATCH_RATE = 2;
const WATCH_BURST = 10;

/**
 * The node's per-user budgets, given to each socket when its session opens (socket-handshake.ts); the event
 * handlers take from the socket's own `userLimits`.
 */
export function userBudgets(maxSocketsPerUser: number): UserBucketRegistry {
  return new UserBucketRegistry(
    () => ({
      send: new TokenBucket(SEND_RATE, SEND_BURST),
      typing: new TokenBucket(TYPING_RATE, TYPING_BURST),
      sync: new TokenBucket(SYNC_RATE, SYNC_BURST),
      watch: new TokenBucket(WATCH_RATE, WATCH_BURST),
    }),
    (SYNC_BURST / SYNC_RATE) * 1000,
    maxSocketsPerUser,
  );
}
