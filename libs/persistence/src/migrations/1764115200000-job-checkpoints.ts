import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobCheckpoints1764115200000 implements MigrationInterface {
  name = 'JobCheckpoints1764115200000';

  async up(q: QueryRunner): Promise<void> {
    // What a stage must remember across worker restarts (e.g. a motion model's operation handle).
    await q.query(`ALTER TABLE "jobs" ADD COLUMN "checkpoints" jsonb NOT NULL DEFAULT '{}'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "checkpoints"`);
  }
}
