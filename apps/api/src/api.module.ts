import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { CoreModule } from '@app/runtime';
import { WorkerModule } from '@apps/worker';
import { AccountsModule } from './accounts/accounts.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { AnimatedArModule } from './animated-ar/animated-ar.module';
import { ConnectionsModule } from './connections/connections.module';
import { ConsoleModule } from './console/console.module';
import { HealthModule } from './health/health.module';
import { HttpModule } from './http/http.module';
import { ImportsModule } from './imports/imports.module';
import { JobsModule } from './jobs/jobs.module';
import { PublicPagesModule } from './public-pages/public-pages.module';
import { ShowcasesModule } from './showcases/showcases.module';
import { WallsModule } from './walls/walls.module';
import { ShopWebhooksModule } from './webhooks/shop-webhooks.module';

/**
 * The HTTP API, one module per feature (docs/architecture.md, "apps/api"). CoreModule (global) gives them the
 * config, database, queue and storage; HttpModule the guards, rate limits and idempotency they share. With role
 * "all" (embedded default) the process also runs the worker.
 */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        CoreModule.forRoot(config),
        ...(config.role === 'all' ? [WorkerModule] : []),
        HttpModule,
        HealthModule,
        JobsModule,
        AccountsModule,
        ShowcasesModule,
        WallsModule,
        ImportsModule,
        ConnectionsModule,
        ShopWebhooksModule,
        AnimatedArModule,
        PublicPagesModule,
        ConsoleModule,
        AnalyticsModule,
      ],
    };
  }
}
