import type { DataSource, EntityManager } from 'typeorm';
import { AccountRepository } from './account.repository';
import { isUniqueViolation } from './database-errors';
import type { Availability, ItemCatalogue, ItemLabel } from './item-catalogue';
import { type ItemVariant, resolveVariants, type StoredVariant, withDefaultVariant } from './item-variants';
import { newJobId } from './job.repository';
import { insertPictureJob } from './picture-jobs';
import { countCharged, type RepositoryHooks } from './repository-hooks';
import { parseJson } from './returning';

/** An item with its job's state (joined). */
export interface ShowcaseItemRow {
  id: number;
  showcaseId: number;
  jobId: string;
  source: 'url' | 'upload';
  sourceUrl: string | null;
  filename: string | null;
  createdAt: Date;
  label: ItemLabel;
  externalId: string | null;
  availability: Availability;
  position: number | null;
  /** Banner fields edited after conversion: they win over the result's banner (null: none edited). */
  banner: Record<string, unknown> | null;
  /** A rebuild of the item's files in progress (its files are still job_id's until it completes). */
  pendingJobId: string | null;
  /** Why the item's last rebuild failed (its files stayed job_id's); cleared by the next rebuild. */
  rebuildError: RebuildError | null;
  status: string;
  progress: number;
  /**
   * The job's result, its `banner` replaced by the item's edited one when there is one; with variants, the
   * default variant's files, size, look and commerce fields (see withDefaultVariant).
   */
  result: Record<string, unknown> | null;
  /** The sizes and frames the item is sold in, each with the files serving it (null: no variants). */
  variants: ItemVariant[] | null;
  /** The `variants` column as stored (what an edit replaces, compared when it is written). */
  storedVariants: StoredVariant[] | null;
  error: { code: string; message: string } | null;
  embedId: string | null;
}

/** A failed rebuild, as the item keeps it. */
export interface RebuildError {
  code: string;
  message: string;
  jobId: string;
  at: string;
}

/**
 * Where a failed rebuild's error is kept: a key of the item's `label` jsonb (the catalogue migration gave it
 * no column), never shown as a label field ({@link toItem} takes it out).
 */
export const REBUILD_ERROR_KEY = 'rebuild_error';

/** One picture to convert: a URL, or an upload already in storage. */
export interface NewItem {
  source: 'url' | 'upload';
  sourceUrl?: string;
  uploadKey?: string;
  filename?: string;
  /** Presentation fields (placement, frame, mat, finish, banner...) for the job input, already merged and validated. */
  presentation?: Record<string, unknown>;
  /** The catalogue fields (absent: no label, available, no position). */
  catalogue?: Partial<ItemCatalogue>;
  /** The item's variants (the one marked `main` is what `presentation` builds; the others are in its input's `variants`). */
  variants?: StoredVariant[];
}

/** The item's `external_id` is already used by another item of the showcase. */
export class ExternalIdTakenError extends Error {
  constructor(
    readonly externalId: string,
    /** The request field that named it (`items[3].external_id` in a list). */
    readonly param = 'external_id',
  ) {
    super(`external_id ${externalId} is already used by another item of this showcase`);
    this.name = 'ExternalIdTakenError';
  }
}

export interface ItemOptions {
  /** Pipeline the picture jobs run (from the route table). */
  pipeline: string;
}

/** Adding the pictures would take the showcase past its item cap (checked with the showcase row locked). */
export class ShowcaseFullError extends Error {
  constructor(
    readonly max: number,
    readonly have: number,
  ) {
    super(`a showcase holds at most ${max} pictures (it has ${have})`);
    this.name = 'ShowcaseFullError';
  }
}

/**
 * The showcase is gone (deleted while a request or an import was adding to it): the rows that would have
 * pointed at it are not written, so a race with a DELETE ends as a 404, never as a foreign-key violation.
 */
export class ShowcaseGoneError extends Error {
  constructor(readonly showcaseId: number) {
    super(`showcase ${showcaseId} was deleted`);
    this.name = 'ShowcaseGoneError';
  }
}

