/** How long a lookup's answer is reused (spec section 9: response cache 10 s). */
export const RESPONSE_CACHE_MS = 10_000;

/** Holds in-flight and settled lookups for a short while; failures are forgotten at once. */
export function createResponseCache(ttlMs = RESPONSE_CACHE_MS, now: () => number = () => Date.now()) {
  const entries = new Map<string, { at: number; value: Promise<unknown> }>();
  return {
    get<T>(key: string): Promise<T> | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now() - entry.at >= ttlMs) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as Promise<T>;
    },
    set<T>(key: string, value: Promise<T>): Promise<T> {
      const entry = { at: now(), value: value as Promise<unknown> };
      entries.set(key, entry);
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
    clear(): void {
      entries.clear();
    },
    get size(): number {
      return entries.size;
    },
  };
}
