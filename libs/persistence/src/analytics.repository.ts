import type { DataSource, EntityManager } from 'typeorm';
import type { CountRow, VisitorCount } from '@app/analytics';
import { returnedRows } from './returning';

/** One row of daily counts to add, and new unique visitors: what libs/analytics' `aggregate` folds a batch into. */
export type AnalyticsCountRow = CountRow;
export type AnalyticsVisitorCount = VisitorCount;

export type AnalyticsGroupBy = 'day' | 'item' | 'job' | 'platform' | 'referrer';

export interface AnalyticsFilter {
  /** null: every account (the owner's view). */
  ownerId: string | null;
  from: string;
  to: string;
  showcaseId?: number;
  itemId?: number;
  /** A conversion outside any showcase (its API job id): its own embed pages and widget (docs/analytics.md, "v1 embeds"). */
  jobId?: string;
}

/** The kinds of jobs whose embed pages count on their own, as their job (outside any showcase: v1 and animated AR). */
export const STANDALONE_EMBED_KINDS: readonly string[] = ['v1.convert', 'v2.animated-ar'];

/**
 * Whether a job outside any showcase counts on its own (its embed pages' beacons, its banner taps): one of
 * {@link STANDALONE_EMBED_KINDS} with an owner to count for. The embed page, the tap route and the beacon's site
 * lookup all ask this, so a page never sends beacons the lookup would drop.
 */
export function isStandaloneEmbed(job: { kind: string; ownerId: string | null | undefined }): boolean {
  return !!job.ownerId && STANDALONE_EMBED_KINDS.includes(job.kind);
}

/** Whose embed page an emb_ id is: a showcase's item, or a conversion of its own (v1). */
export type EmbedSite =
  { showcaseId: number; itemId: number; ownerId: string; enabled: boolean } | { jobId: string; ownerId: string; enabled: boolean };

/** Event counts by kind. */
export type EventCounts = Record<string, number>;

export interface AnalyticsGroup {
  key: string;
  counts: EventCounts;
  /** Unique visitors (day and item groups; null where a visitor has no single value, e.g. per platform). */
  visitors: number | null;
  /** item groups: the item's showcase and title. */
  showcaseId?: number;
  title?: string | null;
}

export interface AnalyticsTotals {
  counts: EventCounts;
  visitors: number;
  groups: AnalyticsGroup[] | null;
}

/**
 * Rows per INSERT: small statements let the API answer beacons between them on the embedded database (PGlite runs
 * in the API's own thread; its adapter yields to the event loop before each statement: pglite-pg.adapter.ts).
 */
const CHUNK = 100;
const GROUP_COLUMN: Record<AnalyticsGroupBy, string> = {
  day: `to_char("day", 'YYYY-MM-DD')`,
  item: `"item_id"::text`,
  job: `"job_id"`,
  platform: `"platform"`,
  referrer: `"referrer_host"`,
};

/**
 * The daily engagement counts (docs/analytics.md): batches of events added in one transaction with the
 * cursor of the log they came from, so a batch read again after a crash is refused rather than counted twice;
 * and the reads of the analytics API. No visitor hash, IP or user agent is stored here: unique visitors arrive
 * as counts (the buffer remembers the day's visitors).
 */
export class AnalyticsRepository {
  constructor(private readonly ds: DataSource) {}

  /** How far the log `log` has been counted (null: nothing yet). */
  async cursor(log: string): Promise<string | null> {
    const rows = await this.ds.query(`SELECT "last_id" FROM "analytics_cursors" WHERE "log" = $1`, [log]);
    return rows[0]?.last_id ?? null;
  }

  /**
   * Adds a batch: the rows' counts, the new unique visitors, and moves the log's cursor from `expected` to
   * `next` — all or nothing. False (nothing written) when the cursor is not
   * at `expected` any more: another flusher counted the batch.
   */
  async applyBatch(
    log: string,
    expected: string | null,
    next: string,
    rows: AnalyticsCountRow[],
    visitors: AnalyticsVisitorCount[],
  ): Promise<boolean> {
    return this.ds.transaction(async (m) => {
      const moved =
        expected === null
          ? await m.query(
              `INSERT INTO "analytics_cursors" ("log", "last_id") VALUES ($1, $2) ON CONFLICT ("log") DO NOTHING RETURNING "log"`,
              [log, next],
            )
          : await m.query(`UPDATE "analytics_cursors" SET "last_id" = $3 WHERE "log" = $1 AND "last_id" = $2 RETURNING "log"`, [
              log,
              expected,
              next,
            ]);
      if (!returnedRows(moved).length) return false;
      for (let i = 0; i < rows.length; i += CHUNK) await this.addCounts(m, rows.slice(i, i + CHUNK));
      for (let i = 0; i < visitors.length; i += CHUNK) await this.addVisitors(m, visitors.slice(i, i + CHUNK));
      return true;
    });
  }

