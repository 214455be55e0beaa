import type { DataSource, EntityManager } from 'typeorm';
import { randomId } from './ids';
import type { RepositoryHooks } from './repository-hooks';
import { queryReturning } from './returning';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  creditsCents: number;
  showcaseSlots: number;
  internal: boolean;
  createdAt: Date;
}

/** What a key may do: `full` everything, `read_only` reads, `widget` reads and free v1 conversions from its allowed origins. */
export const KEY_SCOPES = ['full', 'read_only', 'widget'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface ApiKeyRow {
  id: string;
  userId: string;
  prefix: string;
  name: string | null;
  scope: KeyScope;
  /** Origins (`scheme://host[:port]`) a widget key may be used from; empty for other scopes. */
  allowedOrigins: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiKey {
  keyHash: string;
  prefix: string;
  name?: string | null;
  scope?: KeyScope;
  allowedOrigins?: string[];
}

/** Revoking would leave the user without a full key (and so without key management): refused unless forced. */
export class LastFullKeyError extends Error {
  constructor(readonly keyId: string) {
    super(`key ${keyId} is the last full key of its user`);
    this.name = 'LastFullKeyError';
  }
}

export interface LedgerRow {
  id: number;
  userId: string;
  kind: 'grant' | 'charge' | 'refund';
  amountCents: number;
  balanceAfterCents: number | null;
  operation: string | null;
  jobId: string | null;
  purpose: string | null;
  reason: string | null;
  createdAt: Date;
}

export class InsufficientCreditsError extends Error {
  constructor(
    readonly balanceCents: number,
    readonly neededCents: number,
  ) {
    super(`insufficient credits: balance ${balanceCents / 100}, needed ${neededCents / 100}`);
    this.name = 'InsufficientCreditsError';
  }
}

/**
 * Takes `cents` off a balance only if it covers them (one conditional UPDATE, so concurrent charges
 * cannot overdraw). Returns the balance after; throws {@link InsufficientCreditsError} otherwise.
 */
async function debit(m: Pick<EntityManager, 'query'>, userId: string, cents: number): Promise<number> {
  const rows = await queryReturning(
    m,
    `UPDATE "users" SET "credits_cents" = "credits_cents" - $2 WHERE "id" = $1 AND "credits_cents" >= $2 RETURNING "credits_cents"`,
    [userId, cents],
  );
  if (rows[0]) return Number(rows[0].credits_cents);
  const b = await m.query(`SELECT "credits_cents" FROM "users" WHERE "id" = $1`, [userId]);
  throw new InsufficientCreditsError(Number(b[0]?.credits_cents ?? 0), cents);
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const KEY_COLUMNS = `"id", "user_id", "prefix", "name", "scope", "allowed_origins", "created_at", "last_used_at", "revoked_at"`;

function toApiKey(r: Record<string, any>): ApiKeyRow {
  const origins = typeof r.allowed_origins === 'string' ? JSON.parse(r.allowed_origins) : r.allowed_origins;
  return {
    id: r.id,
    userId: r.user_id,
    prefix: r.prefix,
    name: r.name ?? null,
    scope: r.scope,
    allowedOrigins: Array.isArray(origins) ? origins : [],
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at ?? null,
    revokedAt: r.revoked_at ?? null,
  };
}

function toUser(r: Record<string, any>): UserRow {
  return {
    id: r.id,
    email: r.email,
    name: r.name ?? null,
    creditsCents: Number(r.credits_cents),
    showcaseSlots: Number(r.showcase_slots),
    internal: r.internal,
    createdAt: r.created_at,
  };
}

function toLedger(r: Record<string, any>): LedgerRow {
  return {
    id: Number(r.id),
    userId: r.user_id,
    kind: r.kind,
    amountCents: Number(r.amount_cents),
    balanceAfterCents: num(r.balance_after_cents),
    operation: r.operation ?? null,
    jobId: r.job_id ?? null,
    purpose: r.purpose ?? null,
    reason: r.reason ?? null,
    createdAt: r.created_at,
  };
}

/**
 * Users, API keys and the append-only credit ledger. Amounts are integer hundredths of a credit.
 * The balance can never go below zero (a conditional UPDATE plus a CHECK constraint), and a charge or
 * refund for one job and purpose is written at most once (a unique index), so replays are harmless.
 */
export class AccountRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {}

  async createUser(u: { email: string; name?: string | null; showcaseSlots?: number }): Promise<UserRow> {
    const rows = await this.ds.query(`INSERT INTO "users" ("id", "email", "name", "showcase_slots") VALUES ($1, $2, $3, $4) RETURNING *`, [
      randomId('usr'),
      u.email,
      u.name ?? null,
      u.showcaseSlots ?? 0,
    ]);
    return toUser(rows[0]);
  }

  async findUser(id: string): Promise<UserRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "users" WHERE "id" = $1`, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** Users for the operators' list, oldest first; `limit + 1` rows tell the caller whether there are more. */
  async listUsers(limit: number): Promise<UserRow[]> {
    const rows = await this.ds.query(`SELECT * FROM "users" ORDER BY "created_at", "id" LIMIT $1`, [limit]);
    return rows.map(toUser);
  }

  async findUserByEmail(email: string): Promise<UserRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "users" WHERE lower("email") = lower($1)`, [email]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async addKey(userId: string, key: NewApiKey): Promise<ApiKeyRow> {
    const rows = await this.ds.query(
      `INSERT INTO "api_keys" ("id", "user_id", "key_hash", "prefix", "name", "scope", "allowed_origins") VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING ${KEY_COLUMNS}`,
      [randomId('key'), userId, key.keyHash, key.prefix, key.name ?? null, key.scope ?? 'full', JSON.stringify(key.allowedOrigins ?? [])],
    );
    return toApiKey(rows[0]);
  }

  /** The live (not revoked) key with this hash, read only: the API caches it (see ApiKeyCache). */
  async findLiveKey(keyHash: string): Promise<ApiKeyRow | null> {
    const rows = await this.ds.query(`SELECT ${KEY_COLUMNS} FROM "api_keys" WHERE "key_hash" = $1 AND "revoked_at" IS NULL`, [keyHash]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  /** A user's live keys, newest first. */
  async listLiveKeys(userId: string): Promise<ApiKeyRow[]> {
    const rows = await this.ds.query(
      `SELECT ${KEY_COLUMNS} FROM "api_keys" WHERE "user_id" = $1 AND "revoked_at" IS NULL ORDER BY "created_at" DESC, "id" DESC`,
      [userId],
    );
    return rows.map(toApiKey);
  }

  /**
   * Revokes one of a user's live keys; false when the user has no such live key. Unless `force`, throws
   * {@link LastFullKeyError} when it is the user's last live full key. The user row is locked while the
   * full keys are counted, so two concurrent calls cannot each revoke one of the last two.
   */
  async revokeUserKey(userId: string, keyId: string, { force }: { force: boolean }): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT "id" FROM "users" WHERE "id" = $1 FOR UPDATE`, [userId]);
      const rows = await m.query(`SELECT "scope" FROM "api_keys" WHERE "id" = $1 AND "user_id" = $2 AND "revoked_at" IS NULL`, [
        keyId,
        userId,
      ]);
      if (!rows[0]) return false;
      if (rows[0].scope === 'full' && !force) {
        const n = await m.query(`SELECT count(*) AS n FROM "api_keys" WHERE "user_id" = $1 AND "scope" = 'full' AND "revoked_at" IS NULL`, [
          userId,
        ]);
        if (Number(n[0].n) <= 1) throw new LastFullKeyError(keyId);
      }
      await m.query(`UPDATE "api_keys" SET "revoked_at" = now() WHERE "id" = $1`, [keyId]);
      return true;
    });
  }

  /** Marks a key used now. */
  async touchKey(id: string): Promise<void> {
    await this.ds.query(`UPDATE "api_keys" SET "last_used_at" = now() WHERE "id" = $1`, [id]);
  }

  /** Revokes a key; false when there is no such key. Revoking twice is fine. */
  async revokeKey(id: string): Promise<boolean> {
    const rows = await queryReturning(
      this.ds,
      `UPDATE "api_keys" SET "revoked_at" = coalesce("revoked_at", now()) WHERE "id" = $1 RETURNING "id"`,
      [id],
    );
    return rows.length > 0;
  }

  async grant(userId: string, cents: number, reason: string | null): Promise<number> {
    return this.ds.transaction(async (m) => {
      const rows = await queryReturning(
        m,
        `UPDATE "users" SET "credits_cents" = "credits_cents" + $2 WHERE "id" = $1 RETURNING "credits_cents"`,
        [userId, cents],
      );
      if (!rows[0]) throw new Error(`ledger: no user ${userId}`);
      const balance = Number(rows[0].credits_cents);
      await m.query(
        `INSERT INTO "ledger_entries" ("user_id", "kind", "amount_cents", "balance_after_cents", "operation", "reason") VALUES ($1, 'grant', $2, $3, 'grant', $4)`,
        [userId, cents, balance, reason],
      );
      return balance;
    });
  }

  /**
   * Charges once per (jobId, purpose). Returns the entry (the existing one on a replay).
   * Throws {@link InsufficientCreditsError} and writes nothing when the balance does not cover it.
   */
  async charge(userId: string, cents: number, ref: { jobId: string; purpose: string; operation: string }): Promise<LedgerRow> {
    let fresh = false;
    const row = await this.ds.transaction(async (m) => {
      const inserted = await m.query(
        `INSERT INTO "ledger_entries" ("user_id", "kind", "amount_cents", "operation", "job_id", "purpose")
         VALUES ($1, 'charge', $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *`,
        [userId, cents, ref.operation, ref.jobId, ref.purpose],
      );
      if (!inserted[0]) return this.existing(m, ref.jobId, ref.purpose, 'charge');
      const balance = await debit(m, userId, cents);
      await m.query(`UPDATE "ledger_entries" SET "balance_after_cents" = $2 WHERE "id" = $1`, [inserted[0].id, balance]);
      fresh = true;
      return toLedger({ ...inserted[0], balance_after_cents: balance });
    });
    // A replay returns the first entry: counting it again would overstate the revenue.
    if (fresh && row.amountCents > 0) this.hooks.charged?.(row.amountCents);
    return row;
  }

  /**
   * Charges several lines at once, all or nothing, inside the caller's transaction (so the rows the
   * charge pays for are written in the same transaction). Each line is once per (jobId, purpose).
   * Throws {@link InsufficientCreditsError} when the balance does not cover the total.
   */
  static async debitAll(
    m: Pick<EntityManager, 'query'>,
    userId: string,
    lines: { cents: number; jobId: string; purpose: string; operation: string }[],
  ): Promise<number> {
    const total = lines.reduce((s, l) => s + l.cents, 0);
    let balance = (await debit(m, userId, total)) + total;
    for (const l of lines.filter((x) => x.cents > 0)) {
      balance -= l.cents;
      await m.query(
        `INSERT INTO "ledger_entries" ("user_id", "kind", "amount_cents", "balance_after_cents", "operation", "job_id", "purpose")
         VALUES ($1, 'charge', $2, $3, $4, $5, $6)`,
        [userId, l.cents, balance, l.operation, l.jobId, l.purpose],
      );
    }
    return balance;
  }

  /** Refunds a job's charge for a purpose, at most once and never more than was charged. */
  async refund(jobId: string, purpose: string, cents?: number): Promise<LedgerRow | null> {
    let fresh = false;
    const row = await this.ds.transaction(async (m) => {
      const charged = await m.query(`SELECT * FROM "ledger_entries" WHERE "job_id" = $1 AND "purpose" = $2 AND "kind" = 'charge'`, [
        jobId,
        purpose,
      ]);
      if (!charged[0]) return null;
      const amount = Math.min(cents ?? Number(charged[0].amount_cents), Number(charged[0].amount_cents));
      const inserted = await m.query(
        `INSERT INTO "ledger_entries" ("user_id", "kind", "amount_cents", "operation", "job_id", "purpose")
         VALUES ($1, 'refund', $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING *`,
        [charged[0].user_id, amount, charged[0].operation, jobId, purpose],
      );
      if (!inserted[0]) return this.existing(m, jobId, purpose, 'refund');
      const rows = await queryReturning(
        m,
        `UPDATE "users" SET "credits_cents" = "credits_cents" + $2 WHERE "id" = $1 RETURNING "credits_cents"`,
        [charged[0].user_id, amount],
      );
      const balance = Number(rows[0].credits_cents);
      await m.query(`UPDATE "ledger_entries" SET "balance_after_cents" = $2 WHERE "id" = $1`, [inserted[0].id, balance]);
      fresh = true;
      return toLedger({ ...inserted[0], balance_after_cents: balance });
    });
    if (fresh && row && row.amountCents > 0) this.hooks.refunded?.(row.amountCents);
    return row;
  }

  /** Refunds every charge of a job not refunded yet (each at most once). Returns the cents refunded now. */
  async refundJob(jobId: string): Promise<number> {
    const rows: { purpose: string }[] = await this.ds.query(
      `SELECT c."purpose" FROM "ledger_entries" c
       LEFT JOIN "ledger_entries" r ON r."job_id" = c."job_id" AND r."purpose" = c."purpose" AND r."kind" = 'refund'
       WHERE c."job_id" = $1 AND c."kind" = 'charge' AND r."id" IS NULL`,
      [jobId],
    );
    let cents = 0;
    for (const r of rows) cents += (await this.refund(jobId, r.purpose))?.amountCents ?? 0;
    return cents;
  }

  /** Gross charged and refunded cents of one job (what its result reports). */
  async jobCredits(jobId: string): Promise<{ chargedCents: number; refundedCents: number }> {
    const rows = await this.ds.query(
      `SELECT coalesce(sum("amount_cents") FILTER (WHERE "kind" = 'charge'), 0) AS charged,
              coalesce(sum("amount_cents") FILTER (WHERE "kind" = 'refund'), 0) AS refunded
       FROM "ledger_entries" WHERE "job_id" = $1`,
      [jobId],
    );
    return { chargedCents: Number(rows[0]?.charged ?? 0), refundedCents: Number(rows[0]?.refunded ?? 0) };
  }

  /** Completed animated AR jobs that skipped AI motion but still hold its charge (a lost listener call). */
  async unrefundedSkippedMotion(limit = 500): Promise<string[]> {
    const rows = await this.ds.query(
      `SELECT j."id" FROM "jobs" j
       JOIN "ledger_entries" c ON c."job_id" = j."id" AND c."kind" = 'charge' AND c."purpose" = 'animated-ar.ai_motion'
       LEFT JOIN "ledger_entries" r ON r."job_id" = j."id" AND r."purpose" = c."purpose" AND r."kind" = 'refund'
       WHERE j."kind" = 'v2.animated-ar' AND j."status" = 'completed' AND (j."result" ->> 'ai_motion_skipped') = 'true' AND r."id" IS NULL
       LIMIT $1`,
      [limit],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /** Failed jobs of a kind with a charge (for `purpose`, or any) that was never refunded (a lost listener call). */
  async unrefundedFailures(kind: string, purpose?: string, limit = 500): Promise<string[]> {
    const rows = await this.ds.query(
      `SELECT DISTINCT j."id", j."finished_at" FROM "jobs" j
       JOIN "ledger_entries" c ON c."job_id" = j."id" AND c."kind" = 'charge' AND ($2::text IS NULL OR c."purpose" = $2)
       LEFT JOIN "ledger_entries" r ON r."job_id" = j."id" AND r."purpose" = c."purpose" AND r."kind" = 'refund'
       WHERE j."kind" = $1 AND j."status" = 'failed' AND r."id" IS NULL
       ORDER BY j."finished_at" LIMIT $3`,
      [kind, purpose ?? null, limit],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  private async existing(m: EntityManager, jobId: string, purpose: string, kind: string): Promise<LedgerRow> {
    const rows = await m.query(`SELECT * FROM "ledger_entries" WHERE "job_id" = $1 AND "purpose" = $2 AND "kind" = $3`, [
      jobId,
      purpose,
      kind,
    ]);
    return toLedger(rows[0]);
  }

  /** Newest first, keyset-paginated by id. */
  async ledger(userId: string, limit: number, beforeId?: number): Promise<LedgerRow[]> {
    const rows = await this.ds.query(
      `SELECT * FROM "ledger_entries" WHERE "user_id" = $1 AND ($2::bigint IS NULL OR "id" < $2) ORDER BY "id" DESC LIMIT $3`,
      [userId, beforeId ?? null, limit],
    );
    return rows.map(toLedger);
  }

  /** Net spend per operation: charges minus refunds, and grants. */
  async totals(userId: string): Promise<{ operation: string; kind: string; cents: number; count: number }[]> {
    const rows = await this.ds.query(
      `SELECT coalesce("operation", 'other') AS operation, "kind", sum("amount_cents") AS cents, count(*) AS count
       FROM "ledger_entries" WHERE "user_id" = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [userId],
    );
    return rows.map((r: Record<string, unknown>) => ({
      operation: String(r.operation),
      kind: String(r.kind),
      cents: Number(r.cents),
      count: Number(r.count),
    }));
  }
}
