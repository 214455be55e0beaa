import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Analytics1765242000000 implements MigrationInterface {
  name = 'Analytics1765242000000';

  async up(q: QueryRunner): Promise<void> {
    // Engagement counts per day and dimension (docs/analytics.md): no IP, no user agent, no cookie. Empty text and
    // 0 stand for "none" so one unique index covers every row.
    await q.query(`CREATE TABLE "analytics_daily" (
      "day" date NOT NULL,
      "owner_id" varchar NOT NULL,
      "showcase_id" integer NOT NULL,
      "item_id" integer NOT NULL DEFAULT 0,
      "surface" varchar(16) NOT NULL DEFAULT '',
      "variant" varchar(64) NOT NULL DEFAULT '',
      "event" varchar(24) NOT NULL,
      "platform" varchar(16) NOT NULL DEFAULT '',
      "referrer_host" varchar(255) NOT NULL DEFAULT '',
      "count" bigint NOT NULL DEFAULT 0
    )`);
    await q.query(
      `CREATE UNIQUE INDEX "analytics_daily_key" ON "analytics_daily" ("day", "showcase_id", "item_id", "surface", "variant", "event", "platform", "referrer_host")`,
    );
    await q.query(`CREATE INDEX "analytics_daily_owner" ON "analytics_daily" ("owner_id", "day")`);
    // Unique visitors per day, per showcase (item 0) and per item: counts only (the visitors' daily-salted hashes
    // live two days in the buffer, memory or Redis, never here).
    await q.query(`CREATE TABLE "analytics_visitors" (
      "day" date NOT NULL,
      "owner_id" varchar NOT NULL,
      "showcase_id" integer NOT NULL,
      "item_id" integer NOT NULL DEFAULT 0,
      "visitors" bigint NOT NULL DEFAULT 0,
      PRIMARY KEY ("day", "showcase_id", "item_id")
    )`);
    // How far each event log has been counted: written with the counts, so a replay counts nothing twice.
    await q.query(`CREATE TABLE "analytics_cursors" ("log" varchar(64) PRIMARY KEY, "last_id" varchar(64) NOT NULL)`);
    // Per showcase: whether its pages count anything at all.
    await q.query(`ALTER TABLE "showcases" ADD COLUMN "analytics" boolean NOT NULL DEFAULT true`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "showcases" DROP COLUMN "analytics"`);
    await q.query(`DROP TABLE "analytics_cursors"`);
    await q.query(`DROP TABLE "analytics_visitors"`);
    await q.query(`DROP TABLE "analytics_daily"`);
  }
}
