import { Controller, Delete, Get, HttpCode, Inject, Injectable, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountRepository, JobRepository, ShowcaseRepository, type JobEntity } from '@app/persistence';
import { isFinal, JOB_STATES } from '@app/pipeline';
import { JobDeletion, STORAGE } from '@app/runtime';
import { progressView, PublicUrls, v2JobView } from '@app/wire';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { JobCancellation } from './job-cancellation.service';
import { ApiKeyGuard, type AuthedRequest, type Principal } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { ErrorResponseDto } from './v1.dto';
import { decodeCursor, encodeCursor, parseLimit } from '../http/list-query';
import { JobListDto, PUBLIC_JOB_KINDS } from './v2-jobs.dto';
import { V2JobDto } from '../showcases/showcases.dto';

/** Public job kinds (as GET /api/v2/jobs/{id} names them) and the stored kinds behind them. */
const KINDS: Record<(typeof PUBLIC_JOB_KINDS)[number], string> = { convert: 'v1.convert', 'showcase.picture': 'v2.picture', animated_ar: 'v2.animated-ar' };
const publicKind = (kind: string) => (Object.entries(KINDS).find(([, stored]) => stored === kind)?.[0] ?? kind);

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

export interface JobListQuery {
  status?: string;
  kind?: string;
  cursor?: string;
  limit?: string;
}

@Injectable()
export class V2JobsService {
  constructor(
    private readonly jobs: JobRepository,
    private readonly showcases: ShowcaseRepository,
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
    return v2JobView(job, { item: await this.showcases.itemForJob(job.id), accounts: this.accounts }, this.urls, this.storage);
  }

  /** The caller's jobs (v1 and v2, callbacks left out), newest first, by status and kind, cursor-paginated. */
  async list(ownerId: string, q: JobListQuery) {
    if (q.status !== undefined && !(JOB_STATES as readonly string[]).includes(q.status)) throw ApiError.invalid('status', `status: one of ${JOB_STATES.join(', ')}`);
    if (q.kind !== undefined && !(q.kind in KINDS)) throw ApiError.invalid('kind', `kind: one of ${PUBLIC_JOB_KINDS.join(', ')}`);
    const limit = parseLimit(q.limit, 20, 100);
    // The creation time in microseconds since 1970: 16 digits reach the year 2286, within what Postgres adds up.
    const after = decodeCursor(q.cursor, /^([0-9]{1,16})\.([a-z0-9_]{1,80})$/);
    const rows = await this.jobs.listForOwner(ownerId, {
      status: q.status, kinds: q.kind ? [KINDS[q.kind as keyof typeof KINDS]] : undefined, limit: limit + 1,
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
    if (!isFinal(mine.status)) throw new ApiError(409, 'conflict', 'job_not_finished', `job ${mine.id} is ${mine.status}: cancel it first (POST /api/v2/jobs/${mine.id}/cancel)`);
    const deleted = await this.deletion.deleteFinished([{ ...mine, checkpoints: mine.checkpoints ?? {} }], 'owner');
    // A file that could not be deleted keeps the row, so the call can be repeated.
    if (!deleted.includes(mine.id)) throw new ApiError(503, 'api_error', 'storage_unavailable', `job ${mine.id}: its files could not be deleted now; try again`);
  }

  /** Cancels the job; `final` when the view already shows it failed with `cancelled`. */
  async cancel(ownerId: string, jobId: string) {
    const job = await this.cancellation.cancel(await this.owned(ownerId, jobId));
    return { final: isFinal(job.status), body: await this.view(job) };
  }
}

@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/jobs')
@UseGuards(ApiKeyGuard)
export class V2JobsController {
  constructor(private readonly jobs: V2JobsService) {}

  @Get()
  @AllowScope('read_only')
  @ApiOperation({ summary: "The caller's jobs, newest first (v1 conversions, showcase pictures, animated AR)", description: 'Filter by ?status= and ?kind=; page with ?limit= and ?cursor= (next_cursor of the previous page).' })
  @ApiQuery({ name: 'status', required: false, enum: JOB_STATES })
  @ApiQuery({ name: 'kind', required: false, enum: PUBLIC_JOB_KINDS })
  @ApiQuery({ name: 'cursor', required: false, description: 'next_cursor of the previous page.', schema: { type: 'string' } })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } })
  @ApiResponse({ status: 200, type: JobListDto })
  list(@Req() req: AuthedRequest, @Query() q: JobListQuery) {
    return this.jobs.list(req.principal.userId, q);
  }

  @Get(':jobId')
  @AllowScope('read_only')
  @ApiOperation({ summary: 'A v2 job: status (queued, downloading, converting, uploading, completed, failed), progress, and the result once completed' })
  @ApiResponse({ status: 200, type: V2JobDto, description: 'Also the body of an animated AR callback.' })
  get(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.jobs.get(req.principal.userId, jobId);
  }

  @Delete(':jobId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a finished job and its files',
    description: 'Removes the job (completed or failed) with its stored models, poster and uploaded source. Its embed pages and file URLs answer 410 Gone from then on; '
      + 'GET /api/v2/jobs/{id} answers 404. The owner key may delete any account\'s job. Ledger entries (charges, refunds) are kept.',
  })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({ status: 404, description: 'No such job for this key (jobs of other accounts included).', type: ErrorResponseDto })
  @ApiResponse({ status: 409, description: 'conflict / job_not_finished: the job is queued or running; cancel it first.', type: ErrorResponseDto })
  @ApiResponse({ status: 503, description: 'storage_unavailable: its files could not be deleted now; nothing was removed, try again.', type: ErrorResponseDto })
  async delete(@Req() req: AuthedRequest, @Param('jobId') jobId: string): Promise<void> {
    await this.jobs.delete(req.principal, jobId);
  }

  @Post(':jobId/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel a queued or running job',
    description: 'A queued job never starts: it fails at once with error.code "cancelled" (200). A running job is stopped by its worker within 2 s and then fails with "cancelled" '
      + '(202: the body may still show it running; poll GET /api/v2/jobs/{id} or wait for the callback). Its charge is refunded in full and its callback (if any) is sent once, with status failed.',
  })
  @ApiResponse({ status: 200, type: V2JobDto, description: 'Cancelled at once: status failed, error.code "cancelled".' })
  @ApiResponse({ status: 202, type: V2JobDto, description: 'Cancel requested: the worker stops the job within 2 s; it then fails with error.code "cancelled".' })
  @ApiResponse({ status: 404, description: 'No such job for this key (jobs of other accounts included).', type: ErrorResponseDto })
  @ApiResponse({ status: 409, description: 'conflict / job_finished: the job has already completed or failed (a cancelled job included).', type: ErrorResponseDto })
  async cancel(@Req() req: AuthedRequest, @Param('jobId') jobId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const out = await this.jobs.cancel(req.principal.userId, jobId);
    if (out.final) void reply.status(200);
    return out.body;
  }
}
