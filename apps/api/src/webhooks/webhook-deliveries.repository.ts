import type { DataSource } from 'typeorm';

/** Rows of a statement's RETURNING, whatever the driver (TypeORM's Postgres driver, the PGlite adapter). */
const rowsOf = (res: unknown): unknown[] => (Array.isArray(res) && Array.isArray(res[0]) ? res[0] : Array.isArray(res) ? res : []);

/** How long a delivery id is remembered: the shops stop retrying a delivery well within a week. */
export const DELIVERY_MEMORY_DAYS = 7;

/**
 * The webhook deliveries a shop connection has applied (`shop_webhook_deliveries`), so a delivery sent again
 * (a shop's retry, a replay) is applied once. Claimed before it is applied, across processes (the primary key
 * decides), and released when it could not be applied, so the shop's retry can.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly ds: DataSource) {}

  /** True when this is the first time the connection sees the delivery (it is now claimed). */
  async claim(connectionId: number, deliveryId: string): Promise<boolean> {
    const res = await this.ds.query(
      `INSERT INTO "shop_webhook_deliveries" ("connection_id", "delivery_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "delivery_id"`,
      [connectionId, deliveryId.slice(0, 100)],
    );
    return rowsOf(res).length > 0;
  }

  /** Forgets a claimed delivery that could not be applied. */
  async release(connectionId: number, deliveryId: string): Promise<void> {
    await this.ds.query(`DELETE FROM "shop_webhook_deliveries" WHERE "connection_id" = $1 AND "delivery_id" = $2`, [
      connectionId,
      deliveryId.slice(0, 100),
    ]);
  }

  /** Forgets the deliveries older than {@link DELIVERY_MEMORY_DAYS}. */
  async prune(): Promise<void> {
    await this.ds.query(`DELETE FROM "shop_webhook_deliveries" WHERE "received_at" < now() - make_interval(days => $1::int)`, [
      DELIVERY_MEMORY_DAYS,
    ]);
  }
}
