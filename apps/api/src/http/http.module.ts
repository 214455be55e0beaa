import { Module } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { APP_CONFIG } from '@app/runtime';
import { ConsoleSessionService } from '../console/console-session.service';
import { ApiKeyGuard, OwnerKeyGuard } from './api-key.guard';
import { ApiKeyCache } from './api-keys/api-key-cache.service';
import { KEY_REVOCATIONS, type KeyRevocationsPort, LocalKeyRevocations } from './api-keys/key-revocations.port';
import { RedisKeyRevocations } from './api-keys/redis-key-revocations.adapter';
import { IdempotencyInterceptor } from './idempotency/idempotency.interceptor';
import { IdempotencyService } from './idempotency/idempotency.service';
import { MemoryRateLimiter } from './rate-limit/memory-rate-limiter.adapter';
import { RATE_LIMITER, type RateLimiterPort } from './rate-limit/rate-limiter.port';
import { RedisRateLimiter } from './rate-limit/redis-rate-limiter.adapter';
import { RateLimitService } from './rate-limit/rate-limit.service';

/**
 * What the feature modules' routes share: authentication (ApiKeyGuard, OwnerKeyGuard, the key cache and its
 * revocation listener), rate limits and idempotency. Declared here once, so the caches, limiters and
 * listeners are one instance each; every feature module with guarded routes imports this module.
 *
 * Console sessions authenticate API calls too (the console's browser code calls the API with its cookie, and
 * ApiKeyGuard accepts it), so the one ConsoleSessionService is declared here as well; ConsoleModule uses it.
 */
@Module({
  providers: [
    ApiKeyGuard,
    OwnerKeyGuard,
    ApiKeyCache,
    {
      provide: KEY_REVOCATIONS,
      inject: [APP_CONFIG],
      // Scaled mode: every API process drops a revoked key at once; embedded mode is one process.
      useFactory: (config: AppConfig): KeyRevocationsPort =>
        config.redisUrl ? new RedisKeyRevocations(config.redisUrl, config.worker.queueName) : new LocalKeyRevocations(),
    },
    RateLimitService,
    {
      provide: RATE_LIMITER,
      inject: [APP_CONFIG],
      // Scaled mode: counts shared by every API process through Redis, namespaced like the queue.
      useFactory: (config: AppConfig): RateLimiterPort =>
        config.redisUrl ? new RedisRateLimiter(config.redisUrl, config.worker.queueName) : new MemoryRateLimiter(),
    },
    IdempotencyService,
    IdempotencyInterceptor,
    ConsoleSessionService,
  ],
  exports: [
    ApiKeyGuard,
    OwnerKeyGuard,
    ApiKeyCache,
    RateLimitService,
    RATE_LIMITER,
    IdempotencyService,
    IdempotencyInterceptor,
    ConsoleSessionService,
  ],
})
export class HttpModule {}
