import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { CoreModule } from '@app/runtime';
import { WorkerModule } from '@apps/worker';
import { AccountsService } from './accounts/accounts.service';
import { AdminController } from './accounts/admin.controller';
import { AdminUserKeysController } from './accounts/admin-user-keys.controller';
import { AdminUserKeysService } from './accounts/admin-user-keys.service';
import { V2AccountController } from './accounts/v2-account.controller';
import { V2KeysController } from './accounts/v2-keys.controller';
import { ConsoleAssets } from './console/console-assets.service';
import { ConsoleInviteController } from './console/console-invite.controller';
import { ConsoleInvites } from './console/console-invites.service';
import { ConsolePagesService } from './console/console-pages.service';
import { ConsoleSessionService } from './console/console-session.service';
import { ConsoleController } from './console/console.controller';
import { AssetsController } from './public-pages/assets.controller';
import { EmbedController } from './public-pages/embed/embed.controller';
import { EmbedService } from './public-pages/embed/embed.service';
import { FilesController } from './public-pages/files.controller';
import { HealthController } from './health/health.controller';
import { AdminJobsController } from './jobs/admin-jobs.controller';
import { AdminJobsService } from './jobs/admin-jobs.service';
import { JobAdmission } from './jobs/job-admission.service';
import { JobCancellation } from './jobs/job-cancellation.service';
import { ApiKeyGuard, OwnerKeyGuard } from './http/api-key.guard';
import { ApiKeyCache } from './http/api-keys/api-key-cache.service';
import { KEY_REVOCATIONS, type KeyRevocationsPort, LocalKeyRevocations } from './http/api-keys/key-revocations.port';
import { RedisKeyRevocations } from './http/api-keys/redis-key-revocations.adapter';
import { IdempotencyInterceptor } from './http/idempotency/idempotency.interceptor';
import { IdempotencyService } from './http/idempotency/idempotency.service';
import { MemoryRateLimiter } from './http/rate-limit/memory-rate-limiter.adapter';
import { RATE_LIMITER, type RateLimiterPort } from './http/rate-limit/rate-limiter.port';
import { RedisRateLimiter } from './http/rate-limit/redis-rate-limiter.adapter';
import { RateLimitService } from './http/rate-limit/rate-limit.service';
import { ConversionService } from './jobs/conversion.service';
import { V1Controller } from './jobs/v1.controller';
import { ShowcasePageController } from './public-pages/showcase/showcase-page.controller';
import { ShowcasePageService } from './public-pages/showcase/showcase-page.service';
import { ShowcaseThumbnails } from './public-pages/showcase/showcase-thumbnails.service';
import { RobotsController } from './public-pages/robots.controller';
import { ShowcasesController } from './showcases/showcases.controller';
import { ShowcasesService } from './showcases/showcases.service';
import { V2JobsController } from './jobs/v2-jobs.controller';
import { V2JobsService } from './jobs/v2-jobs.service';
import { WebhookDeliveriesController } from './jobs/webhook-deliveries.controller';
import { WebhookDeliveriesService } from './jobs/webhook-deliveries.service';
import { AnimatedArController } from './animated-ar/animated-ar.controller';
import { AnimatedArService } from './animated-ar/animated-ar.service';

/** The HTTP API. With role "all" (embedded default) it also runs the worker in the same process. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [CoreModule.forRoot(config), ...(config.role === 'all' ? [WorkerModule] : [])],
      controllers: [
        HealthController, V1Controller, FilesController, EmbedController, AssetsController, AdminController, V2AccountController, V2KeysController,
        ShowcasesController, V2JobsController, AnimatedArController, ShowcasePageController, RobotsController, AdminJobsController,
        ConsoleInviteController, ConsoleController, WebhookDeliveriesController, AdminUserKeysController,
      ],
      providers: [
        ApiKeyGuard,
        ApiKeyCache,
        {
          provide: KEY_REVOCATIONS,
          // Scaled mode: every API process drops a revoked key at once; embedded mode is one process.
          useFactory: (): KeyRevocationsPort =>
            config.redisUrl ? new RedisKeyRevocations(config.redisUrl, config.worker.queueName) : new LocalKeyRevocations(),
        },
        JobAdmission,
        JobCancellation,
        AdminJobsService,
        AnimatedArService,
        OwnerKeyGuard,
        RateLimitService,
        {
          provide: RATE_LIMITER,
          // Scaled mode: counts shared by every API process through Redis, namespaced like the queue.
          useFactory: (): RateLimiterPort =>
            config.redisUrl ? new RedisRateLimiter(config.redisUrl, config.worker.queueName) : new MemoryRateLimiter(),
        },
        IdempotencyService,
        IdempotencyInterceptor,
        ConversionService,
        EmbedService,
        AccountsService,
        ShowcasesService,
        V2JobsService,
        ShowcasePageService,
        ShowcaseThumbnails,
        ConsoleSessionService,
        ConsoleInvites,
        ConsolePagesService,
        ConsoleAssets,
        WebhookDeliveriesService,
        AdminUserKeysService,
      ],
    };
  }
}
