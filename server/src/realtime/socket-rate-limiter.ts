/** A token bucket kept in memory: `rate` events per second with bursts up to `burst`. */
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
  /** message:send and message:edit */
  send: TokenBucket;
  typing: TokenBucket;
  sync: TokenBucket;
  /** presence:watch and room:watch */
  watch: TokenBucket;
}

/** One socket's hold on its user's budgets; released once, however many paths report the socket gone. */
export interface UserLease {
  buckets: UserBuckets;
  release(): void;
}

/**
 * Per-user buckets and socket counts on this node. A user holds at most `maxSockets` sockets here; the
 * buckets are kept while the user has a socket and for `keepMs` after the last one goes (long enough for a
 * drained bucket to refill), so reconnecting does not reset a budget.
 */
export class UserBucketRegistry {
  private readonly held = new Map<string, { buckets: UserBuckets; sockets: number; drop?: NodeJS.Timeout }>();

  constructor(
    private readonly make: () => UserBuckets,
    private readonly keepMs: number,
    readonly maxSockets: number,
  ) {}

  /** A lease for one more socket of the user, or null when the user already holds `maxSockets` here. */
  acquire(userCode: string): UserLease | null {
    const entry = this.held.get(userCode) ?? { buckets: this.make(), sockets: 0 };
    if (entry.sockets >= this.maxSockets) return null;
    clearTimeout(entry.drop);
    entry.drop = undefined;
    entry.sockets += 1;
    this.held.set(userCode, entry);
    let released = false;
    return {
      buckets: entry.buckets,
      release: () => {
        if (released) return;
        released = true;
        this.release(userCode);
      },
    };
  }

  private release(userCode: string): void {
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
