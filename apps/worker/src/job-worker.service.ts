import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { isDatabaseUnavailable, JobRepository } from '@app/persistence';
import { JOB_LISTENER, type JobListener, PipelineRegistry, PipelineRunner, WorkSlots } from '@app/pipeline';
import type { JobQueuePort } from '@app/queue';
import type { DependencyContainer } from 'tsyringe';
import {
  APP_CONFIG,
  createStageLogger,
  JOB_QUEUE,
  parseJobInput,
  PIPELINE_CONTAINER,
  PIPELINE_REGISTRY,
  PromMetrics,
  runInLogScope,
} from '@app/runtime';

const DB_POLL_MS = 1000;

/**
 * Consumes the queue and runs each job through its pipeline. Thin: the runner holds the logic.
 *
 * Fair share inside a worker: it holds up to WORKER_MAX_JOBS jobs, at most ACCOUNT_MAX_RUNNING_JOBS of
 * one account (the queue's group limit), and each stage waits for a CPU slot (WORKER_CONCURRENCY) or an
 * I/O slot (WORKER_IO_CONCURRENCY), handed to the account holding the fewest ({@link WorkSlots}).
 */
@Injectable()
export class JobWorkerService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private readonly runner: PipelineRunner;
  readonly slots: WorkSlots;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUE) private readonly queue: JobQueuePort,
    @Inject(PIPELINE_REGISTRY) registry: PipelineRegistry,
    @Inject(PIPELINE_CONTAINER) container: DependencyContainer,
    private readonly jobs: JobRepository,
    metrics: PromMetrics,
  ) {
    this.slots = new WorkSlots({ cpu: config.worker.concurrency, io: config.worker.ioConcurrency });
    metrics.observeSlots(() => this.slots.counts());
    const listeners = container.isRegistered(JOB_LISTENER) ? container.resolveAll<JobListener>(JOB_LISTENER) : [];
    this.runner = new PipelineRunner({
      registry,
      store: jobs,
      listeners,
      log: createStageLogger('Pipeline'),
      stageTimeoutMs: config.worker.stageTimeoutMs,
      metrics,
      slots: this.slots,
      scope: (fields, run) => runInLogScope(fields, () => this.traced(fields.stage, run)),
      // Each job's input checked once against its kind's schema; a refused one fails the job with the reason.
      parseInput: parseJobInput,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.consume(
      // A fresh scope: the in-process queue starts jobs from whatever request enqueued the last one, and
      // that request's id must not end up on another job's lines (the runner adds the job's own).
      (msg) =>
        runInLogScope({ requestId: undefined, jobId: msg.jobId, kind: undefined, stage: undefined }, async () => {
          for (;;) {
            try {
              await this.runner.run(msg.jobId, { attempt: msg.attempt, maxAttempts: msg.maxAttempts, signal: msg.signal });
              return;
            } catch (err) {
              // An unreachable database is nobody's fault and no job's: wait for it while holding the
              // message, then run the same attempt again, instead of burning attempts in seconds.
              if (!isDatabaseUnavailable(err) || msg.signal.aborted) throw err;
              this.logger.warn(`job ${msg.jobId}: database unavailable (${(err as Error).message}); waiting for it, attempt not spent`);
              await this.waitForDatabase(msg.signal);
            }
          }
        }),
      { concurrency: this.config.worker.maxJobs, groupLimit: this.config.worker.accountMaxRunningJobs },
    );
    const w = this.config.worker;
    this.logger.log(
      `consuming ${this.queue.driver} queue with concurrency ${w.concurrency} (CPU slots; ${w.ioConcurrency} I/O slots, ${w.maxJobs} jobs at once, ${w.accountMaxRunningJobs} per account)`,
    );
  }

  /** Debug lines at the start and end of a job and of each stage; the scope adds the ids to them. */
  private async traced<T>(stage: string | undefined, run: () => Promise<T>): Promise<T> {
    const what = stage ? 'stage' : 'job';
    const started = performance.now();
    this.logger.debug(`${what} started`);
    try {
      const r = await run();
      this.logger.debug(`${what} finished in ${Math.round(performance.now() - started)} ms${stage ? '' : `: ${String(r)}`}`);
      return r;
    } catch (err) {
      this.logger.debug(`${what} ended with an error after ${Math.round(performance.now() - started)} ms: ${(err as Error).message}`);
      throw err;
    }
  }

  /**
   * Stops a job this process is running now, at once (embedded mode: the API calls it after marking the
   * job cancel-requested; other workers notice the mark within a second). False when it runs none by that id.
   */
  cancel(jobId: string): boolean {
    return this.runner.cancel(jobId);
  }

  /** Polls the database every second until it answers (or the consumer is stopped). */
  private async waitForDatabase(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await new Promise((ok) => setTimeout(ok, DB_POLL_MS));
      try {
        await this.jobs.ping();
        this.logger.log('database is back; resuming');
        return;
      } catch {
        // still away
      }
    }
    throw new Error('worker: stopped while waiting for the database');
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.logger.log('stopping: letting running jobs finish');
    await this.queue.stop(this.config.worker.shutdownTimeoutMs);
  }
}
