import type { RateLimitDecision, RateLimiterPort } from './rate-limiter.port';

/** Fixed windows in process memory (embedded mode: one API process). */
export class MemoryRateLimiter implements RateLimiterPort {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async consume(bucket: string, limit: number, windowMs: number, cost = 1): Promise<RateLimitDecision> {
    const now = this.now();
    this.sweep(now);
    let w = this.windows.get(bucket);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(bucket, w);
    }
    const allowed = w.count + cost <= limit;
    if (allowed) w.count += cost;
    return { allowed, limit, remaining: Math.max(0, limit - w.count), resetMs: w.resetAt - now };
  }

  /** Drops ended windows now and then, so idle keys cost no memory. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}
