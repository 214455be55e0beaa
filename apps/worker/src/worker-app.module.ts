import { type DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { CoreModule, WorkerMetricsServer, WorkerModule } from '@app/runtime';

@Module({})
export class WorkerAppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: WorkerAppModule, imports: [CoreModule.forRoot(config), WorkerModule], providers: [WorkerMetricsServer] };
  }
}
