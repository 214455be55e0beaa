import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ShopConnections1765587600000 implements MigrationInterface {
  name = 'ShopConnections1765587600000';

  async up(q: QueryRunner): Promise<void> {
    // A Shopify or WooCommerce shop connected to one of its owner's showcases (issue 41, docs/integrations.md).
    // The credentials (token or consumer key and secret, and the webhook secret) are one AES-256-GCM sealed JSON:
    // ciphertext, IV, tag and the id of the key that sealed it (CONNECTIONS_SECRET_KEY; the id lets a rotation
    // find rows sealed with an older key). `shop` is the normalised domain or URL: one connection per shop and
    // showcase. `last_sync` is written by the sync: {at, import_id, outcome}.
    await q.query(`CREATE TABLE "shop_connections" (
      "id" SERIAL PRIMARY KEY,
      "public_id" varchar(40) NOT NULL UNIQUE,
      "owner_id" varchar(64) NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
      "showcase_id" integer NOT NULL REFERENCES "showcases" ("id") ON DELETE CASCADE,
      "platform" varchar(16) NOT NULL,
      "shop" varchar(300) NOT NULL,
      "push" varchar(20) NOT NULL,
      "units" varchar(2) NOT NULL,
      "frames" jsonb NOT NULL DEFAULT '{}'::jsonb,
      "sync_interval_hours" integer NOT NULL,
      "status" varchar(16) NOT NULL DEFAULT 'active',
      "secrets_key_id" varchar(32) NOT NULL,
      "secrets_iv" varchar(32) NOT NULL,
      "secrets_tag" varchar(32) NOT NULL,
      "secrets_ciphertext" text NOT NULL,
      "last_sync" jsonb,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "shop_connections_platform_check" CHECK ("platform" IN ('shopify', 'woocommerce')),
      CONSTRAINT "shop_connections_push_check" CHECK ("push" IN ('metafields', 'metafields+media', 'none')),
      CONSTRAINT "shop_connections_units_check" CHECK ("units" IN ('cm', 'in')),
      CONSTRAINT "shop_connections_status_check" CHECK ("status" IN ('active', 'paused', 'unauthorized')),
      CONSTRAINT "shop_connections_interval_check" CHECK ("sync_interval_hours" >= 0)
    )`);
    await q.query(`CREATE UNIQUE INDEX "shop_connections_shop_showcase" ON "shop_connections" ("showcase_id", "platform", "shop")`);
    await q.query(`CREATE INDEX "shop_connections_owner" ON "shop_connections" ("owner_id", "id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "shop_connections"`);
  }
}
