import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ANALYTICS_BUFFER, type AnalyticsBufferPort, MemoryAnalyticsBuffer, RedisAnalyticsBuffer } from '@app/analytics';
import type { AppConfig } from '@app/config';
import { APP_CONFIG } from '@app/runtime';
import { HttpModule } from '../http/http.module';
import { registerBeaconBodies } from './analytics-bodies';
import { AnalyticsController } from './analytics.controller';
import { AnalyticsFlusher } from './analytics-flusher.service';
import { AnalyticsService } from './analytics.service';
import { EventIntake } from './event-intake.service';
import { EventsController } from './events.controller';
import { SiteResolver } from './site-resolver.service';

/**
 * Engagement analytics (docs/analytics.md): the pages' beacons (POST /api/events), buffered in process or in
 * Redis (scaled mode), added to daily counts by the flusher, read at GET /api/v2/analytics.
 */
@Module({
  imports: [HttpModule],
  controllers: [EventsController, AnalyticsController],
  providers: [
    {
      provide: ANALYTICS_BUFFER,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): AnalyticsBufferPort =>
        config.redisUrl ? new RedisAnalyticsBuffer(config.redisUrl, config.worker.queueName) : new MemoryAnalyticsBuffer(),
    },
    SiteResolver,
    EventIntake,
    AnalyticsFlusher,
    AnalyticsService,
  ],
  exports: [AnalyticsFlusher, EventIntake],
})
export class AnalyticsModule {
  // Created before the routes are registered: the text/plain parser and the route's body limit are in place for them.
  constructor(host: HttpAdapterHost) {
    const fastify = host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (fastify && typeof fastify.addContentTypeParser === 'function') registerBeaconBodies(fastify);
  }
}
