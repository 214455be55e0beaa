import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { JobRepository, type JobEntity } from '@app/persistence';
import {
  isFinal,
  JOB_LISTENER,
  JobCancelledError,
  type JobListener,
  type MetricsPort,
  notifyListeners,
  resolveMetrics,
  toJobError,
} from '@app/pipeline';
import { PIPELINE_CONTAINER } from '@app/runtime';
import { JobWorkerService } from '@apps/worker';
import type { DependencyContainer } from 'tsyringe';
import { ApiError } from '../http/api-error';

/**
 * POST /api/v{1,2}/jobs/:id/cancel, for both API versions (the controllers check ownership first).
 *
 * - A queued job fails with `cancelled` at once, here: the job listeners run as the runner would run them
 *   (refund of the charge, the callback), each exactly once (the ledger and the callback job id are
 *   unique); the queue message that is still out is skipped by the worker, the job being final.
 * - A running job is marked cancel-requested; the worker running it reads the mark every second (or, in
 *   embedded mode, is told at once), aborts its stage's signal and fails it with `cancelled` itself,
 *   which runs the listeners once.
 * - A finished job: 409 `conflict` / `job_finished`.
 */
@Injectable()
export class JobCancellation {
  private readonly logger = new Logger('JobCancellation');

  constructor(
    private readonly jobs: JobRepository,
    @Inject(PIPELINE_CONTAINER) private readonly container: DependencyContainer,
    /** Present in embedded mode (role "all"), where the job may be running in this process. */
    @Optional() private readonly worker?: JobWorkerService,
  ) {}

  // Read when first needed, not in the constructor: the listeners and metrics are registered into the
  // container while the pipeline registry boots, which Nest may do after constructing this service.
  private get listeners(): JobListener[] {
    return this.container.isRegistered(JOB_LISTENER) ? this.container.resolveAll<JobListener>(JOB_LISTENER) : [];
  }

  private get metrics(): MetricsPort {
    return resolveMetrics(this.container);
  }

  /** Cancels an owned job; returns it as it is now (final at once when it was queued). */
  async cancel(job: JobEntity): Promise<JobEntity> {
    if (isFinal(job.status)) throw finished(job);
    const error = toJobError(new JobCancelledError());
    const outcome = await this.jobs.requestCancel(job.id, error);
    if (outcome === 'final' || outcome === 'missing') throw finished((await this.jobs.find(job.id)) ?? job);
    if (outcome === 'failed') {
      // Ended here, not in a runner: counted here.
      this.metrics.jobFinished(job.kind, 'cancelled');
      const runnable = {
        id: job.id,
        kind: job.kind,
        pipeline: job.pipeline,
        status: 'failed' as const,
        ownerId: job.ownerId,
        input: job.input,
        attempts: job.attempts,
      };
      // The refund sweep catches a lost refund; the worker's sweep delivers a created callback job.
      await notifyListeners(
        this.listeners,
        (l) => l.onFailed?.(runnable, error),
        (err) => this.logger.error(`job ${job.id}: listener failed after cancel: ${err.message}`),
      );
    } else if (this.worker?.cancel(job.id)) {
      // Running here: stopped now; let the runner record it before answering.
      await this.settle(job.id);
    }
    return (await this.jobs.find(job.id)) ?? job;
  }

  /** Waits up to a second for a job stopped in this process to be recorded as failed. */
  private async settle(jobId: string): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const j = await this.jobs.find(jobId);
      if (!j || isFinal(j.status)) return;
      await new Promise((ok) => setTimeout(ok, 50));
    }
  }
}

function finished(job: JobEntity): ApiError {
  return new ApiError(
    409,
    'conflict',
    'job_finished',
    `job ${job.id} has already ${job.status === 'completed' ? 'completed' : 'failed'}; only a queued or running job can be cancelled`,
  );
}
