import type { DataSource, EntityManager } from 'typeorm';
import { randomId } from './ids';
import { isForeignKeyViolation } from './database-errors';
import { parseJson, queryReturning } from './returning';
import { ShowcaseGoneError } from './showcase-item.repository';

/**
 * Bulk catalogue imports (`catalogue_imports`) and their per-row report (`catalogue_import_rows`).
 *
 * Every data row of an import gets exactly one report row once it is dealt with, so what is left to do
 * is always "the rows 1..counts.rows without a report row". Its outcome is kept in the columns the table
 * has, read back by {@link rowStatus}:
 * - `field` set (possibly `''`): the row is invalid, `message` says why;
 * - `message` one of {@link ROW_DONE} (`created`, `updated`, `unchanged`) with no field: done, with its
 *   item (and the job converting it: the new item's, or the rebuild's);
 * - any other `message` with no field: skipped, `message` being the reason (`insufficient_credits`,
 *   `too_many_items`, `interrupted`, ...).
 * A done row whose job failed is reported as `failed` with the job's error (joined when read).
 */

export type ImportStatus = 'running' | 'completed';
export type ImportRowStatus = 'invalid' | 'created' | 'updated' | 'unchanged' | 'skipped' | 'failed';

/** The messages of rows that were dealt with successfully. */
export const ROW_DONE = ['created', 'updated', 'unchanged'] as const;

/** What an import has done so far (stored as `counts`; the job states are joined when read). */
export interface ImportCounts {
  /** Data rows in the file or body. */
  rows: number;
  invalid: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  /** Rows with a report row (all of them once the import completed). */
  processed: number;
  /** Charged for the created pictures, in hundredths of a credit. */
  chargedCents: number;
  /** When the process running the import last showed it was alive (ms since the epoch). */
  heartbeatMs?: number;
}

export const emptyCounts = (): ImportCounts => ({
  rows: 0,
  invalid: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  skipped: 0,
  processed: 0,
  chargedCents: 0,
});

export interface CatalogueImportRow {
  id: string;
  showcaseId: number;
  ownerId: string;
  status: ImportStatus;
  counts: ImportCounts;
  createdAt: Date;
  finishedAt: Date | null;
}

/** One row's report as written. */
export interface ImportRowReport {
  row: number;
  /** The field at fault (invalid rows only; `''` when the row as a whole is). */
  field?: string | null;
  message: string;
  itemId?: number | null;
  jobId?: string | null;
}

/** One row's report as read: its status worked out, a failed conversion's error in `message`. */
export interface ReportedRow {
  row: number;
  status: ImportRowStatus;
  field: string | null;
  message: string;
  itemId: number | null;
  jobId: string | null;
}

/** States of the jobs an import made (new pictures and rebuilds), by what a client waits for. */
export interface ImportJobStates {
  /** Queued or running. */
  queued: number;
  completed: number;
  failed: number;
}

/** An invalid / done / skipped row, from its columns (see the file's comment). */
export function rowStatus(r: { field: string | null; message: string; jobStatus?: string | null }): ImportRowStatus {
  if (r.field !== null) return 'invalid';
  if (!(ROW_DONE as readonly string[]).includes(r.message)) return 'skipped';
  return r.jobStatus === 'failed' ? 'failed' : (r.message as ImportRowStatus);
}

function toImport(r: Record<string, any>): CatalogueImportRow {
  return {
    id: r.id,
    showcaseId: Number(r.showcase_id),
    ownerId: r.owner_id,
    status: r.status,
    counts: { ...emptyCounts(), ...parseJson<Partial<ImportCounts>>(r.counts ?? {}) },
    createdAt: r.created_at,
    finishedAt: r.finished_at ?? null,
  };
}

/** Rows per INSERT (6 parameters each). */
const INSERT_CHUNK = 200;

export class CatalogueImportRepository {
  constructor(private readonly ds: DataSource) {}

  /** A new import, `running`, with an `imp_…` id. ShowcaseGoneError when the showcase was deleted meanwhile. */
  async create(showcaseId: number, ownerId: string, counts: ImportCounts = emptyCounts()): Promise<CatalogueImportRow> {
    const rows = await this.ds
      .query(`INSERT INTO "catalogue_imports" ("id", "showcase_id", "owner_id", "counts") VALUES ($1, $2, $3, $4) RETURNING *`, [
        randomId('imp'),
        showcaseId,
        ownerId,
        JSON.stringify({ ...counts, heartbeatMs: Date.now() }),
      ])
      .catch((e: unknown) => {
        throw isForeignKeyViolation(e) ? new ShowcaseGoneError(showcaseId) : e;
      });
    return toImport(rows[0]);
  }

