import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ConsoleSessions1764723600000 implements MigrationInterface {
  name = 'ConsoleSessions1764723600000';

  async up(q: QueryRunner): Promise<void> {
    // Console sign-in: an argon2id hash (null until the invite is accepted) and the console role.
    await q.query(`ALTER TABLE "users" ADD COLUMN "password_hash" varchar(200) NULL`);
    await q.query(`ALTER TABLE "users" ADD COLUMN "console_role" varchar(16) NOT NULL DEFAULT 'customer'`);
    await q.query(`ALTER TABLE "users" ADD CONSTRAINT "users_console_role_check" CHECK ("console_role" IN ('customer', 'owner'))`);
    // Invite tokens and session ids are stored as SHA-256 only: a copy of the database signs no one in.
    await q.query(`
      CREATE TABLE "console_invites" (
        "id" varchar(64) PRIMARY KEY,
        "user_id" varchar(64) NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
        "token_hash" char(64) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        "used_at" timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX "console_invites_token_idx" ON "console_invites" ("token_hash")`);
    await q.query(`CREATE INDEX "console_invites_user_idx" ON "console_invites" ("user_id")`);
    // In the database, not in memory: every API process of a scaled deployment sees the same sessions.
    await q.query(`
      CREATE TABLE "console_sessions" (
        "id_hash" char(64) PRIMARY KEY,
        "user_id" varchar(64) NOT NULL REFERENCES "users" ("id") ON DELETE CASCADE,
        "csrf_token" varchar(64) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "expires_at" timestamptz NOT NULL,
        "last_seen_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX "console_sessions_user_idx" ON "console_sessions" ("user_id")`);
    await q.query(`CREATE INDEX "console_sessions_expires_idx" ON "console_sessions" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "console_sessions"`);
    await q.query(`DROP TABLE "console_invites"`);
    await q.query(`ALTER TABLE "users" DROP CONSTRAINT "users_console_role_check"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "console_role"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "password_hash"`);
  }
}
