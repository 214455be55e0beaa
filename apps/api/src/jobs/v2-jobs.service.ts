import { Inject, Injectable } from '@nestjs/common';
import { AccountRepository, JobRepository, ShowcaseItemRepository, type JobEntity } from '@app/persistence';
import { isFinal } from '@app/pipeline';
import { JobDeletion, STORAGE } from '@app/runtime';
import { progressView, PublicUrls, v2JobView } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { encodeCursor } from '../http/list-query';
import { parseInput } from '@app/schema';
import { JobListQuery } from './jobs.schema';
import { JobCancellation } from './job-cancellation.service';
import { PUBLIC_JOB_KINDS } from './v2-jobs.dto';

/** Public job kinds (as GET /api/v2/jobs/{id} names them) and the stored kinds behind them. */
const KINDS: Record<(typeof PUBLIC_JOB_KINDS)[number], string> = {
  convert: 'v1.convert',
  'showcase.picture': 'v2.picture',
  animated_ar: 'v2.animated-ar',
};
const publicKind = (kind: string) => Object.entries(KINDS).find(([, stored]) => stored === kind)?.[0] ?? kind;

/** A job of the caller's list: enough to show a row; the details are one GET away. */
function jobSummary(job: JobEntity) {
  return {
    job_id: job.id,
    object: 'job' as const,
    kind: publicKind(job.kind),
    status: job.status,
    progress: progressView(job.status, job.progress),
    ...(job.status === 'failed' && job.error ? { error: { code: job.error.code, message: job.error.message } } : {}),
    created_at: new Date(job.createdAt).toISOString(),
    updated_at: new Date(job.updatedAt).toISOString(),
    finished_at: job.finishedAt ? new Date(job.finishedAt).toISOString() : null,
  };
}

@Injectable()
export class V2JobsService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly accounts: AccountRepository,
    private readonly urls: PublicUrls,
    @Inject(STORAGE) private readonly storage: StoragePort,
    private readonly cancellation: JobCancellation,
    private readonly deletion: JobDeletion,
  ) {}

  private async owned(ownerId: string, jobId: string): Promise<JobEntity> {
    const job = /^v2_[a-z2-7]{1,60}$/.test(jobId) ? await this.jobs.findForOwner(jobId, ownerId) : null;
    if (!job) throw ApiError.notFound(`job ${jobId.slice(0, 80)}`);
    return job;
  }

  private async view(job: JobEntity) {
    return v2JobView(job, { item: await this.showcaseItems.itemForJob(job.id), accounts: this.accounts }, this.urls, this.storage);
  }

  /** The caller's jobs (v1 and v2, callbacks left out), newest first, by status and kind, cursor-paginated. */
  async list(ownerId: string, query: unknown) {
    const q = parseInput(JobListQuery, query ?? {});
    const { limit, cursor: after } = q;
    const rows = await this.jobs.listForOwner(ownerId, {
      status: q.status,
      kinds: q.kind ? [KINDS[q.kind as keyof typeof KINDS]] : undefined,
      limit: limit + 1,
      after: after ? { createdUs: after[0], id: after[1] } : undefined,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: page.map((r) => jobSummary(r.job)),
      has_more: rows.length > limit,
      next_cursor: rows.length > limit ? encodeCursor([last.position.createdUs, last.position.id]) : null,
    };
  }

  async get(ownerId: string, jobId: string) {
    return this.view(await this.owned(ownerId, jobId));
  }

  /**
   * Deletes a finished job with its files (the owner key: any account's). Queued or running → 409: the
   * worker would write files after we deleted them; cancel first.
   */
  async delete(p: Principal, jobId: string): Promise<void> {
    const job = p.keyType === 'owner' && /^v2_[a-z2-7]{1,60}$/.test(jobId) ? await this.jobs.find(jobId) : null;
    const mine = job ?? (await this.owned(p.userId, jobId));
    if (!isFinal(mine.status))
      throw new ApiError(
        409,
        'conflict',
        'job_not_finished',
        `job ${mine.id} is ${mine.status}: cancel it first (POST /api/v2/jobs/${mine.id}/cancel)`,
      );
    const deleted = await this.deletion.deleteFinished([{ ...mine, checkpoints: mine.checkpoints ?? {} }], 'owner');
    // A file that could not be deleted keeps the row, so the call can be repeated.
    if (!deleted.includes(mine.id))
      throw new ApiError(503, 'api_error', 'storage_unavailable', `job ${mine.id}: its files could not be deleted now; try again`);
  }

  /** Cancels the job; `final` when the view already shows it failed with `cancelled`. */
  async cancel(ownerId: string, jobId: string) {
    const job = await this.cancellation.cancel(await this.owned(ownerId, jobId));
    return { final: isFinal(job.status), body: await this.view(job) };
  }
}