  /** The import if it is `ownerId`'s (null otherwise, as for an unknown id). */
  async findForOwner(id: string, ownerId: string): Promise<CatalogueImportRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "catalogue_imports" WHERE "id" = $1 AND "owner_id" = $2`, [id, ownerId]);
    return rows[0] ? toImport(rows[0]) : null;
  }

  async find(id: string): Promise<CatalogueImportRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "catalogue_imports" WHERE "id" = $1`, [id]);
    return rows[0] ? toImport(rows[0]) : null;
  }

  /** Removes an import and its report (one refused before it started). */
  async remove(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM "catalogue_imports" WHERE "id" = $1`, [id]);
  }

  /** Appends report rows (at most one per data row; the caller keeps to that). */
  async addRows(importId: string, rows: readonly ImportRowReport[], m: Pick<EntityManager, 'query'> = this.ds): Promise<void> {
    for (let at = 0; at < rows.length; at += INSERT_CHUNK) {
      const chunk = rows.slice(at, at + INSERT_CHUNK);
      const params: unknown[] = [importId];
      const values = chunk.map((r) => {
        params.push(r.row, r.field ?? null, r.message, r.itemId ?? null, r.jobId ?? null);
        const n = params.length;
        return `($1, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
      });
      await m.query(
        `INSERT INTO "catalogue_import_rows" ("import_id", "row", "field", "message", "item_id", "job_id") VALUES ${values.join(', ')}`,
        params,
      );
    }
  }

  /**
   * Writes report rows and the counts after them together, and beats the heartbeat. False when the import is
   * no longer running (another process found it abandoned and completed it): the caller stops.
   */
  async progress(importId: string, rows: readonly ImportRowReport[], counts: ImportCounts): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const live = await m.query(`SELECT "id" FROM "catalogue_imports" WHERE "id" = $1 AND "status" = 'running' FOR UPDATE`, [importId]);
      if (!live[0]) return false;
      await this.addRows(importId, rows, m);
      await m.query(`UPDATE "catalogue_imports" SET "counts" = $2 WHERE "id" = $1`, [
        importId,
        JSON.stringify({ ...counts, heartbeatMs: Date.now() }),
      ]);
      return true;
    });
  }

  /** Tells other processes these imports are still being worked on. */
  async heartbeat(ids: readonly string[]): Promise<void> {
    if (!ids.length) return;
    const list = ids.map((_, i) => `$${i + 2}`).join(', ');
    await this.ds.query(
      `UPDATE "catalogue_imports" SET "counts" = jsonb_set("counts", '{heartbeatMs}', to_jsonb($1::bigint)) WHERE "status" = 'running' AND "id" IN (${list})`,
      [Date.now(), ...ids],
    );
  }

  /** Marks a running import completed with its final counts; false when it was not running. */
  async complete(importId: string, counts: ImportCounts): Promise<boolean> {
    const rows = await queryReturning(
      this.ds,
      `UPDATE "catalogue_imports" SET "status" = 'completed', "finished_at" = now(), "counts" = $2 WHERE "id" = $1 AND "status" = 'running' RETURNING "id"`,
      [importId, JSON.stringify(counts)],
    );
    return rows.length > 0;
  }

  /**
   * Completes an import nobody works on any more (its process stopped): every row without a report row is
   * reported skipped with `reason`, and counted so. One transaction, the import row locked, so a live runner's
   * next {@link progress} sees it completed. Returns how many rows were skipped (null: not running).
   */
  async abandon(importId: string, reason: string): Promise<number | null> {
    return this.ds.transaction(async (m) => {
      const rows = await m.query(`SELECT * FROM "catalogue_imports" WHERE "id" = $1 AND "status" = 'running' FOR UPDATE`, [importId]);
      if (!rows[0]) return null;
      const imp = toImport(rows[0]);
      const inserted = await m.query(
        `INSERT INTO "catalogue_import_rows" ("import_id", "row", "message")
         SELECT $1::varchar, g, $3::text FROM generate_series(1, $2::int) AS g
         WHERE NOT EXISTS (SELECT 1 FROM "catalogue_import_rows" r WHERE r."import_id" = $1::varchar AND r."row" = g)
         RETURNING "row"`,
        [importId, imp.counts.rows, reason],
      );
      const n = (Array.isArray(inserted) && Array.isArray(inserted[0]) ? inserted[0] : inserted).length;
      const { heartbeatMs: _, ...counts } = imp.counts;
      await m.query(`UPDATE "catalogue_imports" SET "status" = 'completed', "finished_at" = now(), "counts" = $2 WHERE "id" = $1`, [
        importId,
        JSON.stringify({ ...counts, skipped: counts.skipped + n, processed: counts.rows }),
      ]);
      return n;
    });
  }

  /** Running imports whose heartbeat is older than `staleMs` (or, with 0, every running one). */
  async abandoned(staleMs: number): Promise<string[]> {
    const rows: { id: string }[] = await this.ds.query(
      `SELECT "id" FROM "catalogue_imports" WHERE "status" = 'running'
         AND COALESCE(("counts" ->> 'heartbeatMs')::bigint, 0) < $1 ORDER BY "created_at"`,
      [staleMs > 0 ? Date.now() - staleMs : Number.MAX_SAFE_INTEGER],
    );
    return rows.map((r) => r.id);
  }

  /** Which of `ids` are running imports (the others are completed or gone). */
  async running(ids: readonly string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const list = ids.map((_, i) => `$${i + 1}`).join(', ');
    const rows: { id: string }[] = await this.ds.query(
      `SELECT "id" FROM "catalogue_imports" WHERE "status" = 'running' AND "id" IN (${list})`,
      [...ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The states of the jobs the import's rows made (their items deleted since: not counted). */
  async jobStates(importId: string): Promise<ImportJobStates> {
    const rows = await this.ds.query(
      `SELECT count(*) FILTER (WHERE j."status" NOT IN ('completed', 'failed')) AS "queued",
              count(*) FILTER (WHERE j."status" = 'completed') AS "completed",
              count(*) FILTER (WHERE j."status" = 'failed') AS "failed"
       FROM "catalogue_import_rows" r JOIN "jobs" j ON j."id" = r."job_id" WHERE r."import_id" = $1`,
      [importId],
    );
    return { queued: Number(rows[0]?.queued ?? 0), completed: Number(rows[0]?.completed ?? 0), failed: Number(rows[0]?.failed ?? 0) };
  }

  /**
   * What the import's new pictures had refunded (their conversions failed), in cents: the ledger's refunds of the
   * jobs of its `created` rows (a group of variant rows shares one job, counted once). The import's charge less
   * this is what it cost.
   */
  async refundedCents(importId: string): Promise<number> {
    const rows = await this.ds.query(
      `SELECT coalesce(sum(l."amount_cents"), 0) AS "cents" FROM "ledger_entries" l
       WHERE l."kind" = 'refund' AND l."purpose" = 'showcase.picture' AND l."job_id" IN (
         SELECT r."job_id" FROM "catalogue_import_rows" r WHERE r."import_id" = $1 AND r."message" = 'created' AND r."job_id" IS NOT NULL)`,
      [importId],
    );
    return Number(rows[0]?.cents ?? 0);
  }

  /**
   * The report, in row order from `afterRow` on (keyset), at most `limit` rows: every row, or with
   * `problems` only the invalid, skipped and failed ones.
   */
  async report(importId: string, opts: { problems: boolean; afterRow?: number; limit?: number }): Promise<ReportedRow[]> {
    const done = ROW_DONE.map((m) => `'${m}'`).join(', ');
    const rows: Record<string, any>[] = await this.ds.query(
      `SELECT r."row", r."field", r."message", r."item_id", r."job_id", j."status" AS "job_status", j."error" AS "job_error"
       FROM "catalogue_import_rows" r LEFT JOIN "jobs" j ON j."id" = r."job_id"
       WHERE r."import_id" = $1 AND r."row" > $2
         ${opts.problems ? `AND (r."field" IS NOT NULL OR r."message" NOT IN (${done}) OR j."status" = 'failed')` : ''}
       ORDER BY r."row" LIMIT $3`,
      [importId, opts.afterRow ?? 0, opts.limit ?? 100_000],
    );
    return rows.map((r) => {
      const field = r.field ?? null;
      const status = rowStatus({ field, message: r.message, jobStatus: r.job_status });
      const error = status === 'failed' && r.job_error ? parseJson<{ code?: string; message?: string }>(r.job_error) : null;
      return {
        row: Number(r.row),
        status,
        field,
        message: error ? `conversion failed: ${error.message ?? error.code ?? 'failed'}` : r.message,
        itemId: r.item_id === null || r.item_id === undefined ? null : Number(r.item_id),
        jobId: r.job_id ?? null,
      };
    });
  }

  /** The items of a showcase with these external ids: external id -> item id. */
  async itemIdsByExternalId(showcaseId: number, externalIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!externalIds.length) return out;
    const list = externalIds.map((_, i) => `$${i + 2}`).join(', ');
    const rows: { id: number; external_id: string }[] = await this.ds.query(
      `SELECT "id", "external_id" FROM "showcase_items" WHERE "showcase_id" = $1 AND "external_id" IN (${list})`,
      [showcaseId, ...externalIds],
    );
    for (const r of rows) out.set(r.external_id, Number(r.id));
    return out;
  }
}
