import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ShopConnectionRepository, type ShopConnectionRow } from '@app/persistence';
import { parseShopifyProductWebhook, readWooCommerceWebhook, SecretBoxError, verifyShopifyWebhook } from '@app/shops';
import { ApiError } from '../http/api-error';
import { ConnectionVault, type ShopifySecrets, type WooCommerceSecrets } from '../connections/connection-secrets';
import { ConnectionSync } from '../connections/sync/connection-sync.service';
import { WebhookDeliveryRepository } from './webhook-deliveries.repository';

/** Request headers as Node gives them (lower-case names). */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** What a webhook route answers (200): applied (with the import syncing the product), or why it was not. */
export type WebhookOutcome =
  | { received: true; import_id: string }
  | { received: true; ignored: 'ping' | 'duplicate' | 'paused' | 'unauthorized' | 'topic' | 'payload' };

const SHOPIFY_TOPICS = new Set(['products/create', 'products/update', 'products/delete']);
const PRUNE_EVERY_MS = 6 * 60 * 60 * 1000;

const header = (h: WebhookHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** 401 for every signature that does not verify, whatever the reason: nothing is told to a forger. */
const badSignature = () => new ApiError(401, 'authentication_error', 'invalid_signature', 'the webhook signature does not verify');

/**
 * The shops' product webhooks (issue 41): `POST /webhooks/shopify/{connection id}` (products/create, update, delete;
 * `X-Shopify-Hmac-Sha256`) and `POST /webhooks/woocommerce/{connection id}` (product.created, updated, deleted,
 * restored; `X-WC-Webhook-Signature`; the unsigned ping answered). The signature is checked over the raw body with
 * the connection's webhook secret, in constant time, before anything else is read; a bad one is 401 and changes
 * nothing. A valid delivery claims its delivery id (applied once: a replay is acknowledged, not applied) and starts
 * a sync of that one product (ConnectionSync), answering at once: the shops want an answer within seconds.
 */
@Injectable()
export class ShopWebhooksService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('shop-webhooks');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly connections: ShopConnectionRepository,
    private readonly vault: ConnectionVault,
    private readonly sync: ConnectionSync,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.deliveries.prune().catch(() => undefined), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async shopify(id: string, raw: Buffer | undefined, headers: WebhookHeaders): Promise<WebhookOutcome> {
    const c = await this.connection(id, 'shopify');
    const secrets = this.secrets<ShopifySecrets>(c);
    if (!raw || !verifyShopifyWebhook(raw, header(headers, 'x-shopify-hmac-sha256'), secrets.webhook_secret)) throw badSignature();
    const topic = header(headers, 'x-shopify-topic') ?? '';
    if (!SHOPIFY_TOPICS.has(topic)) return { received: true, ignored: 'topic' };
    let payload: unknown;
    try {
      payload = JSON.parse(raw.toString('utf8'));
    } catch {
      return { received: true, ignored: 'payload' };
    }
    const product = parseShopifyProductWebhook(payload, { topic });
    if (!product) return { received: true, ignored: 'payload' };
    const delivery = header(headers, 'x-shopify-webhook-id') ?? header(headers, 'x-shopify-event-id') ?? null;
    return this.apply(c, product.id, delivery, topic);
  }

  async woocommerce(id: string, raw: Buffer | undefined, headers: WebhookHeaders): Promise<WebhookOutcome> {
    const c = await this.connection(id, 'woocommerce');
    const secrets = this.secrets<WooCommerceSecrets>(c);
    const event = readWooCommerceWebhook({ rawBody: raw ?? Buffer.alloc(0), headers, secret: secrets.webhook_secret, currency: null });
    if (event.kind === 'ping') return { received: true, ignored: 'ping' };
    if (event.kind === 'rejected') {
      if (event.reason === 'bad_signature') throw badSignature();
      return { received: true, ignored: event.reason === 'unsupported_topic' ? 'topic' : 'payload' };
    }
    return this.apply(c, event.productId, event.deliveryId, event.topic);
  }

  /** A verified delivery: applied once, to an active connection, as a sync of its product. */
  private async apply(c: ShopConnectionRow, productId: string, delivery: string | null, topic: string): Promise<WebhookOutcome> {
    if (c.status !== 'active') return { received: true, ignored: c.status === 'paused' ? 'paused' : 'unauthorized' };
    if (delivery && !(await this.deliveries.claim(c.id, delivery))) {
      this.log.log(`connection ${c.publicId}: ${topic} delivery ${delivery.slice(0, 100)} already applied`);
      return { received: true, ignored: 'duplicate' };
    }
    try {
      const importId = await this.sync.start(c, { kind: 'product', productId });
      this.log.log(`connection ${c.publicId}: ${topic} for product ${productId}: import ${importId}`);
      return { received: true, import_id: importId };
    } catch (e) {
      // Not applied: the shop's retry of this delivery may be.
      if (delivery) await this.deliveries.release(c.id, delivery).catch(() => undefined);
      throw e;
    }
  }

  /** The connection a webhook URL names, of that platform; 404 for any other id. */
  private async connection(id: string, platform: ShopConnectionRow['platform']): Promise<ShopConnectionRow> {
    const c = await this.connections.byPublicId(id);
    if (!c || c.platform !== platform) throw ApiError.notFound(`connection ${id.slice(0, 40)}`);
    return c;
  }

  /** Credentials sealed with another key cannot verify anything: every delivery is refused until they are sent again. */
  private secrets<T>(c: ShopConnectionRow): T {
    try {
      return this.vault.open<ShopifySecrets | WooCommerceSecrets>(c) as T;
    } catch (e) {
      if (e instanceof SecretBoxError) {
        this.log.warn(`connection ${c.publicId}: a webhook arrived but the credentials cannot be read with this CONNECTIONS_SECRET_KEY`);
        throw badSignature();
      }
      throw e;
    }
  }
}
