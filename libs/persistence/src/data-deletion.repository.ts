import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';

/** What deleting a job needs to know: its ids and what it recorded (where its stored files are named). */
export interface DeletableJob {
  id: string;
  publicId: string | null;
  ownerId: string | null;
  status: string;
  input: Record<string, unknown>;
  result: Record<string, unknown> | null;
  checkpoints: Record<string, unknown>;
}

export type DeletionReason = 'owner' | 'retention' | 'user_deleted';

/** A deleted job's tombstone: enough to answer 410 Gone, nothing of its content. */
export interface DeletedJobRow {
  id: string;
  publicId: string | null;
  ownerId: string | null;
  reason: DeletionReason;
  deletedAt: Date;
}

const FINAL_SQL = `('completed', 'failed')`;

/** `$from, $from+1, …` for a list of ids (array parameters are not portable to the PGlite adapter). */
const list = (ids: readonly unknown[], from = 1) => ids.map((_, i) => `$${from + i}`).join(', ');
const COLUMNS = `"id", "public_id", "owner_id", "status", "input", "result", "checkpoints"`;

/**
 * The stable pseudonym a deleted user's ledger entries keep: the same user id always gives the same
 * value (totals per former customer still add up), and it is not the id itself.
 */
export function ledgerPseudonym(userId: string): string {
  return `deleted_${createHash('sha256').update(`ledger:${userId}`).digest('hex').slice(0, 24)}`;
}

const toJob = (r: Record<string, any>): DeletableJob => ({
  id: r.id,
  publicId: r.public_id ?? null,
  ownerId: r.owner_id ?? null,
  status: r.status,
  input: r.input ?? {},
  result: r.result ?? null,
  checkpoints: r.checkpoints ?? {},
});

const toTombstone = (r: Record<string, any>): DeletedJobRow => ({
  id: r.id,
  publicId: r.public_id ?? null,
  ownerId: r.owner_id ?? null,
  reason: r.reason,
  deletedAt: r.deleted_at,
});

/**
 * Database side of retention and deletion: finds jobs to delete in batches, removes their rows (leaving a
 * tombstone), and removes a user with everything that is theirs except the ledger, which is anonymised.
 * Stored files are the caller's business: it deletes them before the rows, so a crash in between leaves
 * rows pointing at missing files (deleted again next time), never files nobody knows about.
 */
export class DataDeletionRepository {
  constructor(private readonly ds: DataSource) {}

  /** Finished jobs that finished before `before`, oldest first: one batch of the retention sweep. */
  async expiredJobs(before: Date, limit: number): Promise<DeletableJob[]> {
    const rows: Record<string, any>[] = await this.ds.query(
      `SELECT ${COLUMNS} FROM "jobs" WHERE "status" IN ${FINAL_SQL} AND "finished_at" < $1 ORDER BY "finished_at", "id" LIMIT $2`,
      [before, limit],
    );
    return rows.map(toJob);
  }

  /** One batch of a user's jobs, any status (user deletion), oldest first. */
  async jobsOfOwner(ownerId: string, limit: number): Promise<DeletableJob[]> {
    const rows: Record<string, any>[] = await this.ds.query(
      `SELECT ${COLUMNS} FROM "jobs" WHERE "owner_id" = $1 ORDER BY "created_at", "id" LIMIT $2`,
      [ownerId, limit],
    );
    return rows.map(toJob);
  }

  async job(id: string): Promise<DeletableJob | null> {
    const rows: Record<string, any>[] = await this.ds.query(`SELECT ${COLUMNS} FROM "jobs" WHERE "id" = $1`, [id]);
    return rows[0] ? toJob(rows[0]) : null;
  }

