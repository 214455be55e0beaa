import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AccountsAndLedger1763856000000 implements MigrationInterface {
  name = 'AccountsAndLedger1763856000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "users" (
        "id" varchar(64) PRIMARY KEY,
        "email" varchar(320) NOT NULL,
        "name" varchar(200),
        "credits_cents" bigint NOT NULL DEFAULT 0,
        "showcase_slots" integer NOT NULL DEFAULT 0,
        "internal" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "users_credits_nonnegative" CHECK ("credits_cents" >= 0),
        CONSTRAINT "users_slots_nonnegative" CHECK ("showcase_slots" >= 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX "users_email_idx" ON "users" (lower("email"))`);
    // Content made with the owner shared key belongs to this internal user; it is never billed.
    await q.query(
      `INSERT INTO "users" ("id", "email", "name", "internal") VALUES ('service', 'service@internal', 'Service (owner key)', true)`,
    );
    await q.query(`
      CREATE TABLE "api_keys" (
        "id" varchar(64) PRIMARY KEY,
        "user_id" varchar(64) NOT NULL REFERENCES "users" ("id"),
        "key_hash" char(64) NOT NULL,
        "prefix" varchar(32) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_used_at" timestamptz,
        "revoked_at" timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" ("key_hash")`);
    await q.query(`CREATE INDEX "api_keys_user_idx" ON "api_keys" ("user_id")`);
    await q.query(`
      CREATE TABLE "ledger_entries" (
        "id" bigserial PRIMARY KEY,
        "user_id" varchar(64) NOT NULL REFERENCES "users" ("id"),
        "kind" varchar(16) NOT NULL,
        "amount_cents" bigint NOT NULL,
        "balance_after_cents" bigint,
        "operation" varchar(64),
        "job_id" varchar(64),
        "purpose" varchar(64),
        "reason" varchar(500),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ledger_kind_check" CHECK ("kind" IN ('grant', 'charge', 'refund')),
        CONSTRAINT "ledger_amount_positive" CHECK ("amount_cents" > 0)
      )`);
    // A charge or refund for a given job and purpose happens at most once, whatever replays.
    await q.query(`CREATE UNIQUE INDEX "ledger_once_idx" ON "ledger_entries" ("job_id", "purpose", "kind") WHERE "job_id" IS NOT NULL`);
    await q.query(`CREATE INDEX "ledger_user_idx" ON "ledger_entries" ("user_id", "id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "ledger_entries"`);
    await q.query(`DROP TABLE "api_keys"`);
    await q.query(`DROP TABLE "users"`);
  }
}
