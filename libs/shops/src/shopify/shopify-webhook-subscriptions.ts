import { ShopApiError } from '../shop-errors';
import type { ShopifyGraphql } from './shopify-graphql';
import { METAFIELD_NAMESPACE, WEBHOOK_SUBSCRIPTION_CREATE_MUTATION } from './shopify-queries';

export const PRODUCT_WEBHOOK_TOPICS = ['PRODUCTS_CREATE', 'PRODUCTS_UPDATE', 'PRODUCTS_DELETE'] as const;
export type ProductWebhookTopic = (typeof PRODUCT_WEBHOOK_TOPICS)[number];

export interface WebhookSubscriptionResult {
  topic: ProductWebhookTopic;
  /** The subscription's GID; null when Shopify already had one for this topic and address. */
  id: string | null;
  existed: boolean;
}

interface Payload {
  webhookSubscriptionCreate: {
    webhookSubscription: { id: string } | null;
    userErrors: { field: string[] | null; message: string }[];
  } | null;
}

/**
 * Subscribes `callbackUrl` to products/create, products/update and products/delete (JSON, with the `image_ar`
 * metafields in the payload). A subscription that exists already ("Address for this topic has already been
 * taken") counts as done, so connecting twice is harmless. Shopify signs these deliveries with the app's secret.
 */
export async function subscribeShopifyProductWebhooks(gql: ShopifyGraphql, callbackUrl: string): Promise<WebhookSubscriptionResult[]> {
  if (!/^https:\/\//.test(callbackUrl)) throw new ShopApiError('shopify', 'webhook address must be https');
  const results: WebhookSubscriptionResult[] = [];
  for (const topic of PRODUCT_WEBHOOK_TOPICS) {
    const data = await gql.request<Payload>('WebhookSubscriptionCreate', WEBHOOK_SUBSCRIPTION_CREATE_MUTATION, {
      topic,
      webhookSubscription: { uri: callbackUrl, format: 'JSON', metafieldNamespaces: [METAFIELD_NAMESPACE] },
    });
    const errors = data.webhookSubscriptionCreate?.userErrors ?? [];
    if (errors.length > 0) {
      if (errors.every((e) => /already been taken/i.test(e.message))) {
        results.push({ topic, id: null, existed: true });
        continue;
      }
      throw new ShopApiError('shopify', `webhookSubscriptionCreate ${topic}: ${errors.map((e) => e.message).join('; ')}`);
    }
    results.push({ topic, id: data.webhookSubscriptionCreate?.webhookSubscription?.id ?? null, existed: false });
  }
  return results;
}
