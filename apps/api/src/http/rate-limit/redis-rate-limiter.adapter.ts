import IORedis, { type Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiterPort } from './rate-limiter.port';
import { TokenLeases } from './token-leases';

// INCRBY and the window's expiry in one atomic step, so concurrent API processes count exactly.
const SCRIPT = `
local c = redis.call('INCRBY', KEYS[1], ARGV[2])
if c == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

const COMMAND_TIMEOUT_MS = 150;

/**
 * Fixed windows in Redis, shared by every API process of a scaled deployment. Counts are taken in leases
 * ({@link TokenLeases}): a busy key costs one Redis round trip per lease of up to 32 requests, not one per
 * request, and the processes together still never let more than the limit through.
 */
export class RedisRateLimiter implements RateLimiterPort {
  private readonly redis: Redis;
  private readonly leases: TokenLeases;

  constructor(
    redisUrl: string,
    private readonly namespace: string,
  ) {
    // A Redis that is down refuses at once (no offline queue); one that hangs is given up on after
    // COMMAND_TIMEOUT_MS, so the limiter fails open in well under 200 ms either way.
    this.redis = new IORedis(redisUrl, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: false,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
    });
    // Errors surface on consume(); without a listener ioredis would print every reconnect attempt.
    this.redis.on('error', () => undefined);
    // EVALSHA with the script's hash (ioredis falls back to EVAL once per connection): the script is not
    // sent with every request.
    this.redis.defineCommand('arRateLimit', { numberOfKeys: 1, lua: SCRIPT });
    const command = (this.redis as unknown as { arRateLimit(key: string, windowMs: string, n: string): Promise<[number, number]> })
      .arRateLimit;
    this.leases = new TokenLeases((bucket, n, windowMs) =>
      command.call(this.redis, `${this.namespace}:ratelimit:${bucket}`, String(windowMs), String(n)),
    );
  }

  consume(bucket: string, limit: number, windowMs: number, cost = 1): Promise<RateLimitDecision> {
    return this.leases.consume(bucket, limit, windowMs, cost);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
