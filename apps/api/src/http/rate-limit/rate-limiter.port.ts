/** The outcome of counting one request against a bucket. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window ends and the bucket is full again. */
  resetMs: number;
}

/**
 * Counts requests per bucket (one per API key) in fixed windows. In-memory in the embedded mode,
 * Redis in the scaled mode so every API process shares the same counts.
 */
export interface RateLimiterPort {
  /**
   * Counts `cost` (default 1: one request; a beacon counts its events) against the bucket's window: allowed when
   * the whole cost fits under `limit`. A refused request takes nothing, so a smaller one may still fit.
   */
  consume(bucket: string, limit: number, windowMs: number, cost?: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RATE_LIMITER');
