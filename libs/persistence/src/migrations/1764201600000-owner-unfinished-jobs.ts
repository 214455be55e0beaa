import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OwnerUnfinishedJobs1764201600000 implements MigrationInterface {
  name = 'OwnerUnfinishedJobs1764201600000';

  async up(q: QueryRunner): Promise<void> {
    // Every job-creating request counts its owner's unfinished jobs (per-account cap, fair-share position).
    await q.query(
      `CREATE INDEX "jobs_owner_unfinished_idx" ON "jobs" ("owner_id", "created_at") WHERE "status" NOT IN ('completed', 'failed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "jobs_owner_unfinished_idx"`);
  }
}
