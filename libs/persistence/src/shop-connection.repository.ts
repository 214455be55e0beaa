import type { DataSource } from 'typeorm';
import { isUniqueViolation } from './database-errors';
import { randomId } from './ids';
import { parseJson, queryReturning } from './returning';

export type ShopConnectionPlatform = 'shopify' | 'woocommerce';
export type ShopConnectionPush = 'metafields' | 'metafields+media' | 'none';
export type ShopConnectionStatus = 'active' | 'paused' | 'unauthorized';

/** The shop's credentials as stored: AES-256-GCM sealed (SecretBox in @app/shops), never in clear. */
export interface SealedShopSecrets {
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

/** What the last sync did, written by the sync (issue 41): when, its import, and how it ended. */
export interface ShopConnectionLastSync {
  at: string;
  import_id: string | null;
  outcome: string;
}

export interface ShopConnectionRow {
  id: number;
  /** `con_…`: the id the API, the webhook URLs and the reports use. */
  publicId: string;
  ownerId: string;
  showcaseId: number;
  platform: ShopConnectionPlatform;
  /** Shopify: `<name>.myshopify.com`; WooCommerce: the store's https URL. */
  shop: string;
  push: ShopConnectionPush;
  units: 'cm' | 'in';
  /** Option value → frame preset (null: no frame). */
  frames: Record<string, string | null>;
  syncIntervalHours: number;
  status: ShopConnectionStatus;
  secrets: SealedShopSecrets;
  lastSync: ShopConnectionLastSync | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewShopConnection {
  /** Made by {@link newShopConnectionId} first: the secrets are sealed for this id. */
  publicId: string;
  ownerId: string;
  showcaseId: number;
  platform: ShopConnectionPlatform;
  shop: string;
  push: ShopConnectionPush;
  units: 'cm' | 'in';
  frames: Record<string, string | null>;
  syncIntervalHours: number;
  secrets: SealedShopSecrets;
}

/** The fields PATCH may change; undefined stays. */
export type ShopConnectionChanges = Partial<
  Pick<ShopConnectionRow, 'push' | 'units' | 'frames' | 'syncIntervalHours' | 'status' | 'secrets' | 'lastSync'>
>;

/** The same shop is already connected to that showcase. */
export class ShopAlreadyConnectedError extends Error {
  constructor() {
    super('this shop is already connected to that showcase');
    this.name = 'ShopAlreadyConnectedError';
  }
}

const CONNECTION_ID = /^con_[a-z2-7]{24}$/;
const SHOP_INDEX = 'shop_connections_shop_showcase';

/** A new connection's public id (`con_` + 120 random bits). */
export function newShopConnectionId(): string {
  return randomId('con');
}

function toRow(r: Record<string, any>): ShopConnectionRow {
  return {
    id: Number(r.id),
    publicId: r.public_id,
    ownerId: r.owner_id,
    showcaseId: Number(r.showcase_id),
    platform: r.platform,
    shop: r.shop,
    push: r.push,
    units: r.units,
    frames: r.frames ? parseJson<Record<string, string | null>>(r.frames) : {},
    syncIntervalHours: Number(r.sync_interval_hours),
    status: r.status,
    secrets: { keyId: r.secrets_key_id, iv: r.secrets_iv, tag: r.secrets_tag, ciphertext: r.secrets_ciphertext },
    lastSync: r.last_sync ? parseJson<ShopConnectionLastSync>(r.last_sync) : null,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

/**
 * Shop connections (issue 41): a Shopify or WooCommerce shop tied to one of its owner's showcases, its settings
 * and its sealed credentials. Every read is by owner (an id of another account is no connection), except
 * {@link byPublicId} for the webhooks and the scheduler, which have no key.
 */
export class ShopConnectionRepository {
  constructor(private readonly ds: DataSource) {}

  /** Inserts a connection; {@link ShopAlreadyConnectedError} when the showcase already has this shop. */
  async create(c: NewShopConnection): Promise<ShopConnectionRow> {
    try {
      const rows = await this.ds.query(
        `INSERT INTO "shop_connections" ("public_id", "owner_id", "showcase_id", "platform", "shop", "push", "units", "frames", "sync_interval_hours",
           "secrets_key_id", "secrets_iv", "secrets_tag", "secrets_ciphertext")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
        [
          c.publicId,
          c.ownerId,
          c.showcaseId,
          c.platform,
          c.shop,
          c.push,
          c.units,
          JSON.stringify(c.frames),
          c.syncIntervalHours,
          c.secrets.keyId,
          c.secrets.iv,
          c.secrets.tag,
          c.secrets.ciphertext,
        ],
      );
      return toRow(rows[0]);
    } catch (e) {
      if (isUniqueViolation(e, SHOP_INDEX)) throw new ShopAlreadyConnectedError();
      throw e;
    }
  }

  /** The owner's connections, oldest first. */
  async list(ownerId: string): Promise<ShopConnectionRow[]> {
    const rows = await this.ds.query(`SELECT * FROM "shop_connections" WHERE "owner_id" = $1 ORDER BY "id"`, [ownerId]);
    return rows.map(toRow);
  }

  /** One of the owner's connections by its `con_…` id (a path parameter: anything else is no connection). */
  async find(ownerId: string, publicId: string): Promise<ShopConnectionRow | null> {
    if (!CONNECTION_ID.test(publicId)) return null;
    const rows = await this.ds.query(`SELECT * FROM "shop_connections" WHERE "owner_id" = $1 AND "public_id" = $2`, [ownerId, publicId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** A connection by id whoever owns it: for the shop's webhooks and the scheduled sync, which carry no key. */
  async byPublicId(publicId: string): Promise<ShopConnectionRow | null> {
    if (!CONNECTION_ID.test(publicId)) return null;
    const rows = await this.ds.query(`SELECT * FROM "shop_connections" WHERE "public_id" = $1`, [publicId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** Changes the given fields; null when the connection is gone. */
  async update(id: number, changes: ShopConnectionChanges): Promise<ShopConnectionRow | null> {
    const sets: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`"${column}" = $${values.length}`);
    };
    if (changes.push !== undefined) set('push', changes.push);
    if (changes.units !== undefined) set('units', changes.units);
    if (changes.frames !== undefined) set('frames', JSON.stringify(changes.frames));
    if (changes.syncIntervalHours !== undefined) set('sync_interval_hours', changes.syncIntervalHours);
    if (changes.status !== undefined) set('status', changes.status);
    if (changes.lastSync !== undefined) set('last_sync', changes.lastSync === null ? null : JSON.stringify(changes.lastSync));
    if (changes.secrets !== undefined) {
      set('secrets_key_id', changes.secrets.keyId);
      set('secrets_iv', changes.secrets.iv);
      set('secrets_tag', changes.secrets.tag);
      set('secrets_ciphertext', changes.secrets.ciphertext);
    }
    values.push(id);
    const rows = await queryReturning(
      this.ds,
      `UPDATE "shop_connections" SET ${[...sets, '"updated_at" = now()'].join(', ')} WHERE "id" = $${values.length} RETURNING *`,
      values,
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * Marks a connection `unauthorized` (the shop refused its credentials) unless it was paused meanwhile: a
   * merchant's pause stays until they resume it.
   */
  async markUnauthorized(id: number): Promise<void> {
    await this.ds.query(
      `UPDATE "shop_connections" SET "status" = 'unauthorized', "updated_at" = now() WHERE "id" = $1 AND "status" = 'active'`,
      [id],
    );
  }

  /** Deletes one of the owner's connections; false when there was none. */
  async remove(ownerId: string, publicId: string): Promise<boolean> {
    if (!CONNECTION_ID.test(publicId)) return false;
    const rows = await queryReturning(this.ds, `DELETE FROM "shop_connections" WHERE "owner_id" = $1 AND "public_id" = $2 RETURNING "id"`, [
      ownerId,
      publicId,
    ]);
    return rows.length > 0;
  }
}