  private async addCounts(m: EntityManager, rows: AnalyticsCountRow[]): Promise<void> {
    if (!rows.length) return;
    const values: unknown[] = [];
    const tuples = rows.map((r) => {
      const at = values.length;
      values.push(
        r.day,
        r.ownerId,
        r.showcaseId,
        r.itemId,
        r.jobId ?? '',
        r.surface,
        r.variant,
        r.event,
        r.platform,
        r.referrerHost,
        r.count,
      );
      return `(${Array.from({ length: 11 }, (_, k) => `$${at + k + 1}`).join(', ')})`;
    });
    await m.query(
      `INSERT INTO "analytics_daily" ("day", "owner_id", "showcase_id", "item_id", "job_id", "surface", "variant", "event", "platform", "referrer_host", "count")
       VALUES ${tuples.join(', ')}
       ON CONFLICT ("day", "showcase_id", "item_id", "job_id", "surface", "variant", "event", "platform", "referrer_host")
       DO UPDATE SET "count" = "analytics_daily"."count" + EXCLUDED."count"`,
      values,
    );
  }

  private async addVisitors(m: EntityManager, counts: AnalyticsVisitorCount[]): Promise<void> {
    if (!counts.length) return;
    const values: unknown[] = [];
    const rows = counts.map((g) => {
      const at = values.length;
      values.push(g.day, g.ownerId, g.showcaseId, g.itemId, g.jobId ?? '', g.n);
      return `($${at + 1}::date, $${at + 2}, $${at + 3}::integer, $${at + 4}::integer, $${at + 5}, $${at + 6}::bigint)`;
    });
    await m.query(
      `INSERT INTO "analytics_visitors" ("day", "owner_id", "showcase_id", "item_id", "job_id", "visitors") VALUES ${rows.join(', ')}
       ON CONFLICT ("day", "showcase_id", "item_id", "job_id") DO UPDATE SET "visitors" = "analytics_visitors"."visitors" + EXCLUDED."visitors"`,
      values,
    );
  }

