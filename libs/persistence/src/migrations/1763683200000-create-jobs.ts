import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateJobs1763683200000 implements MigrationInterface {
  name = 'CreateJobs1763683200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "jobs" (
        "id" varchar(64) PRIMARY KEY,
        "kind" varchar(64) NOT NULL,
        "pipeline" varchar(128) NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT 'queued',
        "progress" double precision NOT NULL DEFAULT 0,
        "stage_progress" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "input" jsonb NOT NULL,
        "result" jsonb,
        "error" jsonb,
        "owner_id" varchar(64),
        "attempts" integer NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        "started_at" timestamptz,
        "finished_at" timestamptz,
        CONSTRAINT "jobs_status_check" CHECK ("status" IN ('queued','downloading','converting','uploading','completed','failed')),
        CONSTRAINT "jobs_progress_check" CHECK ("progress" >= 0 AND "progress" <= 100)
      )`);
    await q.query(`CREATE INDEX "jobs_status_idx" ON "jobs" ("status")`);
    await q.query(`CREATE INDEX "jobs_owner_idx" ON "jobs" ("owner_id", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "jobs"`);
  }
}
