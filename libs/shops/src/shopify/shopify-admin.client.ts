import type { ShopProduct } from '../shop-product';
import { attachShopifyModel, detachShopifyModel, removeShopifyMedia } from './shopify-attach-model';
import { ShopifyGraphql, type ShopifyGraphqlOptions } from './shopify-graphql';
import { getShopifyProduct, listShopifyProducts } from './shopify-list-products';
import { SHOP_QUERY } from './shopify-queries';
import { type MetafieldsSetResult, type ModelMetafieldWrite, setShopifyModelMetafields } from './shopify-set-metafields';
import { subscribeShopifyProductWebhooks, type WebhookSubscriptionResult } from './shopify-webhook-subscriptions';

export type ShopifyAdminClientOptions = ShopifyGraphqlOptions;

export interface ShopifyShopInfo {
  name: string;
  currencyCode: string;
  myshopifyDomain: string;
}

/**
 * A shop's Admin GraphQL API (2025-10+) as the connections module needs it: test the connection, read the active
 * catalogue as ShopProducts, read one product for a webhook, write `image_ar.model` back, subscribe the product
 * webhooks, attach a GLB to a product's media. Throttling and retries live in ShopifyGraphql; each verb in its
 * own file. Errors: ShopUnauthorizedError (revoked token or missing scope), ShopUnavailableError (still down or
 * throttled after the retries), ShopApiError (anything else), all prefixed "shopify:".
 */
export class ShopifyAdminClient {
  readonly gql: ShopifyGraphql;
  private readonly upload: typeof fetch;
  private shop: ShopifyShopInfo | null = null;

  constructor(opts: ShopifyAdminClientOptions) {
    this.gql = new ShopifyGraphql(opts);
    this.upload = opts.fetch ?? fetch;
  }

  /** The shop's name, currency and domain (read once: prices carry the currency). */
  async shopInfo(): Promise<ShopifyShopInfo> {
    if (!this.shop) this.shop = (await this.gql.request<{ shop: ShopifyShopInfo }>('ShopInfo', SHOP_QUERY)).shop;
    return this.shop;
  }

  /** For "Test connection": reaches the shop with the token and names it. */
  async shopName(): Promise<string> {
    return (await this.shopInfo()).name;
  }

  /** Every active product, paginated; the shop's currency is fetched first. */
  async *products(): AsyncGenerator<ShopProduct> {
    const { currencyCode } = await this.shopInfo();
    yield* listShopifyProducts(this.gql, currencyCode);
  }

  /** One product by number or GID, any status; null when it no longer exists. */
  async product(id: string): Promise<ShopProduct | null> {
    const { currencyCode } = await this.shopInfo();
    return getShopifyProduct(this.gql, id, currencyCode);
  }

  setModelMetafields(writes: ModelMetafieldWrite[]): Promise<MetafieldsSetResult> {
    return setShopifyModelMetafields(this.gql, writes);
  }

  subscribeProductWebhooks(callbackUrl: string): Promise<WebhookSubscriptionResult[]> {
    return subscribeShopifyProductWebhooks(this.gql, callbackUrl);
  }

  attachModel(productId: string, glb: Uint8Array, filename: string): Promise<{ mediaId: string }> {
    return attachShopifyModel(this.gql, this.upload, productId, glb, filename);
  }

  removeMedia(mediaIds: string[]): Promise<void> {
    return removeShopifyMedia(this.gql, mediaIds);
  }

  /** A product's item went: its attached model (`mediaId`) and the `image_ar.media` metafield naming it are removed. */
  detachModel(productId: string, mediaId: string): Promise<void> {
    return detachShopifyModel(this.gql, productId, mediaId);
  }
}
