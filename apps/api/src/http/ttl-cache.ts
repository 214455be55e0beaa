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
  /**
   * Past its ttl, for this long more (default 0: never), an answer is still given at once while one load in the
   * background replaces it (stale while revalidate): callers never wait on a refresh, only on a first load. For a
   * hot public path whose load can queue behind other work (on the embedded database, behind an analytics
   * flush's transaction). A failed refresh keeps the old answer until it is this old.
   */
  staleMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Entry<T> {
  at: number;
  value: Promise<T>;
  /** The value has resolved (only a resolved answer is served stale). */
  settled?: boolean;
  /** A background refresh is running. */
  refreshing?: boolean;
}

export class TtlCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly staleMs: number;

  constructor(options: TtlCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 2_000;
    this.maxEntries = options.maxEntries ?? 1_000;
    this.now = options.now ?? Date.now;
    this.staleMs = options.staleMs ?? 0;
  }

  /** The remembered answer for `key`, else `load()`'s (remembered when it succeeds; a failure is not kept). */
  get(key: string, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const hit = this.entries.get(key);
    if (hit && t - hit.at < this.ttlMs) return hit.value;
    if (hit?.settled && t - hit.at < this.ttlMs + this.staleMs) {
      if (!hit.refreshing) this.refresh(key, hit, load);
      return hit.value;
    }
    if (hit) this.entries.delete(key);
    const value = load();
    const entry: Entry<T> = { at: t, value };
    this.entries.set(key, entry);
    value.then(
      () => (entry.settled = true),
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    // Map keeps insertion order: the first key is the oldest.
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  /** One background load for a stale entry; its answer replaces the entry when it succeeds. */
  private refresh(key: string, stale: Entry<T>, load: () => Promise<T>): void {
    stale.refreshing = true;
    const value = load();
    value.then(
      () => {
        if (this.entries.get(key) === stale) this.entries.set(key, { at: this.now(), value, settled: true });
      },
      () => (stale.refreshing = false),
    );
  }

  get size(): number {
    return this.entries.size;
  }
}
