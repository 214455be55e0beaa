import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RetentionAndDeletion1764550800000 implements MigrationInterface {
  name = 'RetentionAndDeletion1764550800000';

  async up(q: QueryRunner): Promise<void> {
    // One row per deleted job (DELETE /api/v2/jobs/{id}, RETENTION_DAYS, a deleted user): what lets the embed
    // pages and the file route answer 410 Gone instead of 404 for something that existed. No content is kept;
    // owner_id is nulled when the owner is deleted.
    await q.query(`
      CREATE TABLE "deleted_jobs" (
        "id" varchar(64) PRIMARY KEY,
        "public_id" varchar(40) UNIQUE,
        "owner_id" varchar(64),
        "reason" varchar(16) NOT NULL,
        "deleted_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "deleted_jobs_reason_check" CHECK ("reason" IN ('owner', 'retention', 'user_deleted'))
      )`);
    // The retention sweep's scan: finished jobs by age.
    await q.query(`CREATE INDEX "jobs_finished_at_idx" ON "jobs" ("finished_at") WHERE "status" IN ('completed', 'failed')`);
    // Ledger entries outlive their user (accounting): a deleted user's entries keep a stable pseudonym instead.
    await q.query(`ALTER TABLE "ledger_entries" ALTER COLUMN "user_id" DROP NOT NULL`);
    await q.query(`ALTER TABLE "ledger_entries" ADD COLUMN "user_pseudonym" varchar(64)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "ledger_entries" DROP COLUMN "user_pseudonym"`);
    await q.query(`DELETE FROM "ledger_entries" WHERE "user_id" IS NULL`);
    await q.query(`ALTER TABLE "ledger_entries" ALTER COLUMN "user_id" SET NOT NULL`);
    await q.query(`DROP INDEX "jobs_finished_at_idx"`);
    await q.query(`DROP TABLE "deleted_jobs"`);
  }
}
