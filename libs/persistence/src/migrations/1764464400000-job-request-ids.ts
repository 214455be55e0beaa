import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobRequestIds1764464400000 implements MigrationInterface {
  name = 'JobRequestIds1764464400000';

  async up(q: QueryRunner): Promise<void> {
    // The API request that created the job: the worker puts it on its log lines, so one id finds both sides.
    await q.query(`ALTER TABLE "jobs" ADD COLUMN "request_id" varchar(128) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "request_id"`);
  }
}
