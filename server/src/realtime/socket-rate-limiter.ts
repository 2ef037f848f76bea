/** A token bucket kept on the socket itself: `rate` events per second with bursts up to `burst`. */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The budgets one user's sockets on this node share: opening more sockets does not buy more. */
export interface UserBuckets {
  sync: TokenBucket;
  /** presence:watch and room:watch */
  watch: TokenBucket;
}

/**
 * Per-user buckets, held while the user has a socket on this node and for `keepMs` after the last one
 * goes (long enough for a drained bucket to refill), so reconnecting does not reset a budget.
 */
export class UserBucketRegistry {
  private readonly held = new Map<string, { buckets: UserBuckets; sockets: number; drop?: NodeJS.Timeout }>();

  constructor(
    private readonly make: () => UserBuckets,
    private readonly keepMs: number,
  ) {}

  acquire(userCode: string): UserBuckets {
    const entry = this.held.get(userCode) ?? { buckets: this.make(), sockets: 0 };
    clearTimeout(entry.drop);
    entry.drop = undefined;
    entry.sockets += 1;
    this.held.set(userCode, entry);
    return entry.buckets;
  }

  release(userCode: string): void {
    const entry = this.held.get(userCode);
    if (!entry) return;
    entry.sockets -= 1;
    if (entry.sockets > 0) return;
    entry.drop = setTimeout(() => {
      if (this.held.get(userCode) === entry && entry.sockets <= 0) this.held.delete(userCode);
    }, this.keepMs);
    entry.drop.unref();
  }
}
