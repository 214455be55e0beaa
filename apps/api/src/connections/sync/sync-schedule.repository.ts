import type { DataSource } from 'typeorm';
import type { ShopConnectionLastSync } from '@app/persistence';

/** Rows of a statement's RETURNING, whatever the driver (TypeORM's Postgres driver, the PGlite adapter). */
const rowsOf = (res: unknown): Record<string, unknown>[] =>
  (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : Array.isArray(res) ? res : []) as Record<string, unknown>[];

/** A connection whose scheduled sync is due: its id and the `last_sync.at` it was read with (the claim compares it). */
export interface DueConnection {
  publicId: string;
  lastSyncAt: string | null;
}

/**
 * The scheduled syncs' reads and claims on `shop_connections` (issue 41, "Scheduled sync"). A connection is due
 * when it is active, has an interval (`sync_interval_hours` > 0), and its last sync started that long ago (never
 * synced: counted from its creation, so the first sync is the merchant's "Sync now"). A claim is a compare-and-set
 * of `last_sync` on the value read: of all the processes that see a connection due, one claims it.
 */
export class SyncScheduleRepository {
  constructor(private readonly ds: DataSource) {}

  /** The due connections, the longest-waiting first, at most `limit`. */
  async due(limit: number): Promise<DueConnection[]> {
    const rows: Record<string, unknown>[] = await this.ds.query(
      `SELECT "public_id", "last_sync" ->> 'at' AS "last_at" FROM "shop_connections"
       WHERE "status" = 'active' AND "sync_interval_hours" > 0
         AND COALESCE(("last_sync" ->> 'at')::timestamptz, "created_at") <= now() - make_interval(hours => "sync_interval_hours")
       ORDER BY COALESCE(("last_sync" ->> 'at')::timestamptz, "created_at"), "id" LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ publicId: String(r.public_id), lastSyncAt: (r.last_at as string | null) ?? null }));
  }

  /** Sets `last_sync` to `next` if it still starts at `previousAt` (null: never synced); false when another process did first. */
  async claim(publicId: string, previousAt: string | null, next: ShopConnectionLastSync): Promise<boolean> {
    const res = await this.ds.query(
      `UPDATE "shop_connections" SET "last_sync" = $3::jsonb, "updated_at" = now()
       WHERE "public_id" = $1 AND "status" = 'active' AND ("last_sync" ->> 'at') IS NOT DISTINCT FROM $2::text RETURNING "id"`,
      [publicId, previousAt, JSON.stringify(next)],
    );
    return rowsOf(res).length > 0;
  }
}
