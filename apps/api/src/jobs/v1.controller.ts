import { Body, Controller, Get, HttpCode, Param, Post, Req, Res, UseGuards, UseInterceptors } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, apiKeyIdOf, type AuthedRequest, readerKeyOf } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { IdempotencyInterceptor } from '../http/idempotency/idempotency.interceptor';
import { ConversionService } from './conversion.service';
import { ErrorResponseDto } from '../http/error.dto';
import { ConvertBody } from './jobs.schema';
import { JsonBody } from '../http/request-schema';
import { ConvertResponseDto, ResultResponseDto, StatusResponseDto, WebhookSecretDto } from './v1.dto';

/** v1 single-image conversion (docs/api.md, Converting a picture (v1)). Thin: validation and logic live in the service. */
@ApiTags('v1')
@ApiSecurity('api-key')
@ApiResponse({ status: 401, description: 'Missing, unknown or revoked X-API-Key.', type: ErrorResponseDto })
@ApiResponse({ status: 429, description: 'Rate limited; see Retry-After.', type: ErrorResponseDto })
@Controller('api/v1')
@UseGuards(ApiKeyGuard)
export class V1Controller {
  constructor(private readonly conversions: ConversionService) {}

  @Post('convert')
  @AllowScope('widget')
  @HttpCode(202)
  @UseInterceptors(IdempotencyInterceptor)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same key + same body within 24 h returns the first answer; a different body -> 409.',
  })
  @ApiOperation({ summary: 'Submit an image for conversion', description: 'Creates a job; poll /status or pass callback_url.' })
  @JsonBody(ConvertBody)
  @ApiResponse({ status: 202, type: ConvertResponseDto })
  @ApiResponse({ status: 400, description: 'Invalid parameter (named in error.param).', type: ErrorResponseDto })
  convert(@Req() req: AuthedRequest, @Body() body: unknown) {
    return this.conversions.submit(req.principal.userId, body, apiKeyIdOf(req.principal));
  }

  @Get('status/:jobId')
  @AllowScope('read_only', 'widget')
  @ApiOperation({
    summary: 'Job status and progress (0..100)',
    description: 'A widget key reads only the jobs it created itself (404 for any other).',
  })
  @ApiResponse({ status: 200, type: StatusResponseDto })
  @ApiResponse({ status: 404, description: 'No such job for this key.', type: ErrorResponseDto })
  status(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.conversions.status(req.principal.userId, jobId, readerKeyOf(req.principal));
  }

  @Post('jobs/:jobId/cancel')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel a queued or processing job',
    description:
      'A queued job never starts: it fails at once with error.code "cancelled" (200). A processing job is stopped by its worker within 2 s and then fails with "cancelled" ' +
      '(202: the body may still say processing; poll /status or wait for the callback, sent once with status failed).',
  })
  @ApiResponse({ status: 200, type: StatusResponseDto, description: 'Cancelled at once: status failed, error.code "cancelled".' })
  @ApiResponse({
    status: 202,
    type: StatusResponseDto,
    description: 'Cancel requested: the worker stops the job within 2 s; it then fails with error.code "cancelled".',
  })
  @ApiResponse({ status: 404, description: 'No such job for this key.', type: ErrorResponseDto })
  @ApiResponse({
    status: 409,
    description: 'conflict / job_finished: the job has already completed or failed (a cancelled job included).',
    type: ErrorResponseDto,
  })
  async cancel(@Req() req: AuthedRequest, @Param('jobId') jobId: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const out = await this.conversions.cancel(req.principal.userId, jobId);
    if (out.final) void reply.status(200);
    return out.body;
  }

  @Get('webhook-secret')
  @ApiOperation({
    summary: 'Your callback signing secret',
    description:
      'Verify callbacks with the Standard Webhooks scheme: base64 HMAC-SHA256 of "webhook-id.webhook-timestamp.body" keyed with the base64 part of the secret.',
  })
  @ApiResponse({ status: 200, type: WebhookSecretDto })
  webhookSecret(@Req() req: AuthedRequest) {
    return this.conversions.webhookSecret(req.principal.userId);
  }

  @Get('result/:jobId')
  @AllowScope('read_only', 'widget')
  @ApiOperation({
    summary: 'Result of a completed job',
    description: 'A widget key reads only the jobs it created itself (404 for any other).',
  })
  @ApiResponse({ status: 200, type: ResultResponseDto })
  @ApiResponse({
    status: 409,
    description: 'job_not_finished (still queued/processing) or job_failed (with the failure message).',
    type: ErrorResponseDto,
  })
  @ApiResponse({ status: 404, description: 'No such job for this key.', type: ErrorResponseDto })
  result(@Req() req: AuthedRequest, @Param('jobId') jobId: string) {
    return this.conversions.result(req.principal.userId, jobId, readerKeyOf(req.principal));
  }
}
