import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags, getSchemaPath, ApiExtraModels } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, type AuthedRequest } from '../http/api-key.guard';
import { AllowScope } from '../http/api-keys/key-scope';
import { QueryParams } from '../http/request-schema';
import { AnalyticsDto } from './analytics.dto';
import { AnalyticsQuery } from './analytics.schema';
import { AnalyticsService } from './analytics.service';

@ApiTags('analytics')
@ApiSecurity('api-key')
@ApiExtraModels(AnalyticsDto)
@Controller('api/v2')
@UseGuards(ApiKeyGuard)
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get('analytics')
  @AllowScope('read_only')
  @QueryParams(AnalyticsQuery)
  @ApiOperation({
    summary: 'Engagement: views, 3D interactions, AR launches, banner taps, unique visitors and the funnel',
    description:
      'Counts from the public pages (showcase, item, wall and embed pages, the widget, the QR hand-off) over a range of UTC days (default the last 30, at most 366), ' +
      "for the caller's account (the owner key: every account, or account_id), optionally one showcase, item or conversion (job_id: a v1 job's embed pages and widget), optionally grouped by day, item (ranked by AR launches), AR platform or referring site. " +
      '?format=csv gives the groups (or the totals) as CSV. Counts arrive within ANALYTICS_FLUSH_MS (1 s) of the beacon.',
  })
  @ApiResponse({
    status: 200,
    description: 'The counts (JSON), or CSV with ?format=csv.',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(AnalyticsDto) } },
      'text/csv': {
        schema: {
          type: 'string',
          example:
            'day,views,interactions,ar_launches,banner_taps,qr_opens,variant_selects,room_views,unique_visitors\r\n2026-11-24,120,40,12,3,2,5,4,61\r\n',
        },
      },
    },
  })
  @ApiResponse({ status: 404, description: "showcase_id, item_id or job_id is not the caller's (or does not exist)." })
  async get(@Req() req: AuthedRequest, @Query() q: unknown, @Res() reply: FastifyReply): Promise<void> {
    const out = await this.analytics.report(req.principal, q);
    if (out.format === 'csv')
      await reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="analytics-${out.body.from}-${out.body.to}.csv"`)
        .send(out.csv());
    else await reply.header('content-type', 'application/json; charset=utf-8').send(out.body);
  }
}
