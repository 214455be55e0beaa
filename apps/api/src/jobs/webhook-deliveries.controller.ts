import { Controller, Get, Query, Req, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { WebhookDeliveryListDto } from './webhook-deliveries.dto';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { DeliveryListQuery } from './jobs.schema';
import { QueryParams } from '../http/request-schema';

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
  @QueryParams(DeliveryListQuery)
  @ApiResponse({ status: 200, type: WebhookDeliveryListDto })
  list(@Req() req: AuthedRequest, @Query() q: unknown) {
    return this.deliveries.recent(req.principal.userId, q);
  }
}
