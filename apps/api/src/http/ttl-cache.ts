/**
 * A short-lived, bounded memory of answers by key, for public paths that many requests ask the same of: the SKU
 * lookup (one database read per question instead of one per request) and the beacons' site resolution.
 * An answer may lag a change by `ttlMs`. Bounded in entries whatever strangers ask; concurrent misses of one
 * key share one load (single flight), so a burst on a cold key loads once; a failed load is not kept.
 */
export interface TtlCacheOptions {
  /** How long an answer is reused, in ms (default 2,000). */
  ttlMs?: number;
  /** How many questions are remembered (default 1,000; the oldest is dropped first). */
  maxEntries?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
}

export class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: TtlCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 2_000;
    this.maxEntries = options.maxEntries ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** The remembered answer for `key`, else `load()`'s (remembered when it succeeds; a failure is not kept). */
  get(key: string, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && t - hit.at < this.ttlMs) return hit.value;
    if (hit) this.entries.delete(key);
    const value = load();
    this.entries.set(key, { at: t, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    // Map keeps insertion order: the first key is the oldest.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  get size(): number {
    return this.entries.size;
  }
}