export interface CreatedItems {
  items: { id: number; jobId: string }[];
  chargedCents: number;
}

/** `$from, $from+1, …` for a list of values (array parameters are not portable to the PGlite adapter). */
const list = (values: readonly unknown[], from: number) => values.map((_, i) => `$${from + i}`).join(', ');

/** A result as the item shows it: a banner edited after conversion wins over the one the files were made with (it is not in the files). */
function withBanner(result: Record<string, unknown> | null, banner: unknown): Record<string, unknown> | null {
  return result && banner !== null && banner !== undefined ? { ...result, banner: parseJson(banner) } : result;
}

function toItem(r: Record<string, any>): ShowcaseItemRow {
  const { [REBUILD_ERROR_KEY]: rebuildError, ...label } =
    r.label === undefined || r.label === null ? {} : parseJson<Record<string, any>>(r.label);
  const result = withBanner(r.result === null ? null : parseJson(r.result), r.banner);
  const stored = r.variants === undefined || r.variants === null ? null : parseJson<StoredVariant[]>(r.variants);
  const variants = stored?.length ? resolveVariants(stored, result, r.job_id) : null;
  return {
    id: Number(r.id),
    showcaseId: Number(r.showcase_id),
    jobId: r.job_id,
    source: r.source,
    sourceUrl: r.source_url,
    filename: r.filename,
    createdAt: r.created_at,
    label: label as ItemLabel,
    externalId: r.external_id ?? null,
    availability: r.availability ?? 'available',
    position: r.position === null || r.position === undefined ? null : Number(r.position),
    banner: r.banner === null || r.banner === undefined ? null : parseJson(r.banner),
    pendingJobId: r.pending_job_id ?? null,
    rebuildError:
      rebuildError && typeof rebuildError === 'object'
        ? { code: rebuildError.code, message: rebuildError.message, jobId: rebuildError.job_id, at: rebuildError.at }
        : null,
    status: r.status,
    progress: Number(r.progress),
    result: withDefaultVariant(result, variants),
    variants,
    storedVariants: stored,
    error: r.error === null ? null : parseJson(r.error),
    embedId: r.embed_id,
  };
}

const ITEM_SELECT = `SELECT i.*, j."status", j."progress", j."result", j."error", j."public_id" AS "embed_id"
  FROM "showcase_items" i JOIN "jobs" j ON j."id" = i."job_id"`;

/**
 * The showcase a picture is added to: its id and owner (a ShowcaseRow will do; named here because
 * showcase.repository.ts imports this file to write a new showcase's items).
 */
export type ItemShowcase = { id: number; ownerId: string };

/**
 * Writes pictures' conversion jobs and items inside the caller's transaction: the charge (all lines or
 * none; `extra` lines first), then each picture's job and item. The caller holds the showcase row (a new
 * one, or one locked while its items were counted).
 */
