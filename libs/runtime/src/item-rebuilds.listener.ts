import {
  type DataDeletionRepository,
  type ItemEditRepository,
  type RebuildSettlement,
  VARIANT_BUILD_INPUT,
  type VariantBuildSettlement,
} from '@app/persistence';
import type { JobListener, RunnableJob } from '@app/pipeline';
import { REBUILD_INPUT } from '@app/plugins';
import type { JobDeletion } from './job-deletion.service';

/** A showcase item's rebuild: a picture job whose input has {@link REBUILD_INPUT} (`{item_id, from_job}`, RebuildJobInput). */
export const isItemRebuild = (job: Pick<RunnableJob, 'kind' | 'input'>): boolean =>
  job.kind === 'v2.picture' && typeof job.input?.[REBUILD_INPUT] === 'object' && job.input[REBUILD_INPUT] !== null;

/** A job building some variants of a showcase item from its stored texture ({@link VARIANT_BUILD_INPUT}). */
export const isVariantBuild = (job: Pick<RunnableJob, 'kind' | 'input'>): boolean =>
  job.kind === 'v2.picture' && typeof job.input?.[VARIANT_BUILD_INPUT] === 'object' && job.input[VARIANT_BUILD_INPUT] !== null;

/**
 * Finishes showcase item rebuilds, wherever jobs finish (the worker process in scaled mode, the one
 * process in embedded mode, the API for a cancelled queued job): a completed rebuild becomes the item's
 * job in one UPDATE (its embed id moves to it, ItemEditRepository.settleRebuild), then the replaced job is
 * deleted with its files; a failed one leaves the item on its files with the error; a superseded one that
 * completed is deleted (nothing uses its files). The worker's sweep ({@link sweep}) settles what a lost call
 * left pending.
 */
export class ItemRebuilds implements JobListener {
  constructor(
    private readonly edits: ItemEditRepository,
    private readonly deletions: DataDeletionRepository,
    private readonly jobDeletion: JobDeletion,
  ) {}

  async onCompleted(job: RunnableJob): Promise<void> {
    if (isItemRebuild(job)) await this.settle(job.id);
    else if (isVariantBuild(job)) await this.settleVariants(job.id);
  }

  async onFailed(job: RunnableJob): Promise<void> {
    if (isItemRebuild(job)) await this.settle(job.id);
    else if (isVariantBuild(job)) await this.settleVariants(job.id);
  }

  /**
   * A finished variant build: its variants serve its files (or keep theirs and its error); the jobs no
   * variant uses any more are deleted with their files, as is a superseded build that completed.
   */
  async settleVariants(jobId: string): Promise<VariantBuildSettlement> {
    const out = await this.edits.settleVariantBuild(jobId);
    if (out.outcome === 'settled') for (const id of out.replacedJobIds) await this.discard(id);
    else if (out.outcome === 'orphan' && (out.status === 'completed' || out.status === 'failed')) await this.discard(jobId);
    return out;
  }

  async settle(jobId: string): Promise<RebuildSettlement> {
    const out = await this.edits.settleRebuild(jobId);
    if (out.outcome === 'switched') await this.discard(out.replacedJobId);
    else if (out.outcome === 'orphan' && out.status === 'completed') await this.discard(jobId);
    return out;
  }

  /** Settles every pending rebuild whose job has finished; returns how many. */
  async sweep(): Promise<number> {
    let n = 0;
    for (const id of await this.edits.finishedRebuilds()) {
      const out = await this.settle(id);
      if (out.outcome === 'switched' || out.outcome === 'failed') n++;
    }
    for (const id of await this.edits.finishedVariantBuilds()) {
      if ((await this.settleVariants(id)).outcome === 'settled') n++;
    }
    return n;
  }

  /** Files first, then the row (a tombstone keeps its ids answering 410); a file that cannot go now stays for retention. */
  private async discard(jobId: string): Promise<void> {
    const job = await this.deletions.job(jobId);
    if (job) await this.jobDeletion.deleteFinished([job], 'owner');
  }
}
