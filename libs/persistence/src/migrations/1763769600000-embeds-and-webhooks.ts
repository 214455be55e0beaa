import type { MigrationInterface, QueryRunner } from 'typeorm';

export class EmbedsAndWebhooks1763769600000 implements MigrationInterface {
  name = 'EmbedsAndWebhooks1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" ADD COLUMN "public_id" varchar(40)`);
    await q.query(`CREATE UNIQUE INDEX "jobs_public_id_idx" ON "jobs" ("public_id")`);
    await q.query(`
      CREATE TABLE "webhook_secrets" (
        "owner_id" varchar(64) PRIMARY KEY,
        "secret" varchar(128) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE "webhook_deliveries" (
        "id" serial PRIMARY KEY,
        "job_id" varchar(64) NOT NULL,
        "webhook_id" varchar(100) NOT NULL,
        "event" varchar(32) NOT NULL,
        "url" text NOT NULL,
        "attempt" integer NOT NULL,
        "status_code" integer,
        "error" text,
        "duration_ms" integer NOT NULL,
        "succeeded" boolean NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "webhook_deliveries_job_idx" ON "webhook_deliveries" ("job_id", "id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhook_deliveries"`);
    await q.query(`DROP TABLE "webhook_secrets"`);
    await q.query(`DROP INDEX "jobs_public_id_idx"`);
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "public_id"`);
  }
}
