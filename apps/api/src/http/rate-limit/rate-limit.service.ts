import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@app/config';
import { APP_CONFIG } from '@app/runtime';
import { ApiError } from '../api-error';
import type { Principal } from '../principal';
import { RATE_LIMITER, type RateLimiterPort } from './rate-limiter.port';

/**
 * Per-key request limits: `RATE_LIMIT_PER_KEY` per window for per-user keys (`RATE_LIMIT_WIDGET` for widget
 * keys, which sit in public pages), `RATE_LIMIT_OWNER` for the owner key (0 = unlimited). Answers carry
 * X-RateLimit-* headers; over the limit -> 429 with Retry-After. If the counter store is unreachable the
 * request goes through (logged): limits protect, they must not take the API down with Redis.
 */
@Injectable()
export class RateLimitService implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiterPort,
  ) {}

  async check(p: Principal, reply: FastifyReply): Promise<void> {
    const limit =
      p.keyType === 'owner'
        ? this.config.rateLimit.owner
        : p.scope === 'widget'
          ? this.config.rateLimit.widget
          : this.config.rateLimit.perKey;
    if (limit === 0) return;
    const bucket = p.keyType === 'owner' ? 'owner' : `key:${p.keyId}`;
    let d;
    try {
      d = await this.limiter.consume(bucket, limit, this.config.rateLimit.windowMs);
    } catch (err) {
      this.logger.warn(`rate limiter unavailable, request allowed: ${(err as Error).message}`);
      return;
    }
    const resetS = Math.max(1, Math.ceil(d.resetMs / 1000));
    void reply
      .header('x-ratelimit-limit', String(d.limit))
      .header('x-ratelimit-remaining', String(d.remaining))
      .header('x-ratelimit-reset', String(resetS));
    if (!d.allowed) {
      throw new ApiError(
        429,
        'rate_limited',
        'rate_limit_exceeded',
        `too many requests for this API key: ${d.limit} per ${this.config.rateLimit.windowMs / 1000} s; retry in ${resetS} s`,
        undefined,
        { 'retry-after': String(resetS) },
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.limiter.close();
  }
}
