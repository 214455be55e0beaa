import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  buildDataSourceOptions,
  ConsoleRepository,
  AnalyticsRepository,
  DataDeletionRepository,
  type DatabaseOptions,
  initializeDataSource,
  IdempotencyRepository,
  ItemEditRepository,
  JobRepository,
  type RepositoryHooks,
  ShowcaseItemRepository,
  ShowcaseRepository,
  ShowcaseWallRepository,
  WebhookRepository,
} from '@app/persistence';
import { createContainer, JOB_LISTENER, METRICS, PipelineRegistry } from '@app/pipeline';
import { BullQueueAdapter, InProcessQueueAdapter, type JobQueuePort } from '@app/queue';
import { builtinPlugins, MOTION_CATALOG, MotionCatalog, registerServices, SERVICES } from '@app/plugins';
import { createStorage, type StoragePort } from '@app/storage';
import { loadPluginModules } from './plugin-loader';
import { CallbackScheduler, CallbackService } from './callback.service';
import { JOB_KINDS, JobRoutes } from './job-routes';
import { PublicUrls } from '@app/wire';
import { RefundOnFailure } from './refund.listener';
import { ItemRebuilds } from './item-rebuilds.listener';
import { QueueLifecycle } from './queue-lifecycle.service';
import { PluginLifecycle } from './plugin-lifecycle.service';
import { loadPricingPolicy } from './pricing-loader';
import { currentRequestId } from './log-scope';
import { PromMetrics } from './prom-metrics.adapter';
import { JobDeletion } from './job-deletion.service';
import { APP_CONFIG, JOB_QUEUE, PIPELINE_CONTAINER, PIPELINE_REGISTRY, PRICING_POLICY, STORAGE } from './tokens';

function dbOptions(config: AppConfig): DatabaseOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 10,
    connectTimeoutMs: config.database.connectTimeoutMs,
    queryTimeoutMs: config.database.queryTimeoutMs,
  };
}

/**
 * Everything both processes need: config, database, job repository, queue, storage and the booted
 * pipeline registry. Built once per process.
 */
