import type { DataSource, EntityManager } from 'typeorm';
import { AccountRepository } from './account.repository';
import { randomId } from './ids';
import { newJobId } from './job.repository';
import type { RepositoryHooks } from './repository-hooks';
import { type ItemVariant, resolveVariants, type StoredVariant, variantJobIds, withDefaultVariant } from './item-variants';
import { insertPictureJob } from './picture-jobs';
import { returnedRows } from './returning';

export interface ShowcaseRow {
  id: number;
  publicId: string;
  ownerId: string;
  layout: string;
  logoUrl: string | null;
  description: string | null;
  customLinks: { title: string; url: string }[];
  /** Stored as sent (its keys are the API's). */
  branding: { tagline?: string; primary_color?: string; secondary_color?: string };
  /** Defaults of the items' presentation fields (placement, allow_scaling, finish, frame, mat), as sent. */
  presentationDefaults: Record<string, unknown>;
  /** Whether the public page may be indexed by search engines (default false). */
  indexable: boolean;
  /** Whether the public pages count engagement (analytics). */
  analytics: boolean;
  /** Which unit the pages show first (`in` or `cm`). */
  units: 'in' | 'cm';
  /** The public pages' language (en, de, fr, es, it, nl, ja). */
  locale: string;
  createdAt: Date;
}

/** How a gallery labels a work (all optional, free text). */
export interface ItemLabel {
  artist?: string;
  year?: string;
  medium?: string;
  edition?: string;
  description?: string;
}

export type Availability = 'available' | 'reserved' | 'sold' | 'not_for_sale';

/** The catalogue fields of an item: its label, id in the gallery's catalogue, availability and order. */
export interface ItemCatalogue {
  label: ItemLabel;
  externalId: string | null;
  availability: Availability;
  position: number | null;
}

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

export interface NewShowcase {
  ownerId: string;
  layout: string;
  logoUrl: string | null;
  description: string | null;
  customLinks: { title: string; url: string }[];
  branding: ShowcaseRow['branding'];
  presentationDefaults?: Record<string, unknown>;
  /** Absent: false on create, unchanged on update. */
  indexable?: boolean;
  /** Absent: true on create, unchanged on update. */
  analytics?: boolean;
  /** Absent: `in` / `en` on create, unchanged on update. */
  units?: 'in' | 'cm';
  locale?: string;
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
const REBUILD_ERROR_KEY = 'rebuild_error';

/**
 * The job input field that makes a picture job a variant build (some variants' files from an item's stored
 * texture): `{item_id, variant_ids}`. Written with the job by {@link ShowcaseRepository.editItem}.
 */
export const VARIANT_BUILD_INPUT = 'variant_build';

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

export interface Billing {
  /** Whether the showcase slot limit applies (per-user keys; the owner key is unlimited). */
  enforceSlots: boolean;
  showcaseCents: number;
  pictureCents: number;
}

export class NoShowcaseSlotsError extends Error {
  constructor(readonly total: number) {
    super(`no showcase slots left (${total} in use of ${total})`);
    this.name = 'NoShowcaseSlotsError';
  }
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

/** A foreign key refused the row (Postgres 23503): what it points at is gone. */
export function isForeignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; driverError?: { code?: string } };
  return (err.code ?? err.driverError?.code) === '23503';
}

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

/** What a finished variant build job meant for its item ({@link ShowcaseRepository.settleVariantBuild}). */
export type VariantBuildSettlement =
  /** Its variants serve its files now (or keep theirs and report its error); `replacedJobIds` serve nothing any more. */
  | { outcome: 'settled'; itemId: number; status: 'completed' | 'failed'; variantIds: string[]; replacedJobIds: string[] }
  | { outcome: 'running' }
  /** No variant waits for it: still in use by some (a repeated call), or used by none (`orphan`: superseded). */
  | { outcome: 'in_use' }
  | { outcome: 'orphan'; status: string };

/** What a finished rebuild job meant for its item ({@link ShowcaseRepository.settleRebuild}). */
export type RebuildSettlement =
  /** The item serves the rebuild's files now, under its old embed id; `replacedJobId` is free to delete. */
  | { outcome: 'switched'; itemId: number; replacedJobId: string }
  /** The item keeps its files and reports the error. */
  | { outcome: 'failed'; itemId: number }
  | { outcome: 'running' }
  /** No item waits for it: an item's own job (a repeated call), or a job nothing uses (`orphan`: a superseded rebuild). */
  | { outcome: 'in_use' }
  | { outcome: 'orphan'; status: string };

export interface CreatedItems {
  items: { id: number; jobId: string }[];
  chargedCents: number;
}

