import { Module } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { DataSource } from 'typeorm';
import { ConnectionsModule } from '../connections/connections.module';
import { ShopWebhooksController } from './shop-webhooks.controller';
import { ShopWebhooksService } from './shop-webhooks.service';
import { registerWebhookBodies } from './webhook-bodies';
import { WebhookDeliveryRepository } from './webhook-deliveries.repository';

/** The shops' product webhooks (/webhooks/shopify/{id}, /webhooks/woocommerce/{id}; issue 41). */
@Module({
  imports: [ConnectionsModule],
  controllers: [ShopWebhooksController],
  providers: [
    ShopWebhooksService,
    { provide: WebhookDeliveryRepository, inject: [DataSource], useFactory: (ds: DataSource) => new WebhookDeliveryRepository(ds) },
  ],
})
export class ShopWebhooksModule {
  // Created before the routes are registered: the raw body is kept for the signature check.
  constructor(host: HttpAdapterHost) {
    const fastify = host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (fastify && typeof fastify.addContentTypeParser === 'function') registerWebhookBodies(fastify);
  }
}
