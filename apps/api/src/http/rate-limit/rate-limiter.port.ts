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
  consume(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RATE_LIMITER');
