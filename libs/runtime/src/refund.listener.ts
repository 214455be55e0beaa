import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AccountRepository } from '@app/persistence';
import type { JobErrorInfo, JobListener, RunnableJob } from '@app/pipeline';

/** Job kinds whose up-front charge is refunded when the job fails, and the ledger purpose charged. */
export const REFUNDED_ON_FAILURE: Readonly<Record<string, string>> = {
  'v2.picture': 'showcase.picture',
};

/**
 * Refunds a failed job's charge, exactly once (the ledger's unique (job, purpose, kind) index makes a
 * second refund a no-op). Owner-key and free jobs have no charge, so nothing is refunded.
 */
export class RefundOnFailure implements JobListener {
  constructor(private readonly accounts: AccountRepository) {}

  async onFailed(job: RunnableJob, _error: JobErrorInfo): Promise<void> {
    const purpose = REFUNDED_ON_FAILURE[job.kind];
    if (purpose) await this.accounts.refund(job.id, purpose);
  }
}

/**
 * Catches refunds a crash lost between "job failed" and the listener (at start and every minute).
 */
@Injectable()
export class RefundReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Refunds');
  private timer?: NodeJS.Timeout;

  constructor(private readonly accounts: AccountRepository) {}

  async reconcile(): Promise<number> {
    let n = 0;
    for (const [kind, purpose] of Object.entries(REFUNDED_ON_FAILURE)) {
      for (const jobId of await this.accounts.unrefundedFailures(kind, purpose)) {
        if (await this.accounts.refund(jobId, purpose)) n++;
      }
    }
    if (n) this.logger.warn(`refunded ${n} failed job(s) whose refund had not been written`);
    return n;
  }

  onApplicationBootstrap(): void {
    const tick = () => void this.reconcile().catch((e: Error) => this.logger.error(`refund sweep failed: ${e.message}`));
    tick();
    this.timer = setInterval(tick, 60_000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
