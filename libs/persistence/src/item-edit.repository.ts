import type { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from './database-errors';
import type { Availability, ItemLabel } from './item-catalogue';
import { type StoredVariant, variantJobIds } from './item-variants';
import { newJobId } from './job.repository';
import { insertPictureJob } from './picture-jobs';
import type { RepositoryHooks } from './repository-hooks';
import { parseJson, returnedRows } from './returning';
import { ExternalIdTakenError, REBUILD_ERROR_KEY, type ShowcaseItemRow } from './showcase-item.repository';

/**
 * The job input field that makes a picture job a variant build (some variants' files from an item's stored
 * texture): `{item_id, variant_ids}`. Written with the job by {@link ItemEditRepository.editItem}.
 */
export const VARIANT_BUILD_INPUT = 'variant_build';

/** What an edit changes on an item (a field left out: unchanged). */
export interface ItemChanges {
  label?: ItemLabel;
  externalId?: string | null;
  availability?: Availability;
  position?: number | null;
  /** The banner as the pages are to show it: the whole of it (it wins over the one in the files' result). */
  banner?: Record<string, unknown>;
  /** Rebuild the item's files: a new job (free) from this input, pending until it completes; it supersedes one still pending. */
  rebuild?: { input: Record<string, unknown>; pipeline: string };
  /** Drop the pending rebuild: the edit is back at what the item's files already are. */
  dropPending?: boolean;
  /**
   * The item's variants from now on, written only if they are still `expected` (what the edit was made from);
   * `build`: a free job making the files of the variants `ids` (each gets it as pending_job_id).
   */
  variants?: {
    next: StoredVariant[] | null;
    expected: StoredVariant[] | null;
    build?: { input: Record<string, unknown>; pipeline: string; ids: string[] };
  };
}

/** What a finished variant build job meant for its item ({@link ItemEditRepository.settleVariantBuild}). */
export type VariantBuildSettlement =
  /** Its variants serve its files now (or keep theirs and report its error); `replacedJobIds` serve nothing any more. */
  | { outcome: 'settled'; itemId: number; status: 'completed' | 'failed'; variantIds: string[]; replacedJobIds: string[] }
  | { outcome: 'running' }
  /** No variant waits for it: still in use by some (a repeated call), or used by none (`orphan`: superseded). */
  | { outcome: 'in_use' }
  | { outcome: 'orphan'; status: string };

/** What a finished rebuild job meant for its item ({@link ItemEditRepository.settleRebuild}). */
export type RebuildSettlement =
  /** The item serves the rebuild's files now, under its old embed id; `replacedJobId` is free to delete. */
  | { outcome: 'switched'; itemId: number; replacedJobId: string }
  /** The item keeps its files and reports the error. */
  | { outcome: 'failed'; itemId: number }
  | { outcome: 'running' }
  /** No item waits for it: an item's own job (a repeated call), or a job nothing uses (`orphan`: a superseded rebuild). */
  | { outcome: 'in_use' }
  | { outcome: 'orphan'; status: string };

/** Thrown inside an edit's transaction to roll it back when the item no longer serves the files the edit was made for. */
const STALE = Symbol('stale item');

/**
 * Changes to an item after it was made: an edit (its catalogue fields, banner and variants, with the jobs
 * that rebuild its files, in one transaction), and what those jobs mean for it once finished (its files
 * switched, or the error kept), each in one transaction with the item row locked.
 */
export class ItemEditRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {}

  /**
   * Applies an edit to one item, in one transaction: its catalogue fields and banner, and a rebuild job
   * (created here, free of charge, recorded as the item's pending_job_id; the item keeps serving job_id's
   * files until it completes). Applied only while the item still serves `item.jobId`'s files: null when it
   * switched to a rebuild (or was deleted) meanwhile, and then nothing is written. A taken external_id
   * throws {@link ExternalIdTakenError} naming `externalIdParam`.
   */
  async editItem(
    item: Pick<ShowcaseItemRow, 'id' | 'jobId'>,
    ownerId: string,
    c: ItemChanges,
    externalIdParam = 'external_id',
  ): Promise<{ rebuildJobId: string | null; variantBuildJobId: string | null } | null> {
    try {
      return await this.ds.transaction(async (m) => {
        let rebuildJobId: string | null = null;
        if (c.rebuild) {
          rebuildJobId = newJobId('v2');
          await insertPictureJob(
            m,
            { id: rebuildJobId, publicId: newJobId('emb'), pipeline: c.rebuild.pipeline, ownerId, input: c.rebuild.input },
            this.hooks.requestId?.() ?? null,
          );
        }
        const variantBuildJobId = c.variants ? await this.writeVariants(m, item, ownerId, c.variants) : null;
        const res = await m.query(
          `UPDATE "showcase_items" SET
             "label" = (CASE WHEN $2::jsonb IS NULL THEN "label"
                        ELSE $2::jsonb || jsonb_strip_nulls(jsonb_build_object('${REBUILD_ERROR_KEY}', "label" -> '${REBUILD_ERROR_KEY}')) END) - $3::text,
             "external_id" = CASE WHEN $4::boolean THEN $5::varchar ELSE "external_id" END,
             "availability" = COALESCE($6::varchar, "availability"),
             "position" = CASE WHEN $7::boolean THEN $8::integer ELSE "position" END,
             "banner" = COALESCE($9::jsonb, "banner"),
             "pending_job_id" = CASE WHEN $10::boolean THEN $11::varchar ELSE "pending_job_id" END
           WHERE "id" = $1 AND "job_id" = $12 RETURNING "id"`,
          [
            item.id,
            c.label === undefined ? null : JSON.stringify(c.label),
            // A new rebuild starts with no error; a failed one's stays until then.
            c.rebuild ? REBUILD_ERROR_KEY : '',
            c.externalId !== undefined,
            c.externalId ?? null,
            c.availability ?? null,
            c.position !== undefined,
            c.position ?? null,
            c.banner === undefined ? null : JSON.stringify(c.banner),
            c.rebuild !== undefined || c.dropPending === true,
            rebuildJobId,
            item.jobId,
          ],
        );
        if (!returnedRows(res).length) throw STALE;
        return { rebuildJobId, variantBuildJobId };
      });
    } catch (e) {
      if (e === STALE) return null;
      if (c.externalId && isUniqueViolation(e, 'showcase_items_external_id_idx'))
        throw new ExternalIdTakenError(c.externalId, externalIdParam);
      throw e;
    }
  }

  /**
   * Writes an item's variants (inside an edit's transaction): only while they are still what the edit was
   * made from, else the edit is stale. The build job, if any, is created here (free) and becomes the pending
   * job of the variants it builds. Returns its id.
   */
  private async writeVariants(
    m: EntityManager,
    item: Pick<ShowcaseItemRow, 'id' | 'jobId'>,
    ownerId: string,
    v: NonNullable<ItemChanges['variants']>,
  ): Promise<string | null> {
    let jobId: string | null = null;
    let next = v.next;
    if (v.build) {
      jobId = newJobId('v2');
      const input = { ...v.build.input, [VARIANT_BUILD_INPUT]: { item_id: item.id, variant_ids: v.build.ids } };
      await insertPictureJob(
        m,
        { id: jobId, publicId: null, pipeline: v.build.pipeline, ownerId, input },
        this.hooks.requestId?.() ?? null,
      );
      const ids = new Set(v.build.ids);
      next = (next ?? []).map((x) => (ids.has(x.id) ? { ...x, pending_job_id: jobId, error: null } : x));
    }
    const res = await m.query(
      `UPDATE "showcase_items" SET "variants" = $3::jsonb
       WHERE "id" = $1 AND "job_id" = $2 AND "variants" IS NOT DISTINCT FROM $4::jsonb RETURNING "id"`,
      [item.id, item.jobId, next?.length ? JSON.stringify(next) : null, v.expected?.length ? JSON.stringify(v.expected) : null],
    );
    if (!returnedRows(res).length) throw STALE;
    return jobId;
  }

  /**
   * What a finished variant build job means for the item whose variants wait for it, in one transaction with
   * the item row locked. Completed: each variant still waiting for it serves its files (`built`); failed: they
   * keep what they had and report the error. Jobs no variant uses any more (besides the item's own) are
   * returned for deletion. Safe to call again for the same job.
   */
  async settleVariantBuild(jobId: string): Promise<VariantBuildSettlement> {
    const settled = await this.ds.transaction(async (m): Promise<VariantBuildSettlement | null> => {
      const rows = await m.query(
        `SELECT i."id", i."job_id", i."variants", n."status", n."result", n."error" FROM "showcase_items" i JOIN "jobs" n ON n."id" = $1
         WHERE i."variants" @> $2::jsonb FOR UPDATE OF i`,
        [jobId, JSON.stringify([{ pending_job_id: jobId }])],
      );
      const r = rows[0];
      if (!r) return null;
      if (r.status !== 'completed' && r.status !== 'failed') return { outcome: 'running' };
      const before = parseJson<StoredVariant[]>(r.variants);
      const result = r.result === null ? null : parseJson<Record<string, unknown>>(r.result);
      const builds = Array.isArray(result?.variants) ? (result.variants as Record<string, unknown>[]) : [];
      const e = (r.error === null ? {} : parseJson<Record<string, unknown>>(r.error)) ?? {};
      const variantIds: string[] = [];
      const after = before.map((v): StoredVariant => {
        if (v.pending_job_id !== jobId) return v;
        variantIds.push(v.id);
        const b = builds.find((x) => x.id === v.id);
        if (r.status === 'completed' && b?.files) {
          const { id: _id, ...files } = b;
          return { ...v, built: { job_id: jobId, ...files } as StoredVariant['built'], pending_job_id: null, error: null };
        }
        const error = {
          code: String(e.code ?? 'failed'),
          message: String(e.message ?? (b ? 'the build failed' : 'the build made no files for this variant')),
          job_id: jobId,
          at: new Date().toISOString(),
        };
        return { ...v, pending_job_id: null, error };
      });
      await m.query(`UPDATE "showcase_items" SET "variants" = $2::jsonb WHERE "id" = $1`, [Number(r.id), JSON.stringify(after)]);
      const inUse = new Set([r.job_id, ...variantJobIds(after, r.job_id)]);
      const replacedJobIds = variantJobIds(before, r.job_id).filter((id) => !inUse.has(id) && id !== jobId);
      if (r.status === 'failed' && !inUse.has(jobId)) replacedJobIds.push(jobId);
      return { outcome: 'settled', itemId: Number(r.id), status: r.status, variantIds, replacedJobIds };
    });
    if (settled) return settled;
    const used = await this.ds.query(`SELECT 1 FROM "showcase_items" WHERE "variants" @> $1::jsonb OR "variants" @> $2::jsonb LIMIT 1`, [
      JSON.stringify([{ built: { job_id: jobId } }]),
      JSON.stringify([{ pending_job_id: jobId }]),
    ]);
    if (used.length) return { outcome: 'in_use' };
    const job = await this.ds.query(`SELECT "status" FROM "jobs" WHERE "id" = $1`, [jobId]);
    return { outcome: 'orphan', status: job[0]?.status ?? 'missing' };
  }

  /** Variant builds whose job has finished while variants still wait for it: what a lost listener call left for the sweep. */
  async finishedVariantBuilds(limit = 500): Promise<string[]> {
    const rows = await this.ds.query(
      `SELECT DISTINCT v."value" ->> 'pending_job_id' AS "id"
       FROM "showcase_items" i CROSS JOIN LATERAL jsonb_array_elements(i."variants") v
       JOIN "jobs" n ON n."id" = v."value" ->> 'pending_job_id'
       WHERE i."variants" IS NOT NULL AND n."status" IN ('completed', 'failed') LIMIT $1`,
      [limit],
    );
    return rows.map((r: { id: string }) => r.id);
  }

  /**
   * What a finished rebuild job means for the item waiting for it, in one transaction with the item row
   * locked. Completed: the item switches to it in one UPDATE (`job_id = pending_job_id, pending_job_id =
   * NULL`), and the item's embed id (jobs.public_id) moves with it (the replaced job takes the rebuild's),
   * so the item, its pages and its embeds change files together and keep their URLs. Failed: the item
   * keeps its files, drops the pending rebuild and keeps the error. Safe to call again for the same job.
   */
  async settleRebuild(jobId: string): Promise<RebuildSettlement> {
    const settled = await this.ds.transaction(async (m): Promise<RebuildSettlement | null> => {
      const rows = await m.query(
        `SELECT i."id", i."job_id", o."public_id" AS "old_public_id", n."public_id" AS "new_public_id", n."status", n."error"
         FROM "showcase_items" i JOIN "jobs" n ON n."id" = i."pending_job_id" JOIN "jobs" o ON o."id" = i."job_id"
         WHERE i."pending_job_id" = $1 FOR UPDATE OF i`,
        [jobId],
      );
      const r = rows[0];
      if (!r) return null;
      const itemId = Number(r.id);
      if (r.status === 'completed') {
        if (r.old_public_id) {
          // jobs.public_id is unique: the replaced job lets go of it first.
          await m.query(`UPDATE "jobs" SET "public_id" = NULL WHERE "id" = $1`, [r.job_id]);
          await m.query(`UPDATE "jobs" SET "public_id" = $2 WHERE "id" = $1`, [jobId, r.old_public_id]);
          await m.query(`UPDATE "jobs" SET "public_id" = $2 WHERE "id" = $1`, [r.job_id, r.new_public_id]);
        }
        await m.query(
          `UPDATE "showcase_items" SET "job_id" = "pending_job_id", "pending_job_id" = NULL, "label" = "label" - '${REBUILD_ERROR_KEY}'
           WHERE "id" = $1 AND "pending_job_id" = $2`,
          [itemId, jobId],
        );
        return { outcome: 'switched', itemId, replacedJobId: r.job_id };
      }
      if (r.status === 'failed') {
        const e = (r.error === null ? {} : parseJson<Record<string, unknown>>(r.error)) ?? {};
        const error = { code: e.code ?? 'failed', message: e.message ?? 'the rebuild failed', job_id: jobId, at: new Date().toISOString() };
        await m.query(
          `UPDATE "showcase_items" SET "pending_job_id" = NULL, "label" = jsonb_set("label", '{${REBUILD_ERROR_KEY}}', $3::jsonb)
           WHERE "id" = $1 AND "pending_job_id" = $2`,
          [itemId, jobId, JSON.stringify(error)],
        );
        return { outcome: 'failed', itemId };
      }
      return { outcome: 'running' };
    });
    if (settled) return settled;
    const used = await this.ds.query(`SELECT 1 FROM "showcase_items" WHERE "job_id" = $1 OR "pending_job_id" = $1 LIMIT 1`, [jobId]);
    if (used.length) return { outcome: 'in_use' };
    const job = await this.ds.query(`SELECT "status" FROM "jobs" WHERE "id" = $1`, [jobId]);
    return { outcome: 'orphan', status: job[0]?.status ?? 'missing' };
  }

  /** Pending rebuilds whose job has finished: what a lost listener call left for the sweep. */
  async finishedRebuilds(limit = 500): Promise<string[]> {
    const rows = await this.ds.query(
      `SELECT i."pending_job_id" AS "id" FROM "showcase_items" i JOIN "jobs" n ON n."id" = i."pending_job_id"
       WHERE n."status" IN ('completed', 'failed') LIMIT $1`,
      [limit],
    );
    return rows.map((r: { id: string }) => r.id);
  }
}
