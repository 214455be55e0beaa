import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ShowcaseIndexable1764810000000 implements MigrationInterface {
  name = 'ShowcaseIndexable1764810000000';

  async up(q: QueryRunner): Promise<void> {
    // The owner's say on search engines: false keeps today's `noindex` on every existing public page.
    await q.query(`ALTER TABLE "showcases" ADD COLUMN "indexable" boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "showcases" DROP COLUMN "indexable"`);
  }
}
