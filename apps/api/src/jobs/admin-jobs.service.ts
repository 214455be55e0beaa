import { Inject, Injectable } from '@nestjs/common';
import { toCredits } from '@app/billing';
import { AccountRepository, DataDeletionRepository, JobRepository, type JobEntity } from '@app/persistence';
import { isFinal, JOB_STATES } from '@app/pipeline';
import type { JobQueuePort } from '@app/queue';
import { JOB_QUEUE, JobDeletion } from '@app/runtime';
import { ApiError } from '../http/api-error';
import { parseInput } from '@app/schema';
import { AdminJobListQuery, AdminUserListQuery } from './jobs.schema';
import { JobAdmission } from './job-admission.service';
import { JobCancellation } from './job-cancellation.service';
import { ApiKeyCache } from '../http/api-keys/api-key-cache.service';

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

const jobView = (j: JobEntity) => ({
  id: j.id,
  kind: j.kind,
  status: j.status,
  user_id: j.ownerId,
  progress: j.progress,
  attempts: j.attempts,
  error: j.error ? { code: j.error.code, message: j.error.message } : null,
  cancel_requested: j.cancelRequestedAt !== null && j.cancelRequestedAt !== undefined,
  created_at: new Date(j.createdAt).toISOString(),
  started_at: iso(j.startedAt),
  finished_at: iso(j.finishedAt),
  request_id: j.requestId ?? null,
});

/**
 * The operators' view of jobs, users and the queue (GET/POST /api/admin/jobs…, /users, /queue; the admin
 * CLI's `jobs`, `users list` and `queue`). Cancelling goes through the same {@link JobCancellation} as the
 * clients' cancel, and a retry is queued by {@link JobAdmission} like a new job.
 */
@Injectable()
export class AdminJobsService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly accounts: AccountRepository,
    private readonly admission: JobAdmission,
    private readonly cancellation: JobCancellation,
    @Inject(JOB_QUEUE) private readonly queue: JobQueuePort,
    private readonly deletion: JobDeletion,
    private readonly deletions: DataDeletionRepository,
    private readonly keyCache: ApiKeyCache,
  ) {}

  /**
   * Deletes a user with all their data: every job's stored files, then (one transaction) jobs, showcases,
   * keys, webhook secret and idempotency records. Ledger entries stay, anonymised (user_id null, a stable
   * pseudonym). Refused while the user has queued or running jobs (cancel them first), and for the service user.
   */
  async deleteUser(id: string): Promise<void> {
    const user = /^usr_[a-z2-7]{1,40}$/.test(id) ? await this.accounts.findUser(id) : null;
    if (!user || user.internal) throw ApiError.notFound(`user ${id.slice(0, 60)}`);
    const active = await this.deletions.unfinishedOfOwner(id);
    if (active > 0)
      throw new ApiError(409, 'conflict', 'user_has_active_jobs', `user ${id} has ${active} queued or running job(s): cancel them first`);
    let deleted: boolean;
    try {
      deleted = await this.deletion.deleteUser(id);
    } catch (err) {
      throw new ApiError(
        503,
        'api_error',
        'storage_unavailable',
        `user ${id}: ${(err as Error).message}; nothing was deleted from the database, try again`,
      );
    }
    if (!deleted) throw ApiError.notFound(`user ${id.slice(0, 60)}`);
    await this.keyCache.revoked({ userId: id });
  }

  async list(query: unknown) {
    const { status, user, since, limit } = parseInput(AdminJobListQuery, query ?? {});
    const rows = await this.jobs.listForAdmin({ status, ownerId: user, since, limit: limit + 1 });
    return { data: rows.slice(0, limit).map(jobView), has_more: rows.length > limit };
  }

  private async job(id: string): Promise<JobEntity> {
    const job = id.length <= 64 ? await this.jobs.find(id) : null;
    if (!job) throw ApiError.notFound(`job ${id.slice(0, 80)}`);
    return job;
  }

  /** Cancels any account's job; `final` when it is failed with `cancelled` already (it was queued). */
  async cancel(id: string) {
    const job = await this.cancellation.cancel(await this.job(id));
    return { final: isFinal(job.status), body: jobView(job) };
  }

  /**
   * Runs a failed job again. Its charge was refunded when it failed and is not taken again: a retry is
   * the operator's decision. A completed job is refused (its result stands), as is one still running.
   */
  async retry(id: string) {
    const job = await this.job(id);
    if (job.status !== 'failed')
      throw new ApiError(409, 'conflict', 'job_not_failed', `job ${job.id} is ${job.status}; only a failed job can be retried`);
    // Its place in the fair order, as a new job of its owner's would get (counted before it is unfinished again).
    const active = await this.jobs.countUnfinished(job.ownerId);
    if (!(await this.jobs.requeueFailed(job.id)))
      throw new ApiError(409, 'conflict', 'job_not_failed', `job ${job.id} changed state meanwhile; only a failed job can be retried`);
    // The job as requeued: read before it is enqueued, since a free worker may start it at once.
    const queued = (await this.jobs.find(job.id)) ?? job;
    await this.admission.enqueue(job.ownerId, [job.id], active);
    return jobView(queued);
  }

  async users(query: unknown) {
    const { limit } = parseInput(AdminUserListQuery, query ?? {});
    const rows = await this.accounts.listUsers(limit + 1);
    return {
      data: rows.slice(0, limit).map((u) => ({
        id: u.id,
        email: u.email,
        name: u.name,
        credits: toCredits(u.creditsCents),
        showcase_slots: u.showcaseSlots,
        internal: u.internal === true,
        created_at: new Date(u.createdAt).toISOString(),
      })),
      has_more: rows.length > limit,
    };
  }

  async queueState() {
    const [counts, byStatus, oldest] = await Promise.all([this.queue.counts(), this.jobs.countByStatus(), this.jobs.oldestQueued()]);
    return {
      driver: this.queue.driver,
      queue: counts,
      jobs: Object.fromEntries(JOB_STATES.map((s) => [s, byStatus[s] ?? 0])),
      oldest_waiting: oldest
        ? {
            job_id: oldest.id,
            created_at: oldest.createdAt.toISOString(),
            age_s: Math.max(0, Math.round((Date.now() - oldest.createdAt.getTime()) / 1000)),
          }
        : null,
    };
  }
}