export async function insertItems(
  m: EntityManager,
  hooks: RepositoryHooks,
  sc: ItemShowcase,
  items: NewItem[],
  opts: ItemOptions,
  pictureCents: number,
  extra: { cents: number; jobId: string; purpose: string; operation: string }[],
): Promise<CreatedItems> {
  const jobs = items.map((it) => ({ it, jobId: newJobId('v2') }));
  const lines = [
    ...extra,
    ...(pictureCents > 0
      ? jobs.map((j) => ({ cents: pictureCents, jobId: j.jobId, purpose: 'showcase.picture', operation: 'showcase.picture' }))
      : []),
  ];
  const chargedCents = lines.reduce((s, l) => s + l.cents, 0);
  if (chargedCents > 0) await AccountRepository.debitAll(m, sc.ownerId, lines);
  const out: { id: number; jobId: string }[] = [];
  for (const { it, jobId } of jobs) {
    const input: Record<string, unknown> = it.source === 'url' ? { image_url: it.sourceUrl } : { upload_key: it.uploadKey };
    Object.assign(input, it.presentation);
    // The other variants' specs: the job builds them from the same texture, after its main files (the main variant's).
    if (it.variants?.length) input.variants = it.variants.filter((v) => !v.main).map((v) => ({ id: v.id, ...v.spec }));
    input.showcase_id = sc.id;
    await insertPictureJob(
      m,
      { id: jobId, publicId: newJobId('emb'), pipeline: opts.pipeline, ownerId: sc.ownerId, input },
      hooks.requestId?.() ?? null,
    );
    const c = it.catalogue ?? {};
    const r = await m
      .query(
        `INSERT INTO "showcase_items" ("showcase_id", "job_id", "source", "source_url", "filename", "label", "external_id", "availability", "position", "variants")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING "id"`,
        [
          sc.id,
          jobId,
          it.source,
          it.sourceUrl ?? null,
          it.filename ?? null,
          JSON.stringify(c.label ?? {}),
          c.externalId ?? null,
          c.availability ?? 'available',
          c.position ?? null,
          it.variants?.length ? JSON.stringify(it.variants) : null,
        ],
      )
      .catch((e: unknown) => {
        if (c.externalId && isUniqueViolation(e, 'showcase_items_external_id_idx')) throw new ExternalIdTakenError(c.externalId);
        throw e;
      });
    out.push({ id: Number(r[0].id), jobId });
  }
  return { items: out, chargedCents };
}

/**
 * A showcase's items: adding pictures (one transaction: the showcase row locked while its items are counted,
 * the charge, the conversion jobs and the items; all of it or none), reading them, their order.
 */
