import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobStageTimings1764896400000 implements MigrationInterface {
  name = 'JobStageTimings1764896400000';

  async up(q: QueryRunner): Promise<void> {
    // When each stage of the job's last run started and how long it took: the job detail's timeline.
    await q.query(`ALTER TABLE "jobs" ADD COLUMN "stage_timings" jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "stage_timings"`);
  }
}