  /** Totals, unique visitors and (with `groupBy`) the groups, over the filter's days (both included). */
  async totals(f: AnalyticsFilter, groupBy?: AnalyticsGroupBy): Promise<AnalyticsTotals> {
    const where: string[] = [`"day" BETWEEN $1::date AND $2::date`];
    const params: unknown[] = [f.from, f.to];
    const add = (sql: string, v: unknown) => {
      params.push(v);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (f.ownerId !== null) add(`"owner_id" = ?`, f.ownerId);
    if (f.showcaseId !== undefined) add(`"showcase_id" = ?`, f.showcaseId);
    if (f.itemId !== undefined) add(`"item_id" = ?`, f.itemId);
    if (f.jobId !== undefined) add(`"job_id" = ?`, f.jobId);
    const cond = where.join(' AND ');
    const counts: EventCounts = {};
    for (const r of await this.ds.query(
      `SELECT "event", sum("count") AS "n" FROM "analytics_daily" WHERE ${cond} GROUP BY "event"`,
      params,
    ))
      counts[r.event] = Number(r.n);
    // Visitors: on the showcase as a whole (item 0), or on the item asked for; a conversion's own pages are item 0 of showcase 0.
    const visitorCond = f.itemId !== undefined ? cond : `${cond} AND "item_id" = 0`;
    const v = await this.ds.query(`SELECT coalesce(sum("visitors"), 0) AS "n" FROM "analytics_visitors" WHERE ${visitorCond}`, params);
    if (!groupBy) return { counts, visitors: Number(v[0].n), groups: null };

    const col = GROUP_COLUMN[groupBy];
    const byGroup = new Map<string, AnalyticsGroup>();
    const group = (key: string) => {
      let g = byGroup.get(key);
      if (!g) byGroup.set(key, (g = { key, counts: {}, visitors: groupBy === 'platform' || groupBy === 'referrer' ? null : 0 }));
      return g;
    };
    // Items: a showcase's pictures (item 0 is a showcase's own pages); jobs: conversions outside any showcase.
    const only: Partial<Record<AnalyticsGroupBy, string>> = { item: `"item_id" > 0`, job: `"job_id" <> ''` };
    const groupCond = only[groupBy] ? `${cond} AND ${only[groupBy]}` : cond;
    for (const r of await this.ds.query(
      `SELECT ${col} AS "k", "event", sum("count") AS "n" FROM "analytics_daily" WHERE ${groupCond} GROUP BY 1, "event" ORDER BY 1`,
      params,
    ))
      group(String(r.k)).counts[r.event] = Number(r.n);
    if (groupBy === 'day' || groupBy === 'item' || groupBy === 'job') {
      const vc = groupBy === 'day' ? visitorCond : groupCond;
      for (const r of await this.ds.query(
        `SELECT ${col} AS "k", sum("visitors") AS "n" FROM "analytics_visitors" WHERE ${vc} GROUP BY 1`,
        params,
      ))
        group(String(r.k)).visitors = Number(r.n);
    }
    const groups = [...byGroup.values()];
    if (groupBy === 'item' && groups.length) {
      const ids = groups.map((g) => Number(g.key));
      const rows = await this.ds.query(
        `SELECT i."id", i."showcase_id", coalesce(j."input" ->> 'title', i."filename") AS "title"
         FROM "showcase_items" i JOIN "jobs" j ON j."id" = i."job_id" WHERE i."id" IN (${ids.map((_, k) => `$${k + 1}`).join(', ')})`,
        ids,
      );
      const byId = new Map(rows.map((r: Record<string, unknown>) => [Number(r.id), r]));
      for (const g of groups) {
        const r = byId.get(Number(g.key)) as Record<string, unknown> | undefined;
        g.showcaseId = r ? Number(r.showcase_id) : undefined;
        g.title = (r?.title as string | null | undefined) ?? null;
      }
    }
    return { counts, visitors: Number(v[0].n), groups };
  }

  /** Whether a showcase's pages count (its `analytics` switch), with its owner: the beacon's site lookup. */
  async siteOfShowcase(publicId: string): Promise<{ showcaseId: number; ownerId: string; enabled: boolean } | null> {
    const rows = await this.ds.query(`SELECT "id", "owner_id", "analytics" FROM "showcases" WHERE "public_id" = $1`, [publicId]);
    return rows[0] ? { showcaseId: Number(rows[0].id), ownerId: rows[0].owner_id, enabled: rows[0].analytics !== false } : null;
  }

  /**
   * Whose embed page an embed id (a job's public id) is, the beacon's site lookup for embeds: the showcase item it
   * shows, with its showcase's switch; or, for a conversion outside any showcase ({@link STANDALONE_EMBED_KINDS},
   * with an owner), the job itself (no switch of its own: the deployment's). Null for anything else.
   */
  async siteOfEmbed(embedId: string): Promise<EmbedSite | null> {
    const rows = await this.ds.query(
      `SELECT j."id" AS "job_id", j."kind", j."owner_id" AS "job_owner", i."id" AS "item_id", s."id" AS "showcase_id", s."owner_id", s."analytics"
       FROM "jobs" j LEFT JOIN "showcase_items" i ON i."job_id" = j."id" LEFT JOIN "showcases" s ON s."id" = i."showcase_id"
       WHERE j."public_id" = $1`,
      [embedId],
    );
    const r = rows[0];
    if (!r) return null;
    if (r.showcase_id !== null)
      return { showcaseId: Number(r.showcase_id), itemId: Number(r.item_id), ownerId: r.owner_id, enabled: r.analytics !== false };
    return isStandaloneEmbed({ kind: r.kind, ownerId: r.job_owner }) ? { jobId: r.job_id, ownerId: r.job_owner, enabled: true } : null;
  }

  /** The items of a showcase and their variants' SKUs: what a beacon may name. */
  async itemsOf(showcaseId: number): Promise<Map<number, Set<string>>> {
    const rows = await this.ds.query(`SELECT "id", "variants" FROM "showcase_items" WHERE "showcase_id" = $1`, [showcaseId]);
    return new Map(
      rows.map((r: { id: number; variants: unknown }) => {
        const v = typeof r.variants === 'string' ? JSON.parse(r.variants) : r.variants;
        return [Number(r.id), new Set<string>(Array.isArray(v) ? v.map((x: { sku: string }) => x.sku) : [])] as const;
      }),
    );
  }

  /** Turns a showcase's analytics on or off. */
  async setShowcaseAnalytics(showcaseId: number, enabled: boolean): Promise<void> {
    await this.ds.query(`UPDATE "showcases" SET "analytics" = $2 WHERE "id" = $1`, [showcaseId, enabled]);
  }
}
