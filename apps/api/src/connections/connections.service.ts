import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import {
  newShopConnectionId,
  ShopAlreadyConnectedError,
  type ShopConnectionChanges,
  ShopConnectionRepository,
  type ShopConnectionRow,
  ShowcaseRepository,
} from '@app/persistence';
import { isBlockedHostname } from '@app/plugins';
import { APP_CONFIG } from '@app/runtime';
import { parseInput } from '@app/schema';
import { SecretBoxError, ShopApiError, ShopUnauthorizedError, ShopUnavailableError } from '@app/shops';
import { PublicUrls } from '@app/wire';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { ownedShowcase } from '../showcases/showcases.service';
import { type ConnectionSecrets, ConnectionVault, type ShopifySecrets, type WooCommerceSecrets } from './connection-secrets';
import {
  CreateConnectionBody,
  DEFAULT_SYNC_INTERVAL_HOURS,
  UpdateConnectionBody,
  type UpdateConnectionRequest,
} from './connections.schema';

/** What POST …/{id}/test answers: the shop's name, or why it could not be reached. */
export type ConnectionTestResult =
  { ok: true; shop_name: string } | { ok: false; reason: 'unauthorized' | 'unreachable' | 'error'; message: string };

/** The connection test asks once more after a failure, not five times: a person is waiting for the answer. */
const TEST_ATTEMPTS = 2;
const TEST_TIMEOUT_MS = 15_000;

/**
 * Shop connections (/api/v2/connections, issue 41): a Shopify or WooCommerce shop tied to one of the caller's
 * showcases, with its credentials sealed at rest (ConnectionVault) and never answered, logged or put in an error.
 * This is the connections API and the connection test; pulling the catalogue, writing back and the webhooks are
 * built on {@link ConnectionVault} and the repository.
 */
@Injectable()
export class ConnectionsService {
  private readonly log = new Logger('connections');

