import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import { buildDataSourceOptions, JobRepository } from '@app/persistence';
import { createContainer, PipelineRegistry } from '@app/pipeline';
import { BullQueueAdapter, InProcessQueueAdapter, type JobQueuePort } from '@app/queue';
import { builtinPlugins, registerServices } from '@app/plugins';
import { createStorage, type StoragePort } from '@app/storage';
import { loadPluginModules } from './plugin-loader';
import { JobRoutes } from './job-routes';
import { QueueLifecycle } from './queue-lifecycle.service';
import { APP_CONFIG, JOB_QUEUE, PIPELINE_CONTAINER, PIPELINE_REGISTRY, STORAGE } from './tokens';

/**
 * Everything both processes need: config, database, job repository, queue, storage and the booted
 * pipeline registry. Built once per process.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () =>
            buildDataSourceOptions({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 10 }),
          dataSourceFactory: async (options) => {
            const ds = new DataSource(options!);
            try {
              return await ds.initialize();
            } catch (err) {
              const where = config.databaseUrl ? 'the Postgres server at DATABASE_URL' : `PGlite under ${config.dataDir}`;
              throw new Error(`database: cannot open ${where}: ${(err as Error).message}`, { cause: err });
            }
          },
        }),
      ],
      providers: [
        QueueLifecycle,
        { provide: APP_CONFIG, useValue: config },
        { provide: JobRepository, inject: [DataSource], useFactory: (ds: DataSource) => new JobRepository(ds) },
        { provide: STORAGE, useFactory: (): StoragePort => createStorage(config) },
        { provide: PIPELINE_CONTAINER, useFactory: () => createContainer() },
        {
          provide: PIPELINE_REGISTRY,
          inject: [PIPELINE_CONTAINER, STORAGE],
          useFactory: async (container: ReturnType<typeof createContainer>, storage: StoragePort) => {
            registerServices(container, { config, storage });
            return PipelineRegistry.boot(container, [...builtinPlugins(), ...loadPluginModules(config)], {
              pluginOptions: config.plugins.options,
            });
          },
        },
        { provide: JobRoutes, inject: [PIPELINE_REGISTRY], useFactory: (r: PipelineRegistry) => new JobRoutes(config, r) },
        {
          provide: JOB_QUEUE,
          inject: [JobRepository],
          useFactory: (jobs: JobRepository): JobQueuePort => {
            const opts = {
              maxAttempts: config.worker.maxAttempts,
              backoffMs: config.worker.retryBaseMs,
              backlog: () => jobs.listUnfinishedIds(),
              sweepMs: 60_000,
            };
            return config.redisUrl
              ? new BullQueueAdapter({ ...opts, redisUrl: config.redisUrl, name: config.worker.queueName, lockMs: config.worker.lockMs })
              : new InProcessQueueAdapter(opts);
          },
        },
      ],
      exports: [APP_CONFIG, JobRepository, STORAGE, PIPELINE_CONTAINER, PIPELINE_REGISTRY, JOB_QUEUE, JobRoutes],
    };
  }
}