@Global()
@Module({})
export class CoreModule {
  static forRoot(config: AppConfig): DynamicModule {
    // One registry per process: in embedded mode the API and its worker report into the same one.
    const metrics = new PromMetrics();
    metrics.startAtZero({ jobKinds: JOB_KINDS });
    const hooks: RepositoryHooks = {
      requestId: currentRequestId,
      charged: (cents) => metrics.creditsCharged(cents),
      refunded: (cents) => metrics.creditsRefunded(cents),
    };
    return {
      module: CoreModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => buildDataSourceOptions(dbOptions(config)),
          dataSourceFactory: (options) => initializeDataSource(new DataSource(options!), dbOptions(config)),
        }),
      ],
      providers: [
        QueueLifecycle,
        PluginLifecycle,
        { provide: APP_CONFIG, useValue: config },
        { provide: PromMetrics, useValue: metrics },
        { provide: JobRepository, inject: [DataSource], useFactory: (ds: DataSource) => new JobRepository(ds, hooks) },
        { provide: WebhookRepository, inject: [DataSource], useFactory: (ds: DataSource) => new WebhookRepository(ds) },
        { provide: AccountRepository, inject: [DataSource], useFactory: (ds: DataSource) => new AccountRepository(ds, hooks) },
        { provide: ShowcaseRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ShowcaseRepository(ds, hooks) },
        { provide: ShowcaseItemRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ShowcaseItemRepository(ds, hooks) },
        { provide: ItemEditRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ItemEditRepository(ds, hooks) },
        { provide: ShowcaseWallRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ShowcaseWallRepository(ds, hooks) },
        { provide: IdempotencyRepository, inject: [DataSource], useFactory: (ds: DataSource) => new IdempotencyRepository(ds) },
        { provide: ConsoleRepository, inject: [DataSource], useFactory: (ds: DataSource) => new ConsoleRepository(ds) },
        { provide: DataDeletionRepository, inject: [DataSource], useFactory: (ds: DataSource) => new DataDeletionRepository(ds) },
        { provide: AnalyticsRepository, inject: [DataSource], useFactory: (ds: DataSource) => new AnalyticsRepository(ds) },
        {
          provide: JobDeletion,
          inject: [DataDeletionRepository, STORAGE],
          useFactory: (repo: DataDeletionRepository, storage: StoragePort) => new JobDeletion(repo, storage),
        },
        {
          provide: ItemRebuilds,
          inject: [ItemEditRepository, DataDeletionRepository, JobDeletion],
          useFactory: (edits: ItemEditRepository, deletions: DataDeletionRepository, jobDeletion: JobDeletion) =>
            new ItemRebuilds(edits, deletions, jobDeletion),
        },
        { provide: PublicUrls, useValue: new PublicUrls(config) },
        { provide: PRICING_POLICY, useFactory: () => loadPricingPolicy(config) },
        { provide: STORAGE, useFactory: (): StoragePort => createStorage(config) },
        { provide: PIPELINE_CONTAINER, useFactory: () => createContainer() },
        {
          provide: PIPELINE_REGISTRY,
          inject: [PIPELINE_CONTAINER, STORAGE, JobRepository, WebhookRepository, AccountRepository, PublicUrls, JOB_QUEUE, ItemRebuilds],
          useFactory: async (
            container: ReturnType<typeof createContainer>,
            storage: StoragePort,
            jobs: JobRepository,
            webhooks: WebhookRepository,
            accounts: AccountRepository,
            urls: PublicUrls,
            queue: JobQueuePort,
            rebuilds: ItemRebuilds,
          ) => {
            registerServices(container, { config, storage });
            container.register(METRICS, { useValue: metrics });
            container.register(SERVICES.callbacks, { useValue: new CallbackService(jobs, webhooks, urls, storage, accounts, metrics) });
            // Refunds first, so the callback reports them.
            container.register(JOB_LISTENER, { useValue: new RefundOnFailure(accounts) });
            container.register(JOB_LISTENER, { useValue: new CallbackScheduler(jobs, queue, config) });
            // Showcase item rebuilds switch the item to their files (or report the failure) where they finish.
            container.register(JOB_LISTENER, { useValue: rebuilds });
            return PipelineRegistry.boot(container, [...builtinPlugins(), ...loadPluginModules(config)], {
              pluginOptions: config.plugins.options,
            });
          },
        },
        { provide: JobRoutes, inject: [PIPELINE_REGISTRY], useFactory: (r: PipelineRegistry) => new JobRoutes(config, r) },
        {
          // Built at boot so a default video_model no provider offers stops the start, not a job.
          provide: MotionCatalog,
          inject: [PIPELINE_CONTAINER, PIPELINE_REGISTRY],
          useFactory: (container: ReturnType<typeof createContainer>) => {
            const catalog = container.resolve<MotionCatalog>(MOTION_CATALOG);
            metrics.startAtZero({ motionProviders: catalog.providerIds() });
            return catalog;
          },
        },
        {
          provide: JOB_QUEUE,
          inject: [JobRepository],
          useFactory: (jobs: JobRepository): JobQueuePort => {
            const opts = {
              maxAttempts: config.worker.maxAttempts,
              backoffMs: config.worker.retryBaseMs,
              backlog: () => jobs.listUnfinished(),
              sweepMs: 60_000,
            };
            const queue = config.redisUrl
              ? new BullQueueAdapter({ ...opts, redisUrl: config.redisUrl, name: config.worker.queueName, lockMs: config.worker.lockMs })
              : new InProcessQueueAdapter(opts);
            metrics.observeQueue(() => queue.counts());
            metrics.observeQueueAge(() => jobs.oldestQueuedAt());
            metrics.observeBacklog(() => jobs.countQueued());
            return queue;
          },
        },
      ],
      exports: [
        APP_CONFIG,
        PromMetrics,
        PRICING_POLICY,
        IdempotencyRepository,
        ConsoleRepository,
        DataDeletionRepository,
        AnalyticsRepository,
        JobDeletion,
        ItemRebuilds,
        ShowcaseRepository,
        ShowcaseItemRepository,
        ItemEditRepository,
        ShowcaseWallRepository,
        JobRepository,
        WebhookRepository,
        AccountRepository,
        PublicUrls,
        STORAGE,
        PIPELINE_CONTAINER,
        PIPELINE_REGISTRY,
        JOB_QUEUE,
        JobRoutes,
        MotionCatalog,
      ],
    };
  }
}