  constructor(
    private readonly connections: ShopConnectionRepository,
    private readonly showcases: ShowcaseRepository,
    private readonly vault: ConnectionVault,
    private readonly urls: PublicUrls,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A connection as the API shows it: settings, status and the webhook URL to paste into the shop; never its secrets. */
  view(c: ShopConnectionRow) {
    return {
      id: c.publicId,
      object: 'shop_connection' as const,
      platform: c.platform,
      shop: c.shop,
      showcase_id: c.showcaseId,
      push: c.push,
      units: c.units,
      frames: c.frames,
      sync_interval_hours: c.syncIntervalHours,
      status: c.status,
      webhook_urls: { products: this.webhookUrl(c) },
      last_sync: c.lastSync,
      created_at: c.createdAt.toISOString(),
      updated_at: c.updatedAt.toISOString(),
    };
  }

  /** Where the shop posts its product webhooks for this connection. */
  webhookUrl(c: Pick<ShopConnectionRow, 'platform' | 'publicId'>): string {
    return `${this.urls.base}/webhooks/${c.platform}/${c.publicId}`;
  }

  /** POST: 201 with the connection; 404 for a showcase that is not the caller's, 409 for a shop already connected to it. */
  async create(p: Principal, body: unknown) {
    const req = parseInput(CreateConnectionBody, body);
    const showcase = await ownedShowcase(this.showcases, p, String(req.showcase_id));
    const publicId = newShopConnectionId();
    let shop: string;
    let secrets: ConnectionSecrets;
    if (req.platform === 'shopify') {
      shop = req.shop_domain;
      secrets = { access_token: req.access_token, webhook_secret: req.webhook_secret };
    } else {
      shop = req.shop_url;
      this.checkShopHost(shop);
      secrets = { consumer_key: req.consumer_key, consumer_secret: req.consumer_secret, webhook_secret: req.webhook_secret };
    }
    try {
      const c = await this.connections.create({
        publicId,
        ownerId: p.userId,
        showcaseId: showcase.id,
        platform: req.platform,
        shop,
        push: req.push ?? 'metafields',
        units: req.units ?? 'cm',
        frames: req.frames ?? {},
        syncIntervalHours: req.sync_interval_hours ?? DEFAULT_SYNC_INTERVAL_HOURS,
        secrets: this.vault.seal(publicId, secrets),
      });
      this.log.log(`connection ${c.publicId}: ${c.platform} ${c.shop} connected to showcase ${c.showcaseId}`);
      return this.view(c);
    } catch (e) {
      if (e instanceof ShopAlreadyConnectedError)
        throw new ApiError(
          409,
          'conflict',
          'shop_already_connected',
          `${shop} is already connected to showcase ${showcase.id}`,
          'showcase_id',
        );
      throw e;
    }
  }

  async list(p: Principal) {
    return { data: (await this.connections.list(p.userId)).map((c) => this.view(c)) };
  }

  async get(p: Principal, id: string) {
    return this.view(await this.owned(p, id));
  }

  /**
   * PATCH: settings, `status` (paused | active), or new credentials of the connection's platform. New credentials
   * make an `unauthorized` connection active again (unless it is paused in the same request).
   */
  async update(p: Principal, id: string, body: unknown) {
    const c = await this.owned(p, id);
    const req = parseInput(UpdateConnectionBody, body);
    const changes: ShopConnectionChanges = {};
    if (req.push !== undefined) {
      if (req.push === 'metafields+media' && c.platform !== 'shopify')
        throw ApiError.invalid('push', 'push: metafields+media is for Shopify only; a WooCommerce connection takes metafields or none');
      changes.push = req.push;
    }
    if (req.units !== undefined) changes.units = req.units;
    if (req.frames !== undefined) changes.frames = req.frames;
    if (req.sync_interval_hours !== undefined) changes.syncIntervalHours = req.sync_interval_hours;
    const secrets = this.newSecrets(c, req);
    if (secrets) changes.secrets = this.vault.seal(c.publicId, secrets);
    if (req.status !== undefined) changes.status = req.status;
    else if (secrets && c.status === 'unauthorized') changes.status = 'active';
    if (!Object.keys(changes).length) return this.view(c);
    const updated = await this.connections.update(c.id, changes);
    if (!updated) throw ApiError.notFound(`connection ${id.slice(0, 40)}`);
    if (secrets) this.log.log(`connection ${c.publicId}: credentials replaced`);
    return this.view(updated);
  }

  /** DELETE: the connection and its sealed credentials; the showcase's items stay. */
  async remove(p: Principal, id: string): Promise<void> {
    if (!(await this.connections.remove(p.userId, id))) throw ApiError.notFound(`connection ${id.slice(0, 40)}`);
    this.log.log(`connection ${id}: disconnected`);
  }

  /**
   * POST …/test: reaches the shop with the stored credentials and names it. A refusal (401/403) marks the connection
   * `unauthorized`; a success makes an `unauthorized` one active again. Always 200: the answer is the outcome.
   */
  async test(p: Principal, id: string): Promise<ConnectionTestResult> {
    const c = await this.owned(p, id);
    let result: ConnectionTestResult;
    try {
      const { platform, client } = this.clientFor(c);
      const name = platform === 'shopify' ? await client.shopName() : await client.storeName();
      result = { ok: true, shop_name: name };
      if (c.status === 'unauthorized') await this.connections.update(c.id, { status: 'active' });
    } catch (e) {
      if (e instanceof ApiError) throw e;
      if (e instanceof ShopUnauthorizedError) {
        await this.connections.markUnauthorized(c.id);
        result = { ok: false, reason: 'unauthorized', message: e.message };
      } else if (e instanceof ShopUnavailableError) {
        result = { ok: false, reason: 'unreachable', message: e.message };
      } else if (e instanceof ShopApiError) {
        result = { ok: false, reason: 'error', message: e.message };
      } else {
        // Not the shop's words: logged here, and the answer says only that it failed.
        this.log.warn(`connection ${c.publicId}: test failed: ${(e as Error).message}`);
        result = { ok: false, reason: 'error', message: `${c.platform}: the test failed unexpectedly` };
      }
    }
    this.log.log(`connection ${c.publicId}: test ${result.ok ? 'ok' : result.reason}`);
    return result;
  }

  private async owned(p: Principal, id: string): Promise<ShopConnectionRow> {
    const c = await this.connections.find(p.userId, id);
    if (!c) throw ApiError.notFound(`connection ${id.slice(0, 40)}`);
    return c;
  }

  private clientFor(c: ShopConnectionRow) {
    try {
      return this.vault.client(c, { maxAttempts: TEST_ATTEMPTS, timeoutMs: TEST_TIMEOUT_MS });
    } catch (e) {
      if (e instanceof SecretBoxError)
        throw new ApiError(
          409,
          'conflict',
          'credentials_unreadable',
          `the credentials of connection ${c.publicId} cannot be read with this service's CONNECTIONS_SECRET_KEY; send them again (PATCH)`,
        );
      throw e;
    }
  }

  /** The connection's credentials with the ones sent replaced, or null when none were sent. */
  private newSecrets(c: ShopConnectionRow, req: UpdateConnectionRequest): ConnectionSecrets | null {
    const other = c.platform === 'shopify' ? (['consumer_key', 'consumer_secret'] as const) : (['access_token'] as const);
    const wrong = other.find((k) => req[k] !== undefined);
    if (wrong)
      throw ApiError.invalid(
        wrong,
        `${wrong}: a ${c.platform === 'shopify' ? 'Shopify connection takes access_token' : 'WooCommerce connection takes consumer_key and consumer_secret'}`,
      );
    if (c.platform === 'woocommerce' && (req.consumer_key === undefined) !== (req.consumer_secret === undefined))
      throw ApiError.invalid(
        req.consumer_key === undefined ? 'consumer_key' : 'consumer_secret',
        'consumer_key and consumer_secret are replaced together (a new key pair)',
      );
    const sent = req.access_token ?? req.consumer_key ?? req.webhook_secret;
    if (sent === undefined) return null;
    let current: ConnectionSecrets | null = null;
    try {
      current = this.vault.open(c);
    } catch (e) {
      if (!(e instanceof SecretBoxError)) throw e;
    }
    if (c.platform === 'shopify') {
      const s = current as ShopifySecrets | null;
      const next = { access_token: req.access_token ?? s?.access_token, webhook_secret: req.webhook_secret ?? s?.webhook_secret };
      if (!next.access_token || !next.webhook_secret) throw this.unreadable(c, next.access_token ? 'webhook_secret' : 'access_token');
      return next as ShopifySecrets;
    }
    const s = current as WooCommerceSecrets | null;
    const next = {
      consumer_key: req.consumer_key ?? s?.consumer_key,
      consumer_secret: req.consumer_secret ?? s?.consumer_secret,
      webhook_secret: req.webhook_secret ?? s?.webhook_secret,
    };
    if (!next.consumer_key || !next.webhook_secret) throw this.unreadable(c, next.consumer_key ? 'webhook_secret' : 'consumer_key');
    return next as WooCommerceSecrets;
  }

  /** Credentials sealed with a key this service no longer has can only be replaced whole. */
  private unreadable(c: ShopConnectionRow, missing: string): ApiError {
    return ApiError.invalid(
      missing,
      `${missing}: the stored credentials of connection ${c.publicId} cannot be read with this service's CONNECTIONS_SECRET_KEY; send all of them`,
    );
  }

  /** A merchant-typed store address must not point the service at its own network (unless ALLOW_PRIVATE_NETWORKS). */
  private checkShopHost(shopUrl: string): void {
    const host = new URL(shopUrl).hostname.replace(/^\[|\]$/g, '');
    if (!this.config.allowPrivateNetworks && isBlockedHostname(host))
      throw ApiError.invalid('shop_url', `shop_url: ${host} is a private or reserved address`);
  }
}
