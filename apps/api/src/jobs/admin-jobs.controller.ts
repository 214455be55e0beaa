import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AdminJobListQuery, AdminUserListQuery } from './jobs.schema';
import { QueryParams } from '../http/request-schema';
import { ApiKeyGuard, OwnerKeyGuard } from '../http/api-key.guard';
import { ErrorResponseDto } from '../http/error.dto';
import { AdminJobDto, AdminJobListDto, AdminQueueDto, AdminUserListDto } from './admin-jobs.dto';
import { AdminJobsService } from './admin-jobs.service';

/** Operators' jobs, users and queue, owner key only (the admin CLI's `jobs`, `users list`, `queue`). */
@ApiTags('admin')
@ApiSecurity('api-key')
@Controller('api/admin')
@UseGuards(ApiKeyGuard, OwnerKeyGuard)
export class AdminJobsController {
  constructor(private readonly admin: AdminJobsService) {}

  @Get('jobs')
  @ApiOperation({ summary: 'Jobs of every account, newest first, by status, user and creation time' })
  @QueryParams(AdminJobListQuery)
  @ApiResponse({ status: 200, type: AdminJobListDto })
  list(@Query() q: unknown) {
    return this.admin.list(q);
  }

  @Post('jobs/:id/retry')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Run a failed job again',
    description:
      'The job is queued again as new (error, progress and attempts cleared). Its charge, refunded when it failed, is not taken again.',
  })
  @ApiResponse({ status: 202, type: AdminJobDto, description: 'Queued again.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'job_not_failed: only a failed job can be retried.' })
  retry(@Param('id') id: string) {
    return this.admin.retry(id);
  }

  @Post('jobs/:id/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary: "Cancel any account's queued or running job",
    description: 'As POST /api/v2/jobs/{id}/cancel: refund and callback once.',
  })
  @ApiResponse({ status: 200, type: AdminJobDto, description: 'Cancelled at once: status failed, error.code "cancelled".' })
  @ApiResponse({ status: 202, type: AdminJobDto, description: 'Cancel requested: its worker stops it within 2 s.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'job_finished: the job has already completed or failed.' })
  async cancel(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const out = await this.admin.cancel(id);
    if (out.final) void reply.status(200);
    return out.body;
  }

  @Get('users')
  @ApiOperation({ summary: 'Users, oldest first' })
  @QueryParams(AdminUserListQuery)
  @ApiResponse({ status: 200, type: AdminUserListDto })
  users(@Query() q: unknown) {
    return this.admin.users(q);
  }

  @Delete('users/:id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a user with all their data',
    description:
      'Their jobs with every stored file (models, posters, uploads), showcases, API keys, webhook secret and idempotency records. ' +
      'Ledger entries are kept for accounting, anonymised: user_id removed, a stable pseudonym (deleted_…) instead. Embed pages and files of their jobs answer 410 from then on.',
  })
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({ status: 404, type: ErrorResponseDto })
  @ApiResponse({ status: 409, type: ErrorResponseDto, description: 'user_has_active_jobs: cancel their queued and running jobs first.' })
  @ApiResponse({
    status: 503,
    type: ErrorResponseDto,
    description: 'storage_unavailable: some files could not be deleted; nothing was removed from the database. Try again.',
  })
  async deleteUser(@Param('id') id: string): Promise<void> {
    await this.admin.deleteUser(id);
  }

  @Get('queue')
  @ApiOperation({ summary: 'Queue messages by state, jobs by status and the oldest waiting job' })
  @ApiResponse({ status: 200, type: AdminQueueDto })
  queue() {
    return this.admin.queueState();
  }
}
