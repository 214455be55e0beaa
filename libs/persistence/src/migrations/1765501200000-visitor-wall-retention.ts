import type { MigrationInterface, QueryRunner } from 'typeorm';

export class VisitorWallRetention1765501200000 implements MigrationInterface {
  name = 'VisitorWallRetention1765501200000';

  async up(q: QueryRunner): Promise<void> {
    // A visitor wall's stored bytes (the byte cap per showcase evicts the least recently used past
    // WALL_VISITOR_MAX_MB_PER_SHOWCASE) and when it was last served (retention deletes those unused for
    // WALL_VISITOR_MAX_AGE_DAYS). Walls recorded before this count 0 bytes and were last used when built.
    await q.query(`ALTER TABLE "visitor_walls" ADD COLUMN "bytes" bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "visitor_walls" ADD COLUMN "last_used_at" timestamptz NOT NULL DEFAULT now()`);
    await q.query(`UPDATE "visitor_walls" SET "last_used_at" = "created_at"`);
    await q.query(`CREATE INDEX "visitor_walls_showcase_used" ON "visitor_walls" ("showcase_id", "last_used_at")`);
    await q.query(`CREATE INDEX "visitor_walls_used" ON "visitor_walls" ("last_used_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "visitor_walls_used"`);
    await q.query(`DROP INDEX "visitor_walls_showcase_used"`);
    await q.query(`ALTER TABLE "visitor_walls" DROP COLUMN "last_used_at"`);
    await q.query(`ALTER TABLE "visitor_walls" DROP COLUMN "bytes"`);
  }
}
