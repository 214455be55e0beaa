import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1763942400000 implements MigrationInterface {
  name = 'IdempotencyKeys1763942400000';

  async up(q: QueryRunner): Promise<void> {
    // One row per (user, Idempotency-Key). status NULL = the first request is still running.
    await q.query(`
      CREATE TABLE "idempotency_keys" (
        "user_id" varchar(64) NOT NULL,
        "key" varchar(255) NOT NULL,
        "fingerprint" char(64) NOT NULL,
        "status" smallint,
        "response" jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("user_id", "key")
      )`);
    await q.query(`CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" ("created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "idempotency_keys"`);
  }
}
