import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { JobRepository } from '@app/persistence';
import type { JobQueuePort } from '@app/queue';
import { APP_CONFIG, JOB_QUEUE, SERVICE_USER_ID } from '@app/runtime';
import { ApiError } from '../http/api-error';

/** Seconds a client refused by the per-account cap is told to wait. */
const CAP_RETRY_AFTER_S = 30;

/**
 * Fair share between accounts, for every job-creating request:
 * - a cap on each account's queued + running jobs (`ACCOUNT_MAX_ACTIVE_JOBS`; the owner key, an
 *   operator's, is exempt), checked before anything is stored or charged;
 * - each new job is queued with its position among its owner's unfinished jobs as priority, so every
 *   account's next job runs before any account's later ones, whatever one account has queued.
 */
@Injectable()
export class JobAdmission {
  private readonly logger = new Logger('JobAdmission');

  constructor(
    private readonly jobs: JobRepository,
    @Inject(JOB_QUEUE) private readonly queue: JobQueuePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Refuses with 429 when `count` more jobs would take the account past its cap.
   * @returns how many unfinished jobs the account has now (the base of the new jobs' positions)
   */
  async admit(ownerId: string, count = 1): Promise<number> {
    const active = await this.jobs.countUnfinished(ownerId);
    const cap = this.config.accountMaxActiveJobs;
    if (cap > 0 && ownerId !== SERVICE_USER_ID && active + count > cap) {
      const adds = count > 1 ? ` and this request would add ${count}` : '';
      throw new ApiError(
        429,
        'rate_limited',
        'too_many_active_jobs',
        `this account has ${active} jobs queued or running${adds}; at most ${cap} at once. Nothing was created or charged; retry when some have finished.`,
        undefined,
        { 'retry-after': String(CAP_RETRY_AFTER_S) },
      );
    }
    return active;
  }

  /**
   * Queues new jobs in fair order, grouped by their owner (a worker gives one account at most
   * `ACCOUNT_MAX_RUNNING_JOBS` of its slots). When the queue is down the jobs stay `queued` in the
   * database and the workers' sweep queues them once it is back: the request still answers 202 at once.
   */
  async enqueue(ownerId: string | null, jobIds: readonly string[], activeBefore: number): Promise<void> {
    const group = ownerId ?? undefined;
    await Promise.all(
      jobIds.map((id, i) =>
        this.queue.enqueue(id, { priority: activeBefore + i + 1, group }).catch((err: Error) => {
          this.logger.warn(`job ${id} stored but not queued (${err.message}); the sweep queues it when the queue is back`);
        }),
      ),
    );
  }
}