export class ShowcaseItemRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {}

  /**
   * Adds pictures to a showcase. The showcase row is locked while its items are counted, so concurrent
   * requests cannot together pass `maxItems`.
   */
  async addItems(
    sc: ItemShowcase,
    items: NewItem[],
    pictureCents: number,
    opts: ItemOptions & { maxItems: number },
  ): Promise<CreatedItems> {
    return countCharged(
      this.hooks,
      await this.ds.transaction(async (m) => {
        const live = await m.query(`SELECT "id" FROM "showcases" WHERE "id" = $1 FOR UPDATE`, [sc.id]);
        // Deleted since the caller read it: nothing is charged or created (the lock keeps it until the commit).
        if (!live[0]) throw new ShowcaseGoneError(sc.id);
        const have = Number((await m.query(`SELECT count(*) AS n FROM "showcase_items" WHERE "showcase_id" = $1`, [sc.id]))[0].n);
        if (have + items.length > opts.maxItems) throw new ShowcaseFullError(opts.maxItems, have);
        return insertItems(m, this.hooks, sc, items, opts, pictureCents, []);
      }),
    );
  }

  /** Whether an item exists for this owner (null: any owner), in this showcase when one is given. */
  async itemOwnedBy(itemId: number, ownerId: string | null, showcaseId?: number): Promise<{ id: number; showcaseId: number } | null> {
    const rows = await this.ds.query(
      `SELECT i."id", i."showcase_id" FROM "showcase_items" i JOIN "showcases" s ON s."id" = i."showcase_id"
       WHERE i."id" = $1 AND ($2::varchar IS NULL OR s."owner_id" = $2) AND ($3::int IS NULL OR s."id" = $3)`,
      [itemId, ownerId, showcaseId ?? null],
    );
    return rows[0] ? { id: Number(rows[0].id), showcaseId: Number(rows[0].showcase_id) } : null;
  }

  async items(showcaseId: number): Promise<ShowcaseItemRow[]> {
    // The gallery's order first (position), then the order they were added.
    const rows = await this.ds.query(`${ITEM_SELECT} WHERE i."showcase_id" = $1 ORDER BY i."position" NULLS LAST, i."id"`, [showcaseId]);
    return rows.map(toItem);
  }

  /**
   * The public SKU lookup's read (GET /showcase/{public_id}/skus), one query whatever the number of SKUs: the
   * showcase by its public id and its items that one of `skus` names, by a variant's `sku` or by the item's
   * `external_id`, in the gallery's order. Null: no such showcase. The caller decides which match counts.
   */
  async itemsForSkus(publicId: string, skus: readonly string[]): Promise<{ showcaseId: number; items: ShowcaseItemRow[] } | null> {
    if (!skus.length) throw new Error('itemsForSkus: no SKUs');
    const named = list(skus, 2);
    const rows: Record<string, any>[] = await this.ds.query(
      `SELECT s."id" AS "sc_id", x.* FROM "showcases" s LEFT JOIN LATERAL (
         ${ITEM_SELECT} WHERE i."showcase_id" = s."id" AND (i."external_id" IN (${named})
           OR EXISTS (SELECT 1 FROM jsonb_array_elements(COALESCE(i."variants", '[]'::jsonb)) v WHERE v->>'sku' IN (${named})))
         ORDER BY i."position" NULLS LAST, i."id") x ON true
       WHERE s."public_id" = $1`,
      [publicId, ...skus],
    );
    if (!rows[0]) return null;
    return { showcaseId: Number(rows[0].sc_id), items: rows.filter((r) => r.id !== null && r.id !== undefined).map(toItem) };
  }

  async item(showcaseId: number, itemId: number): Promise<ShowcaseItemRow | null> {
    const rows = await this.ds.query(`${ITEM_SELECT} WHERE i."showcase_id" = $1 AND i."id" = $2`, [showcaseId, itemId]);
    return rows[0] ? toItem(rows[0]) : null;
  }

  /** The item a picture job belongs to (its files, or its pending rebuild), for GET /api/v2/jobs/:id. */
  async itemForJob(jobId: string): Promise<{ id: number; showcaseId: number } | null> {
    const rows = await this.ds.query(
      `SELECT "id", "showcase_id" FROM "showcase_items" WHERE "job_id" = $1 UNION ALL SELECT "id", "showcase_id" FROM "showcase_items" WHERE "pending_job_id" = $1
       UNION ALL SELECT "id", "showcase_id" FROM "showcase_items" WHERE "variants" @> $2::jsonb OR "variants" @> $3::jsonb LIMIT 1`,
      [jobId, JSON.stringify([{ pending_job_id: jobId }]), JSON.stringify([{ built: { job_id: jobId } }])],
    );
    return rows[0] ? { id: Number(rows[0].id), showcaseId: Number(rows[0].showcase_id) } : null;
  }

  /**
   * Sets `position` = index for the given items of a showcase (others keep theirs), in one transaction.
   * `unknownAt`: the index of the first id that is not an item of the showcase (then nothing changed).
   */
  async reorderItems(showcaseId: number, ids: readonly number[]): Promise<{ unknownAt: number | null }> {
    if (!ids.length) return { unknownAt: null };
    return this.ds.transaction(async (m) => {
      await m.query(`SELECT "id" FROM "showcases" WHERE "id" = $1 FOR UPDATE`, [showcaseId]);
      const rows: { id: number }[] = await m.query(
        `SELECT "id" FROM "showcase_items" WHERE "showcase_id" = $1 AND "id" IN (${list(ids, 2)})`,
        [showcaseId, ...ids],
      );
      const found = new Set(rows.map((r) => Number(r.id)));
      const unknownAt = ids.findIndex((id) => !found.has(id));
      if (unknownAt >= 0) return { unknownAt };
      const values = ids.map((_, i) => `($${i + 2}::integer, ${i})`).join(', ');
      await m.query(
        `UPDATE "showcase_items" AS i SET "position" = v."position" FROM (VALUES ${values}) AS v("id", "position")
         WHERE i."id" = v."id" AND i."showcase_id" = $1`,
        [showcaseId, ...ids],
      );
      return { unknownAt: null };
    });
  }

  async countItems(showcaseId: number): Promise<number> {
    const rows = await this.ds.query(`SELECT count(*) AS n FROM "showcase_items" WHERE "showcase_id" = $1`, [showcaseId]);
    return Number(rows[0].n);
  }
}