  /** How many of a user's jobs are queued or running. */
  async unfinishedOfOwner(ownerId: string): Promise<number> {
    const rows: { n: string }[] = await this.ds.query(
      `SELECT COUNT(*) AS "n" FROM "jobs" WHERE "owner_id" = $1 AND "status" NOT IN ${FINAL_SQL}`,
      [ownerId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Deletes finished jobs' rows (and what hangs off them: showcase items, webhook delivery logs), leaving a
   * tombstone for each. A job that is not finished (a retry queued it again meanwhile) is left alone.
   * Returns the ids actually deleted.
   */
  async deleteFinishedJobs(ids: readonly string[], reason: DeletionReason): Promise<string[]> {
    if (!ids.length) return [];
    return this.ds.transaction(async (m) => {
      const rows: { id: string }[] = await m.query(
        `SELECT "id" FROM "jobs" WHERE "id" IN (${list(ids)}) AND "status" IN ${FINAL_SQL} FOR UPDATE`,
        [...ids],
      );
      const gone = rows.map((r) => r.id);
      await this.removeRows(m, gone, reason);
      return gone;
    });
  }

  private async removeRows(m: Pick<EntityManager, 'query'>, ids: readonly string[], reason: DeletionReason): Promise<void> {
    if (!ids.length) return;
    await m.query(
      `INSERT INTO "deleted_jobs" ("id", "public_id", "owner_id", "reason")
       SELECT "id", "public_id", CASE WHEN $1 = 'user_deleted' THEN NULL ELSE "owner_id" END, $1 FROM "jobs" WHERE "id" IN (${list(ids, 2)})
       ON CONFLICT ("id") DO NOTHING`,
      [reason, ...ids],
    );
    await m.query(`DELETE FROM "showcase_items" WHERE "job_id" IN (${list(ids)})`, [...ids]);
    await m.query(`DELETE FROM "showcase_walls" WHERE "job_id" IN (${list(ids)})`, [...ids]);
    await m.query(`DELETE FROM "webhook_deliveries" WHERE "job_id" IN (${list(ids)})`, [...ids]);
    await m.query(`DELETE FROM "jobs" WHERE "id" IN (${list(ids)})`, [...ids]);
  }

  /**
   * Where visitors' walls of a showcase (that show `itemId`, when given), or of every showcase of a user, keep
   * their files: what must go with the picture, the showcase or the user.
   */
  async visitorWalls(scope: { showcaseId: number; itemId?: number } | { ownerId: string }): Promise<string[]> {
    const rows: { base: string }[] =
      'ownerId' in scope
        ? await this.ds.query(
            `SELECT v."base" FROM "visitor_walls" v JOIN "showcases" s ON s."id" = v."showcase_id" WHERE s."owner_id" = $1`,
            [scope.ownerId],
          )
        : scope.itemId !== undefined
          ? await this.ds.query(`SELECT "base" FROM "visitor_walls" WHERE "showcase_id" = $1 AND "item_ids" @> $2::jsonb`, [
              scope.showcaseId,
              JSON.stringify([scope.itemId]),
            ])
          : await this.ds.query(`SELECT "base" FROM "visitor_walls" WHERE "showcase_id" = $1`, [scope.showcaseId]);
    return rows.map((r) => r.base);
  }

  /** Visitors' walls last used before `before`, least recently used first: one batch of the retention sweep. */
  async expiredVisitorWalls(before: Date, limit: number): Promise<string[]> {
    const rows: { base: string }[] = await this.ds.query(
      `SELECT "base" FROM "visitor_walls" WHERE "last_used_at" < $1 ORDER BY "last_used_at", "base" LIMIT $2`,
      [before, limit],
    );
    return rows.map((r) => r.base);
  }

  /** Forgets visitors' walls whose files were deleted. */
  async forgetVisitorWalls(bases: readonly string[]): Promise<void> {
    if (bases.length) await this.ds.query(`DELETE FROM "visitor_walls" WHERE "base" IN (${list(bases)})`, [...bases]);
  }

  /** The tombstone of a deleted job, by job id or by its public (embed) id. */
  async tombstone(by: { id: string } | { publicId: string }): Promise<DeletedJobRow | null> {
    const rows: Record<string, any>[] =
      'id' in by
        ? await this.ds.query(`SELECT * FROM "deleted_jobs" WHERE "id" = $1`, [by.id])
        : await this.ds.query(`SELECT * FROM "deleted_jobs" WHERE "public_id" = $1`, [by.publicId]);
    return rows[0] ? toTombstone(rows[0]) : null;
  }

  /**
   * Removes a user and everything theirs in one transaction: the jobs still left (the caller deleted their
   * files first), showcases and their items, API keys, webhook secret, idempotency records. Ledger entries
   * stay for accounting, with user_id nulled and {@link ledgerPseudonym} set. False when there is no such user.
   */
  async deleteUser(userId: string): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const users: { id: string }[] = await m.query(`SELECT "id" FROM "users" WHERE "id" = $1 FOR UPDATE`, [userId]);
      if (!users.length) return false;
      const jobs: { id: string }[] = await m.query(`SELECT "id" FROM "jobs" WHERE "owner_id" = $1`, [userId]);
      await this.removeRows(
        m,
        jobs.map((j) => j.id),
        'user_deleted',
      );
      await m.query(`UPDATE "deleted_jobs" SET "owner_id" = NULL WHERE "owner_id" = $1`, [userId]);
      await m.query(`DELETE FROM "showcase_items" WHERE "showcase_id" IN (SELECT "id" FROM "showcases" WHERE "owner_id" = $1)`, [userId]);
      await m.query(`DELETE FROM "showcases" WHERE "owner_id" = $1`, [userId]);
      await m.query(`DELETE FROM "api_keys" WHERE "user_id" = $1`, [userId]);
      await m.query(`DELETE FROM "webhook_secrets" WHERE "owner_id" = $1`, [userId]);
      await m.query(`DELETE FROM "idempotency_keys" WHERE "user_id" = $1`, [userId]);
      await m.query(`UPDATE "ledger_entries" SET "user_id" = NULL, "user_pseudonym" = $2 WHERE "user_id" = $1`, [
        userId,
        ledgerPseudonym(userId),
      ]);
      await m.query(`DELETE FROM "users" WHERE "id" = $1`, [userId]);
      return true;
    });
  }
}
