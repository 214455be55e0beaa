import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Showcases1764028800000 implements MigrationInterface {
  name = 'Showcases1764028800000';

  async up(q: QueryRunner): Promise<void> {
    // The integer id is what the API uses in paths; public pages use the unguessable public_id.
    await q.query(`
      CREATE TABLE "showcases" (
        "id" serial PRIMARY KEY,
        "public_id" varchar(40) NOT NULL UNIQUE,
        "owner_id" varchar(64) NOT NULL REFERENCES "users" ("id"),
        "layout" varchar(32) NOT NULL,
        "logo_url" varchar(2048),
        "description" text,
        "custom_links" jsonb NOT NULL DEFAULT '[]'::jsonb,
        "branding" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "showcases_owner_idx" ON "showcases" ("owner_id")`);
    await q.query(`
      CREATE TABLE "showcase_items" (
        "id" serial PRIMARY KEY,
        "showcase_id" integer NOT NULL REFERENCES "showcases" ("id"),
        "job_id" varchar(64) NOT NULL UNIQUE REFERENCES "jobs" ("id"),
        "source" varchar(16) NOT NULL,
        "source_url" varchar(4096),
        "filename" varchar(255),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "showcase_items_source_check" CHECK ("source" IN ('url', 'upload'))
      )`);
    await q.query(`CREATE INDEX "showcase_items_showcase_idx" ON "showcase_items" ("showcase_id", "id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "showcase_items"`);
    await q.query(`DROP TABLE "showcases"`);
  }
}
