import type { MigrationInterface, QueryRunner } from 'typeorm';

export class JobCreatingKeys1764982800000 implements MigrationInterface {
  name = 'JobCreatingKeys1764982800000';

  async up(q: QueryRunner): Promise<void> {
    // The API key (api_keys.id) that created the job: a widget key reads only the jobs it created. Null for
    // the owner key, console sessions, callbacks and showcase pictures, and for jobs made before this column.
    // No foreign key: a key's row goes with its user, while the job may stay (tombstone, ledger).
    await q.query(`ALTER TABLE "jobs" ADD COLUMN "created_by_key" varchar(64) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "jobs" DROP COLUMN "created_by_key"`);
  }
}
