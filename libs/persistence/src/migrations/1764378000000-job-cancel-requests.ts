import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobCancelRequests1764378000000 implements MigrationInterface {
  name = 'JobCancelRequests1764378000000';

  async up(q: QueryRunner): Promise<void> {
    // Set by POST /api/v{1,2}/jobs/:id/cancel; the worker running the job reads it every second and stops.
    await q.query(`ALTER TABLE "jobs" ADD COLUMN "cancel_requested_at" timestamptz NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "cancel_requested_at"`);
  }
}
