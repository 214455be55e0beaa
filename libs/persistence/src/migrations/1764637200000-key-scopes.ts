import type { MigrationInterface, QueryRunner } from 'typeorm';

export class KeyScopes1764637200000 implements MigrationInterface {
  name = 'KeyScopes1764637200000';

  async up(q: QueryRunner): Promise<void> {
    // Keys made before scopes existed could do everything: they become `full`, so nothing that works stops working.
    await q.query(`ALTER TABLE "api_keys" ADD COLUMN "scope" varchar(16) NOT NULL DEFAULT 'full'`);
    await q.query(`ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_check" CHECK ("scope" IN ('full', 'read_only', 'widget'))`);
    await q.query(`ALTER TABLE "api_keys" ADD COLUMN "name" varchar(100) NULL`);
    // Origins (scheme://host[:port]) a `widget` key may be used from; empty for the other scopes.
    await q.query(`ALTER TABLE "api_keys" ADD COLUMN "allowed_origins" jsonb NOT NULL DEFAULT '[]'::jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "allowed_origins"`);
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "name"`);
    await q.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_scope_check"`);
    await q.query(`ALTER TABLE "api_keys" DROP COLUMN "scope"`);
  }
}
