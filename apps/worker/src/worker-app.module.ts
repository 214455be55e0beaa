import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { CoreModule } from '@app/runtime';
import { WorkerMetricsServer } from './worker-metrics.server';
import { WorkerModule } from './worker.module';

@Module({})
export class WorkerAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerAppModule, imports: [CoreModule.forRoot(config), WorkerModule], providers: [WorkerMetricsServer] };
  }
}
