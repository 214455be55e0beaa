import type { DataSource } from 'typeorm';
import { randomId } from './ids';
import { countCharged, type RepositoryHooks } from './repository-hooks';
import { parseJson, returnedRows } from './returning';
import { type CreatedItems, insertItems, type ItemOptions, type NewItem } from './showcase-item.repository';

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

/**
 * Showcases: their page fields, lists and counts. Creating one is one transaction with its first items:
 * slot check (the user row is locked), charge (all or nothing), showcase, conversion jobs and items, so
 * either all of it is written or none; the items are written by insertItems (showcase-item.repository.ts),
 * which adding pictures later shares.
 */
export class ShowcaseRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly hooks: RepositoryHooks = {},
  ) {}

  async create(s: NewShowcase, items: NewItem[], billing: Billing, opts: ItemOptions): Promise<{ showcase: ShowcaseRow } & CreatedItems> {
    return countCharged(
      this.hooks,
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
        const created = await insertItems(
          m,
          this.hooks,
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

  async findForOwner(id: number, ownerId: string): Promise<ShowcaseRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "showcases" WHERE "id" = $1 AND "owner_id" = $2`, [id, ownerId]);
    return rows[0] ? toShowcase(rows[0]) : null;
  }

  /** A showcase whoever owns it (the owner key's views). */
  async findById(id: number): Promise<ShowcaseRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "showcases" WHERE "id" = $1`, [id]);
    return rows[0] ? toShowcase(rows[0]) : null;
  }

  async findByPublicId(publicId: string): Promise<ShowcaseRow | null> {
    const rows = await this.ds.query(`SELECT * FROM "showcases" WHERE "public_id" = $1`, [publicId]);
    return rows[0] ? toShowcase(rows[0]) : null;
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
}
