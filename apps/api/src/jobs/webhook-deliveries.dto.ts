import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documentation shapes of GET /api/v2/webhooks/deliveries; built by WebhookDeliveriesService. */

export class WebhookDeliveryDto {
  @ApiProperty({ example: 42 }) id!: number;
  @ApiProperty({ enum: ['webhook_delivery'] }) object!: string;
  @ApiProperty({ example: 'api_3kq7xa2mzp4r' }) job_id!: string;
  @ApiProperty({ description: 'webhook-id header: the same for every attempt of one event.' }) webhook_id!: string;
  @ApiProperty({ example: 'job.completed' }) event!: string;
  @ApiProperty({ description: "The callback URL without its query string or fragment (they often carry the receiver's token)." })
  url!: string;
  @ApiProperty({ type: 'integer', description: '1 for the first attempt.' }) attempt!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: "The receiver's HTTP status; null when there was no answer." })
  status_code!: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'Why the attempt failed (timeout, connection refused, …).' }) error!:
    string | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
  @ApiProperty() succeeded!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto], description: 'Newest first.' }) data!: WebhookDeliveryDto[];
}
