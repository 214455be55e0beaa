import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AccountRepository } from '@app/persistence';
import { REFUNDED_ON_FAILURE, refundSkippedMotion } from '@app/runtime';

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
    for (const kind of REFUNDED_ON_FAILURE) {
      for (const jobId of await this.accounts.unrefundedFailures(kind)) {
        if (await this.accounts.refundJob(jobId)) n++;
      }
    }
    for (const jobId of await this.accounts.unrefundedSkippedMotion()) {
      if (await refundSkippedMotion(this.accounts, jobId)) n++;
    }
    if (n) this.logger.warn(`wrote ${n} refund(s) a lost listener call had not written`);
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
