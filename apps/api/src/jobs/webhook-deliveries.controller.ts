import { Controller, Get, Injectable, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { WebhookRepository } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { callbackUrlView } from '../http/request-url';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';

export class WebhookDeliveryDto {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ enum: ['webhook_delivery'] }) object!: string;
  @ApiProperty({ example: 'api_3kq7xa2mzp4r' }) job_id!: string;
  @ApiProperty({ description: 'webhook-id header: the same for every attempt of one event.' }) webhook_id!: string;
  @ApiProperty({ example: 'job.completed' }) event!: string;
  @ApiProperty({ description: 'The callback URL without its query string or fragment (they often carry the receiver\'s token).' }) url!: string;
  @ApiProperty({ type: 'integer', description: '1 for the first attempt.' }) attempt!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: "The receiver's HTTP status; null when there was no answer." }) status_code!: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why the attempt failed (timeout, connection refused, …).' }) error!: string | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiProperty() succeeded!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Newest first.' }) data!: WebhookDeliveryDto[];
}

@Injectable()
export class WebhookDeliveriesService {
  constructor(private readonly webhooks: WebhookRepository) {}

  async recent(userId: string, q: { limit?: string }) {
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw ApiError.invalid('limit', 'limit: a whole number from 1 to 200');
    const rows = await this.webhooks.recentForOwner(userId, limit);
    return {
      data: rows.map((d) => ({
        id: d.id, job_id: d.jobId, webhook_id: d.webhookId, event: d.event, url: callbackUrlView(d.url), attempt: d.attempt, status_code: d.statusCode,
        error: d.error, duration_ms: d.durationMs, succeeded: d.succeeded, created_at: new Date(d.createdAt).toISOString(), object: 'webhook_delivery' as const,
      })),
    };
  }
}

/** The caller's recent callback deliveries (each attempt, with the receiver's answer): what the console's webhooks page shows. */
@ApiTags('v2')
@ApiSecurity('api-key')
@Controller('api/v2/webhooks')
@UseGuards(ApiKeyGuard)
export class WebhookDeliveriesController {
  constructor(private readonly deliveries: WebhookDeliveriesService) {}

  @Get('deliveries')
  @AllowScope('read_only')
  @ApiOperation({ summary: 'Recent callback delivery attempts of your jobs, newest first' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiResponse({ status: 200, type: WebhookDeliveryListDto })
  list(@Req() req: AuthedRequest, @Query() q: { limit?: string }) {
    return this.deliveries.recent(req.principal.userId, q);
  }
}
