import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { JobRepository } from '@app/persistence';
import { JOB_LISTENER, type JobListener, PipelineRegistry, PipelineRunner } from '@app/pipeline';
import type { JobQueuePort } from '@app/queue';
import type { DependencyContainer } from 'tsyringe';
import { createStageLogger } from './stage-logger.adapter';
import { APP_CONFIG, JOB_QUEUE, PIPELINE_CONTAINER, PIPELINE_REGISTRY } from './tokens';

/** Consumes the queue and runs each job through its pipeline. Thin: the runner holds the logic. */
@Injectable()
export class JobWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private readonly runner: PipelineRunner;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUE) private readonly queue: JobQueuePort,
    @Inject(PIPELINE_REGISTRY) registry: PipelineRegistry,
    @Inject(PIPELINE_CONTAINER) container: DependencyContainer,
    jobs: JobRepository,
  ) {
    const listeners = container.isRegistered(JOB_LISTENER) ? container.resolveAll<JobListener>(JOB_LISTENER) : [];
    this.runner = new PipelineRunner({ registry, store: jobs, listeners, log: createStageLogger('Pipeline') });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.consume(
      async (msg) => {
        await this.runner.run(msg.jobId, { attempt: msg.attempt, maxAttempts: msg.maxAttempts, signal: msg.signal });
      },
      { concurrency: this.config.worker.concurrency },
    );
    this.logger.log(`consuming ${this.queue.driver} queue with concurrency ${this.config.worker.concurrency}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.logger.log('stopping: letting running jobs finish');
    await this.queue.stop(this.config.worker.shutdownTimeoutMs);
  }
}
