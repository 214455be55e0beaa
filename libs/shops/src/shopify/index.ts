export * from './shopify-admin.client';
export { ShopifyGraphql, SHOPIFY_API_VERSION, normaliseShopDomain, type ShopifyGraphqlOptions } from './shopify-graphql';
export { shopifyGid, shopifyNumericId } from './shopify-gid';
export { METAFIELDS_PER_CALL, type ModelMetafieldWrite, type MetafieldsSetResult } from './shopify-set-metafields';
export { PRODUCT_WEBHOOK_TOPICS, type ProductWebhookTopic, type WebhookSubscriptionResult } from './shopify-webhook-subscriptions';
export { verifyShopifyWebhook, parseShopifyProductWebhook } from './shopify-webhook';
export { METAFIELD_NAMESPACE } from './shopify-queries';
