import type { DataSource, EntityManager } from 'typeorm';
import { AccountRepository } from './account.repository';
import { randomId } from './ids';
import { newJobId } from './job.repository';
import type { RepositoryHooks } from './repository-hooks';

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
  status: string;
  progress: number;
  result: Record<string, unknown> | null;
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
  /** Absent: `in` / `en` on create, unchanged on update. */
  units?: 'in' | 'cm';
  locale?: string;
}

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
}

/** The item's `external_id` is already used by another item of the showcase. */
export class ExternalIdTakenError extends Error {
  constructor(readonly externalId: string) {
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
    units: r.units === 'cm' ? 'cm' : 'in',
    locale: r.locale ?? 'en',
    createdAt: r.created_at,
  };
}

function toItem(r: Record<string, any>): ShowcaseItemRow {
  return {
    id: Number(r.id),
    showcaseId: Number(r.showcase_id),
    jobId: r.job_id,
    source: r.source,
    sourceUrl: r.source_url,
    filename: r.filename,
    createdAt: r.created_at,
    label: r.label === undefined || r.label === null ? {} : parseJson(r.label),
    externalId: r.external_id ?? null,
    availability: r.availability ?? 'available',
    position: r.position === null || r.position === undefined ? null : Number(r.position),
    banner: r.banner === null || r.banner === undefined ? null : parseJson(r.banner),
    pendingJobId: r.pending_job_id ?? null,
    status: r.status,
    progress: Number(r.progress),
    result: r.result === null ? null : parseJson(r.result),
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
          `INSERT INTO "showcases" ("public_id", "owner_id", "layout", "logo_url", "description", "custom_links", "branding", "presentation_defaults", "indexable", "units", "locale")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING *`,
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
        await m.query(`SELECT "id" FROM "showcases" WHERE "id" = $1 FOR UPDATE`, [sc.id]);
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
      input.showcase_id = sc.id;
      await m.query(
        `INSERT INTO "jobs" ("id", "public_id", "kind", "pipeline", "owner_id", "input", "request_id") VALUES ($1, $2, 'v2.picture', $3, $4, $5, $6)`,
        [jobId, newJobId('emb'), opts.pipeline, sc.ownerId, JSON.stringify(input), this.hooks.requestId?.() ?? null],
      );
      const c = it.catalogue ?? {};
      const r = await m
        .query(
          `INSERT INTO "showcase_items" ("showcase_id", "job_id", "source", "source_url", "filename", "label", "external_id", "availability", "position")
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING "id"`,
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

  /** The item a picture job belongs to, for GET /api/v2/jobs/:id. */
  async itemForJob(jobId: string): Promise<{ id: number; showcaseId: number } | null> {
    const rows = await this.ds.query(`SELECT "id", "showcase_id" FROM "showcase_items" WHERE "job_id" = $1`, [jobId]);
    return rows[0] ? { id: Number(rows[0].id), showcaseId: Number(rows[0].showcase_id) } : null;
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
         "indexable" = COALESCE($8::boolean, "indexable"), "units" = COALESCE($9, "units"), "locale" = COALESCE($10, "locale")
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
      ],
    );
    const rows = Array.isArray(res) && Array.isArray(res[0]) ? res[0] : res;
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
