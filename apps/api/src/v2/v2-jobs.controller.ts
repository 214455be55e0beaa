import { Controller, Delete, Get, HttpCode, Inject, Injectable, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AccountRepository, JobRepository, ShowcaseRepository, type JobEntity } from '@app/persistence';
import { isFinal } from '@app/pipeline';
import { JobDeletion, PublicUrls, STORAGE, v2JobView } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { JobCancellation } from '../jobs/job-cancellation.service';
import { ApiKeyGuard, type AuthedRequest, type Principal } from '../http/api-key.guard';
import { ErrorResponseDto } from '../v1/v1.dto';
import { V2JobDto } from './v2.dto';

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

  @Get(':jobId')
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