/** A unique index refused the row (Postgres 23505), naming the index when the driver says which. */
function isUniqueViolation(e: unknown, index: string): boolean {
  const err = e as { code?: string; constraint?: string; message?: string; driverError?: { code?: string; constraint?: string } };
  const code = err.code ?? err.driverError?.code;
  const constraint = err.constraint ?? err.driverError?.constraint ?? '';
  return code === '23505' && (constraint === index || String(err.message ?? '').includes(index));
}

/** `$from, $from+1, …` for a list of values (array parameters are not portable to the PGlite adapter). */
const list = (values: readonly unknown[], from: number) => values.map((_, i) => `$${from + i}`).join(', ');
/** Thrown inside an edit's transaction to roll it back when the item no longer serves the files the edit was made for. */
const STALE = Symbol('stale item');

const parseJson = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function toShowcase(r: Record<string, any>): ShowcaseRow {
  return {
    id: Number(r.id),
    publicId: r.public_id,
    ownerId: r.owner_id,
    layout: r.layout,
    logoUrl: r.logo_url,
    description: r.description,
    customLinks: parseJson(r.custom_links),
    branding: parseJson(r.branding),
    presentationDefaults:
      r.presentation_defaults === undefined || r.presentation_defaults === null ? {} : parseJson(r.presentation_defaults),
    indexable: r.indexable === true,
    analytics: r.analytics !== false,
    units: r.units === 'cm' ? 'cm' : 'in',
    locale: r.locale ?? 'en',
    createdAt: r.created_at,
  };
}

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
 * Showcases and their items. Creating a showcase or adding pictures is one transaction: slot check
 * (the user row is locked), charge (all or nothing), showcase, conversion jobs and items. Either all of
 * it is written or none.
 */
