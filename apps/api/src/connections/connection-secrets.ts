import type { ShopConnectionRow, SealedShopSecrets } from '@app/persistence';
import { type SecretBox, type ShopifyAdminClient, type WooCommerceClient } from '@app/shops';
import type { ShopClients } from './shop-clients';

/** A Shopify connection's credentials: the custom app's Admin API token and the secret its webhooks are signed with. */
export interface ShopifySecrets {
  access_token: string;
  webhook_secret: string;
}

/** A WooCommerce connection's credentials: the REST API key pair and the secret set on its webhooks. */
export interface WooCommerceSecrets {
  consumer_key: string;
  consumer_secret: string;
  webhook_secret: string;
}

export type ConnectionSecrets = ShopifySecrets | WooCommerceSecrets;

/** A client for one connection, told apart by platform. */
export type ConnectionClient = { platform: 'shopify'; client: ShopifyAdminClient } | { platform: 'woocommerce'; client: WooCommerceClient };

/**
 * Seals a connection's credentials for its row and opens them again, and makes the client a connection needs:
 * what the API, the sync and the webhooks share. Sealed with the connection's id as context, so a row's secrets
 * copied onto another row do not open. What is opened lives only in memory for the call.
 */
export class ConnectionVault {
  constructor(
    private readonly box: SecretBox,
    private readonly clients: ShopClients,
  ) {}

  seal(publicId: string, secrets: ConnectionSecrets): SealedShopSecrets {
    return this.box.seal(JSON.stringify(secrets), publicId);
  }

  open<T extends ConnectionSecrets = ConnectionSecrets>(row: Pick<ShopConnectionRow, 'publicId' | 'secrets'>): T {
    return JSON.parse(this.box.open(row.secrets, row.publicId)) as T;
  }

  /** The connection's client, with its credentials opened. `maxAttempts`: fewer for a quick test. */
  client(row: ShopConnectionRow, opts: { maxAttempts?: number; timeoutMs?: number } = {}): ConnectionClient {
    if (row.platform === 'shopify') {
      const s = this.open<ShopifySecrets>(row);
      return { platform: 'shopify', client: this.clients.shopify({ shopDomain: row.shop, accessToken: s.access_token, ...opts }) };
    }
    const s = this.open<WooCommerceSecrets>(row);
    return {
      platform: 'woocommerce',
      client: this.clients.woocommerce({ shopUrl: row.shop, consumerKey: s.consumer_key, consumerSecret: s.consumer_secret, ...opts }),
    };
  }
}
