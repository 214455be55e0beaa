import type { DataSource } from 'typeorm';

export type IdempotencyClaim =
  { state: 'claimed' } | { state: 'in_progress' } | { state: 'mismatch' } | { state: 'done'; status: number; response: unknown };

/** A claim still "in progress" after this long belongs to a request that died. */
export const ABANDONED_MS = 10 * 60_000;

/**
 * Stored answers to requests sent with an Idempotency-Key, per user. The first request claims the key
 * (an INSERT that only one caller can win); later ones get the stored answer, a conflict when the body
 * differs, or "in progress" while the first is still running. Keys older than the TTL are forgotten.
 */
export class IdempotencyRepository {
  constructor(private readonly ds: DataSource) {}

  async claim(userId: string, key: string, fingerprint: string, ttlMs: number): Promise<IdempotencyClaim> {
    // An expired key is free again, and so is one whose first request never finished (a crashed
    // process) after ABANDONED_MS: nothing was committed for it, so a retry may run.
    await this.ds.query(
      `DELETE FROM "idempotency_keys" WHERE "user_id" = $1 AND "key" = $2
         AND ("created_at" < now() - ($3::bigint * interval '1 millisecond')
           OR ("status" IS NULL AND "created_at" < now() - ($4::bigint * interval '1 millisecond')))`,
      [userId, key, ttlMs, ABANDONED_MS],
    );
    const inserted = await this.ds.query(
      `INSERT INTO "idempotency_keys" ("user_id", "key", "fingerprint") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING "key"`,
      [userId, key, fingerprint],
    );
    if (inserted[0]) return { state: 'claimed' };
    const rows = await this.ds.query(
      `SELECT "fingerprint", "status", "response" FROM "idempotency_keys" WHERE "user_id" = $1 AND "key" = $2`,
      [userId, key],
    );
    const row = rows[0];
    if (!row) return this.claim(userId, key, fingerprint, ttlMs); // released meanwhile: try again
    if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
    if (row.status === null) return { state: 'in_progress' };
    return {
      state: 'done',
      status: Number(row.status),
      response: typeof row.response === 'string' ? JSON.parse(row.response) : row.response,
    };
  }

  /** Whether a request under this key was answered and its answer is still kept (a retry would be replayed). Reads only. */
  async answered(userId: string, key: string, ttlMs: number): Promise<boolean> {
    const rows = await this.ds.query(
      `SELECT 1 FROM "idempotency_keys" WHERE "user_id" = $1 AND "key" = $2 AND "status" IS NOT NULL
         AND "created_at" >= now() - ($3::bigint * interval '1 millisecond')`,
      [userId, key, ttlMs],
    );
    return rows.length > 0;
  }

  async complete(userId: string, key: string, status: number, response: unknown): Promise<void> {
    await this.ds.query(`UPDATE "idempotency_keys" SET "status" = $3, "response" = $4 WHERE "user_id" = $1 AND "key" = $2`, [
      userId,
      key,
      status,
      JSON.stringify(response ?? null),
    ]);
  }

  /** Frees a key whose request failed, so the client may retry with it. */
  async release(userId: string, key: string): Promise<void> {
    await this.ds.query(`DELETE FROM "idempotency_keys" WHERE "user_id" = $1 AND "key" = $2 AND "status" IS NULL`, [userId, key]);
  }

  async purgeExpired(ttlMs: number): Promise<number> {
    const res = await this.ds.query(
      `DELETE FROM "idempotency_keys" WHERE "created_at" < now() - ($1::bigint * interval '1 millisecond') RETURNING "key"`,
      [ttlMs],
    );
    return Array.isArray(res[0]) ? res[0].length : res.length;
  }
}
