import { AccountRepository } from '@app/persistence';
import type { JobErrorInfo, JobListener, RunnableJob } from '@app/pipeline';

/** Job kinds whose up-front charge is refunded, every line of it, when the job fails. */
export const REFUNDED_ON_FAILURE: readonly string[] = ['v2.picture', 'v2.animated-ar'];

/** Ledger purpose of an animated AR price line (one charge per line, so each can be refunded alone). */
export const animatedArPurpose = (item: string): string => `animated-ar.${item}`;

/**
 * Refunds a failed job's charge, exactly once (the ledger's unique (job, purpose, kind) index makes a
 * second refund a no-op). Owner-key and free jobs have no charge, so nothing is refunded.
 * An animated AR job whose source turned out already animated gets its AI motion line back on completion.
 */
export class RefundOnFailure implements JobListener {
  constructor(private readonly accounts: AccountRepository) {}

  async onFailed(job: RunnableJob, _error: JobErrorInfo): Promise<void> {
    if (REFUNDED_ON_FAILURE.includes(job.kind)) await this.accounts.refundJob(job.id);
  }

  async onCompleted(job: RunnableJob, result: Record<string, unknown>): Promise<void> {
    if (job.kind === 'v2.animated-ar' && result.ai_motion_skipped === true) await refundSkippedMotion(this.accounts, job.id);
  }
}

/** The AI part of an animated AR price (motion + model surcharge), refunded when no motion ran. */
export async function refundSkippedMotion(accounts: AccountRepository, jobId: string): Promise<number> {
  let cents = 0;
  for (const item of ['ai_motion', 'model_surcharge']) cents += (await accounts.refund(jobId, animatedArPurpose(item)))?.amountCents ?? 0;
  return cents;
}
