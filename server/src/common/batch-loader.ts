/** Keys asked for in the same turn of the event loop, up to this many, share one lookup. */
const MAX_BATCH = 500;

/**
 * Coalesces lookups by key: every key asked for before the next setImmediate is fetched in one call of `load`,
 * each caller getting its own answer (undefined when `load` returned none). Nothing is cached: a key asked for
 * again later is read again, so the answer is as fresh as a lookup of its own.
 */
export class BatchLoader<K, V> {
  private queued = new Map<K, { resolve: (v: V | undefined) => void; reject: (err: unknown) => void }[]>();
  private scheduled = false;

  constructor(
    private readonly load: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  get(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.queued.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.queued.set(key, [{ resolve, reject }]);
      if (this.queued.size >= this.maxBatch) this.flush();
      else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    if (this.queued.size === 0) return;
    const batch = this.queued;
    this.queued = new Map();
    this.load([...batch.keys()]).then(
      (found) => batch.forEach((waiting, key) => waiting.forEach((w) => w.resolve(found.get(key)))),
      (err: unknown) => batch.forEach((waiting) => waiting.forEach((w) => w.reject(err))),
    );
  }
}
