import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ShopWebhookDeliveries1765674000000 implements MigrationInterface {
  name = 'ShopWebhookDeliveries1765674000000';

  async up(q: QueryRunner): Promise<void> {
    // The product webhooks a shop connection has applied (issue 41): Shopify's X-Shopify-Webhook-Id, WooCommerce's
    // X-WC-Webhook-Delivery-ID. A delivery sent again (the shops retry, and a replay must change nothing) finds its
    // row and is not applied twice. Rows older than a week are pruned: the shops stop retrying long before.
    await q.query(`CREATE TABLE "shop_webhook_deliveries" (
      "connection_id" integer NOT NULL REFERENCES "shop_connections" ("id") ON DELETE CASCADE,
      "delivery_id" varchar(100) NOT NULL,
      "received_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("connection_id", "delivery_id")
    )`);
    await q.query(`CREATE INDEX "shop_webhook_deliveries_received" ON "shop_webhook_deliveries" ("received_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "shop_webhook_deliveries"`);
  }
}
