import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { BeaconBody } from '@app/analytics';
import { schemaRef } from '@app/schema';
import { EventIntake } from './event-intake.service';

/** The public beacon endpoint of the pages' engagement analytics (no key: the site id says whose page it is). */
@ApiTags('analytics')
@Controller('api')
export class EventsController {
  constructor(private readonly intake: EventIntake) {}

  @Post('events')
  @HttpCode(204)
  @ApiConsumes('text/plain', 'application/json')
  @ApiBody({
    description:
      'What navigator.sendBeacon sends: JSON text (text/plain, or application/json) {site, referrer?, events: [{id, kind, surface, item_id?, variant?, platform?}]}, at most 20 events, 16 KB.',
    schema: schemaRef(BeaconBody),
  })
  @ApiOperation({
    summary: 'Engagement events from the public pages (beacons)',
    description:
      'No key and no cookie. The events count for the owner of the page `site` names (a showcase shw_… or an item embed emb_…); an item or variant that page does not have is not counted. ' +
      'Not counted either, with the same 204: a request with DNT: 1 or Sec-GPC: 1, a bot or headless user agent, a beacon past ANALYTICS_EVENTS_PER_MINUTE events per client (an IPv4 address, an IPv6 /64) or ANALYTICS_SITE_EVENTS_PER_MINUTE per page, an event id already counted, a showcase with analytics off. ' +
      'Only a daily-salted hash of the IP and user agent is kept (docs/analytics.md).',
  })
  @ApiResponse({ status: 204, description: 'Taken (counted or not: the answer does not say).' })
  @ApiResponse({ status: 400, description: 'Not a beacon: malformed JSON, an unknown kind, surface or field, over 20 events.' })
  @ApiResponse({ status: 413, description: 'Over 16 KB.' })
  async take(@Body() body: unknown, @Req() req: FastifyRequest): Promise<void> {
    const ua = req.headers['user-agent'];
    await this.intake.accept(body, { ip: req.ip, userAgent: Array.isArray(ua) ? ua[0] : ua, headers: req.headers });
  }
}
