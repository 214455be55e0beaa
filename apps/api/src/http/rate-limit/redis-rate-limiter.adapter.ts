import IORedis, { type Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiterPort } from './rate-limiter.port';

// INCR and the window's expiry in one atomic step, so concurrent API processes count exactly.
const SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {c, ttl}`;

const COMMAND_TIMEOUT_MS = 150;

/** Fixed windows in Redis, shared by every API process of a scaled deployment. */
export class RedisRateLimiter implements RateLimiterPort {
  private readonly redis: Redis;

  constructor(redisUrl: string, private readonly namespace: string) {
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
  }

  async consume(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const command = (this.redis as unknown as { arRateLimit(key: string, windowMs: string): Promise<[number, number]> }).arRateLimit;
    const [count, ttl] = await command.call(this.redis, `${this.namespace}:ratelimit:${bucket}`, String(windowMs));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetMs: ttl };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
