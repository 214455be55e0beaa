import { Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { ErrorResponseDto } from '../http/error.dto';
import { JobListDto, V2JobDto } from './v2-jobs.dto';
import { V2JobsService } from './v2-jobs.service';
import { JobListQuery } from './jobs.schema';
import { QueryParams } from '../http/request-schema';

@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/jobs')
@UseGuards(ApiKeyGuard)
export class V2JobsController {
  constructor(private readonly jobs: V2JobsService) {}

  @Get()
  @AllowScope('read_only')
  @ApiOperation({
    summary: "The caller's jobs, newest first (v1 conversions, showcase pictures, animated AR)",
    description: 'Filter by ?status= and ?kind=; page with ?limit= and ?cursor= (next_cursor of the previous page).',
  })
  @QueryParams(JobListQuery)
  @ApiResponse({ status: 200, type: JobListDto })
  list(@Req() req: AuthedRequest, @Query() q: unknown) {
    return this.jobs.list(req.principal.userId, q);
  }

  @Get(':jobId')
  @AllowScope('read_only')
  @ApiOperation({
    summary: 'A v2 job: status (queued, downloading, converting, uploading, completed, failed), progress, and the result once completed',
  })
  @ApiResponse({ status: 200, type: V2JobDto, description: 'Also the body of an animated AR callback.' })
  get(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.jobs.get(req.principal.userId, jobId);
  }

  @Delete(':jobId')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a finished job and its files',
    description:
      'Removes the job (completed or failed) with its stored models, poster and uploaded source. Its embed pages and file URLs answer 410 Gone from then on; ' +
      "GET /api/v2/jobs/{id} answers 404. The owner key may delete any account's job. Ledger entries (charges, refunds) are kept.",
  })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({ status: 404, description: 'No such job for this key (jobs of other accounts included).', type: ErrorResponseDto })
  @ApiResponse({
    status: 409,
    description: 'conflict / job_not_finished: the job is queued or running; cancel it first.',
    type: ErrorResponseDto,
  })
  @ApiResponse({
    status: 503,
    description: 'storage_unavailable: its files could not be deleted now; nothing was removed, try again.',
    type: ErrorResponseDto,
  })
  async delete(@Req() req: AuthedRequest, @Param('jobId') jobId: string): Promise<void> {
    await this.jobs.delete(req.principal, jobId);
  }

  @Post(':jobId/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel a queued or running job',
    description:
      'A queued job never starts: it fails at once with error.code "cancelled" (200). A running job is stopped by its worker within 2 s and then fails with "cancelled" ' +
      '(202: the body may still show it running; poll GET /api/v2/jobs/{id} or wait for the callback). Its charge is refunded in full and its callback (if any) is sent once, with status failed.',
  })
  @ApiResponse({ status: 200, type: V2JobDto, description: 'Cancelled at once: status failed, error.code "cancelled".' })
  @ApiResponse({
    status: 202,
    type: V2JobDto,
    description: 'Cancel requested: the worker stops the job within 2 s; it then fails with error.code "cancelled".',
  })
  @ApiResponse({ status: 404, description: 'No such job for this key (jobs of other accounts included).', type: ErrorResponseDto })
  @ApiResponse({
    status: 409,
    description: 'conflict / job_finished: the job has already completed or failed (a cancelled job included).',
    type: ErrorResponseDto,
  })
  async cancel(@Req() req: AuthedRequest, @Param('jobId') jobId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const out = await this.jobs.cancel(req.principal.userId, jobId);
    if (out.final) void reply.status(200);
    return out.body;
  }
}
