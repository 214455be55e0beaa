import type { RateLimitDecision } from './rate-limiter.port';

/** Takes `n` counts of a bucket's current window from the shared store: the count after, and the window's ms left. */
export type TakeCounts = (bucket: string, n: number, windowMs: number) => Promise<[count: number, ttlMs: number]>;

interface Lease {
  /** Next window count this process may hand out, and the last one it holds. */
  next: number;
  last: number;
  size: number;
  /** Local clock time the window ends. */
  endsAt: number;
}

/** Most counts one process takes from the shared store at once. */
export const DEFAULT_MAX_LEASE = 32;

/**
 * Fixed-window counting against a shared store, in leases: a process takes a run of counts in one round
 * trip and hands them out locally. A key's first request in a window takes one count (quiet keys count
 * exactly); each lease used up within the window takes twice as many as the last, up to `maxLease`, and
 * never more than the counts left below the limit. Every count is taken from the store once, so the
 * processes together never let more than the limit through; counts a process took and did not use are
 * lost to the others until the window ends (a little stricter, never looser). Requests over the limit are
 * refused locally until the window ends, without a round trip. A busy key costs one round trip per lease
 * instead of one per request.
 *
 * @example
 * const leases = new TokenLeases((bucket, n, windowMs) => redisIncrBy(bucket, n, windowMs));
 * const d = await leases.consume('key:abc', 600, 60_000);
 */
export class TokenLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<void>>();
  private lastSweep = 0;

  constructor(
    private readonly take: TakeCounts,
    private readonly maxLease = DEFAULT_MAX_LEASE,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Counts `cost` against the bucket: from this process's lease when it holds enough, else the lease's rest and
   * a new lease for the remainder (at least the remainder, so one round trip serves a beacon of many events).
   * A cost that cannot fit under the limit is refused locally and takes nothing.
   */
  async consume(bucket: string, limit: number, windowMs: number, cost = 1): Promise<RateLimitDecision> {
    const want = Math.max(1, Math.ceil(cost));
    // Counts of this window already taken for this request (from a lease that had fewer than it needed).
    let held = 0;
    let heldEndsAt = 0;
    for (;;) {
      const t = this.now();
      const lease = this.leases.get(bucket);
      const live = lease && t < lease.endsAt ? lease : undefined;
      // The window turned while this request waited: what it held counted in the last one.
      if (held && (!live || Math.abs(live.endsAt - heldEndsAt) > windowMs / 2)) held = 0;
      const need = want - held;
      const left = live ? live.last - live.next + 1 : 0;
      if (live && left >= need) {
        const count = live.next + need - 1;
        live.next += need;
        return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetMs: Math.max(0, Math.ceil(live.endsAt - t)) };
      }
      const taken = live ? live.last : 0;
      if (need - left > limit - taken) {
        // Over the limit, or the rest of the cost cannot fit under it: refused for what is left of the window
        // whatever the other processes do, without a round trip.
        const resetMs = live ? Math.max(0, Math.ceil(live.endsAt - t)) : windowMs;
        return { allowed: false, limit, remaining: Math.max(0, limit - (live ? live.next - 1 : 0)), resetMs };
      }
      if (live && left > 0) {
        held += left;
        heldEndsAt = live.endsAt;
        live.next = live.last + 1;
        continue;
      }
      // One round trip per bucket at a time: the others wait for its counts.
      const inFlight = this.taking.get(bucket);
      if (inFlight) {
        await inFlight;
        continue;
      }
      const size = Math.max(need, Math.min(live ? live.size * 2 : 1, this.maxLease, limit - taken));
      const took = this.take(bucket, size, windowMs).then(([count, ttl]) => {
        this.sweep(t);
        this.leases.set(bucket, { next: count - size + 1, last: count, size, endsAt: this.now() + ttl });
      });
      this.taking.set(
        bucket,
        took.catch(() => undefined),
      );
      try {
        await took;
      } finally {
        this.taking.delete(bucket);
      }
    }
  }

  /** Drops ended windows now and then, so idle keys cost no memory. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, l] of this.leases) if (l.endsAt <= now) this.leases.delete(k);
  }
}