export class ShowcaseRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {}

  /** Tells the hooks what a committed transaction charged. */
  private counted<T extends { chargedCents: number }>(created: T): T {
    if (created.chargedCents > 0) this.hooks.charged?.(created.chargedCents);
    return created;
  }

  async create(s: NewShowcase, items: NewItem[], billing: Billing, opts: ItemOptions): Promise<{ showcase: ShowcaseRow } & CreatedItems> {
    return this.counted(
      await this.ds.transaction(async (m) => {
        const u = await m.query(`SELECT "showcase_slots" FROM "users" WHERE "id" = $1 FOR UPDATE`, [s.ownerId]);
        if (!u[0]) throw new Error(`showcases: no user ${s.ownerId}`);
        if (billing.enforceSlots) {
          const used = await m.query(`SELECT count(*) AS n FROM "showcases" WHERE "owner_id" = $1`, [s.ownerId]);
          if (Number(used[0].n) >= Number(u[0].showcase_slots)) throw new NoShowcaseSlotsError(Number(u[0].showcase_slots));
        }
        const publicId = randomId('shw');
        const rows = await m.query(
          `INSERT INTO "showcases" ("public_id", "owner_id", "layout", "logo_url", "description", "custom_links", "branding", "presentation_defaults", "indexable", "units", "locale", "analytics")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
          [
            publicId,
            s.ownerId,
            s.layout,
            s.logoUrl,
            s.description,
            JSON.stringify(s.customLinks),
            JSON.stringify(s.branding),
            JSON.stringify(s.presentationDefaults ?? {}),
            s.indexable ?? false,
            s.units ?? 'in',
            s.locale ?? 'en',
            s.analytics ?? true,
          ],
        );
        const sc = toShowcase(rows[0]);
        const created = await this.insertItems(
          m,
          sc,
          items,
          opts,
          billing.pictureCents,
          billing.showcaseCents > 0
            ? [{ cents: billing.showcaseCents, jobId: `showcase:${publicId}`, purpose: 'showcase.create', operation: 'showcase.create' }]
            : [],
        );
        return { showcase: sc, ...created };
      }),
    );
  }

  /**
   * Adds pictures to a showcase. The showcase row is locked while its items are counted, so concurrent
   * requests cannot together pass `maxItems`.
   */
  async addItems(sc: ShowcaseRow, items: NewItem[], pictureCents: number, opts: ItemOptions & { maxItems: number }): Promise<CreatedItems> {
    return this.counted(
      await this.ds.transaction(async (m) => {
        const live = await m.query(`SELECT "id" FROM "showcases" WHERE "id" = $1 FOR UPDATE`, [sc.id]);
        // Deleted since the caller read it: nothing is charged or created (the lock keeps it until the commit).
        if (!live[0]) throw new ShowcaseGoneError(sc.id);
        const have = Number((await m.query(`SELECT count(*) AS n FROM "showcase_items" WHERE "showcase_id" = $1`, [sc.id]))[0].n);
        if (have + items.length > opts.maxItems) throw new ShowcaseFullError(opts.maxItems, have);
        return this.insertItems(m, sc, items, opts, pictureCents, []);
      }),
    );
  }

  private async insertItems(
    m: EntityManager,
    sc: ShowcaseRow,
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
        this.hooks.requestId?.() ?? null,
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

  async findForOwner(id: number, ownerId: string): Promise<ShowcaseRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "showcases" WHERE "id" = $1 AND "owner_id" = $2`, [id, ownerId]);
    return rows[0] ? toShowcase(rows[0]) : null;
  }

  /** A showcase whoever owns it (the owner key's views). */
  async findById(id: number): Promise<ShowcaseRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "showcases" WHERE "id" = $1`, [id]);
    return rows[0] ? toShowcase(rows[0]) : null;
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

  async findByPublicId(publicId: string): Promise<ShowcaseRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "showcases" WHERE "public_id" = $1`, [publicId]);
    return rows[0] ? toShowcase(rows[0]) : null;
  }

  async items(showcaseId: number): Promise<ShowcaseItemRow[]> {
    // The gallery's order first (position), then the order they were added.
    const rows = await this.ds.query(`${ITEM_SELECT} WHERE i."showcase_id" = $1 ORDER BY i."position" NULLS LAST, i."id"`, [showcaseId]);
    return rows.map(toItem);
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

  async countForOwner(ownerId: string): Promise<number> {
    const rows = await this.ds.query(`SELECT count(*) AS n FROM "showcases" WHERE "owner_id" = $1`, [ownerId]);
    return Number(rows[0].n);
  }

  /** An owner's showcases, newest first (keyset by id, below `beforeId`), each with its item count; `limit + 1` rows tell whether there are more. */
  async listForOwner(ownerId: string, limit: number, beforeId?: number): Promise<(ShowcaseRow & { itemCount: number })[]> {
    const rows = await this.ds.query(
      `SELECT s.*, (SELECT count(*) FROM "showcase_items" i WHERE i."showcase_id" = s."id") AS "item_count"
       FROM "showcases" s WHERE s."owner_id" = $1 AND ($2::int IS NULL OR s."id" < $2) ORDER BY s."id" DESC LIMIT $3`,
      [ownerId, beforeId ?? null, limit],
    );
    return rows.map((r: Record<string, unknown>) => ({ ...toShowcase(r), itemCount: Number(r.item_count) }));
  }

  /** Replaces a showcase's page fields (the caller merged and validated them); null when there is no such showcase. */
  async update(id: number, s: Omit<NewShowcase, 'ownerId'>): Promise<ShowcaseRow | null> {
    const res = await this.ds.query(
      `UPDATE "showcases" SET "layout" = $2, "logo_url" = $3, "description" = $4, "custom_links" = $5, "branding" = $6, "presentation_defaults" = $7,
         "indexable" = COALESCE($8::boolean, "indexable"), "units" = COALESCE($9, "units"), "locale" = COALESCE($10, "locale"),
         "analytics" = COALESCE($11::boolean, "analytics")
       WHERE "id" = $1 RETURNING *`,
      [
        id,
        s.layout,
        s.logoUrl,
        s.description,
        JSON.stringify(s.customLinks),
        JSON.stringify(s.branding),
        JSON.stringify(s.presentationDefaults ?? {}),
        s.indexable ?? null,
        s.units ?? null,
        s.locale ?? null,
        s.analytics ?? null,
      ],
    );
    const rows = returnedRows(res);
    return rows[0] ? toShowcase(rows[0]) : null;
  }

  /**
   * Deletes a showcase whose items are all gone (their jobs were deleted first, with their files). The row
   * is locked while its items are counted, so a picture added meanwhile keeps it: `not_empty`.
   */
  async deleteIfEmpty(id: number): Promise<'deleted' | 'not_empty' | 'missing'> {
    return this.ds.transaction(async (m) => {
      const rows = await m.query(`SELECT "id" FROM "showcases" WHERE "id" = $1 FOR UPDATE`, [id]);
      if (!rows[0]) return 'missing';
      const n = Number((await m.query(`SELECT count(*) AS n FROM "showcase_items" WHERE "showcase_id" = $1`, [id]))[0].n);
      if (n > 0) return 'not_empty';
      await m.query(`DELETE FROM "showcases" WHERE "id" = $1`, [id]);
      return 'deleted';
    });
  }

  async countItems(showcaseId: number): Promise<number> {
    const rows = await this.ds.query(`SELECT count(*) AS n FROM "showcase_items" WHERE "showcase_id" = $1`, [showcaseId]);
    return Number(rows[0].n);
  }
}
