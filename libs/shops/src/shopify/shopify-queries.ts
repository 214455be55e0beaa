/**
 * The GraphQL documents the adapter sends (Admin API 2025-10). Page sizes keep each query's requested cost under
 * Shopify's 1,000-point ceiling for a single query: a connection costs 2 plus `first` times its node, so products
 * (each with its featured media, metafields and a page of variants with theirs) come 6 a page with 10 variants
 * each, about 820 points requested; a product with more variants pages them on its own (50 a page). The bucket
 * is charged the actual cost, which is what the shop really has, so the throughput over a whole catalogue is the
 * same whatever the page size.
 */
export const PRODUCTS_PER_PAGE = 6;
export const VARIANTS_PER_PRODUCT_PAGE = 10;
export const VARIANTS_PER_PAGE = 50;

/** `image_ar` holds what we read (sizes, artist) and what we write (`model`); the rest of a shop's metafields is not ours. */
export const METAFIELD_NAMESPACE = 'image_ar';

const METAFIELDS = `metafields(namespace: "${METAFIELD_NAMESPACE}", first: 8) { nodes { key value } }`;

const VARIANT_FIELDS = `
  id sku title price availableForSale
  selectedOptions { name value }
  image { url }
  ${METAFIELDS}`;

const PRODUCT_FIELDS = `
  id title status vendor descriptionHtml updatedAt
  featuredMedia { preview { image { url } } }
  ${METAFIELDS}
  variants(first: $variantsFirst) { nodes { ${VARIANT_FIELDS} } pageInfo { hasNextPage endCursor } }`;

export const SHOP_QUERY = `query ShopInfo { shop { name currencyCode myshopifyDomain } }`;

export const PRODUCTS_QUERY = `query Products($first: Int!, $after: String, $query: String, $variantsFirst: Int!) {
  products(first: $first, after: $after, query: $query, sortKey: ID) {
    nodes { ${PRODUCT_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const PRODUCT_QUERY = `query Product($id: ID!, $variantsFirst: Int!) {
  product(id: $id) { ${PRODUCT_FIELDS} }
}`;

export const PRODUCT_VARIANTS_QUERY = `query ProductVariants($id: ID!, $first: Int!, $after: String) {
  product(id: $id) {
    variants(first: $first, after: $after) { nodes { ${VARIANT_FIELDS} } pageInfo { hasNextPage endCursor } }
  }
}`;

export const METAFIELDS_SET_MUTATION = `mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
  metafieldsSet(metafields: $metafields) {
    metafields { id key namespace owner { ... on Product { id } ... on ProductVariant { id } } }
    userErrors { field message code elementIndex }
  }
}`;

export const WEBHOOK_SUBSCRIPTION_CREATE_MUTATION = `mutation WebhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

export const STAGED_UPLOADS_CREATE_MUTATION = `mutation StagedUploadsCreate($input: [StagedUploadInput!]!) {
  stagedUploadsCreate(input: $input) {
    stagedTargets { url resourceUrl parameters { name value } }
    userErrors { field message }
  }
}`;

/** productCreateMedia is deprecated since 2024-04; productUpdate takes the media to add. */
export const PRODUCT_UPDATE_MEDIA_MUTATION = `mutation ProductUpdateMedia($product: ProductUpdateInput!, $media: [CreateMediaInput!]) {
  productUpdate(product: $product, media: $media) {
    product { id media(last: 1) { nodes { id mediaContentType status } } }
    userErrors { field message }
  }
}`;

/** Removing a model we attached: media are files, and fileDelete is the non-deprecated way to delete them. */
export const FILE_DELETE_MUTATION = `mutation FileDelete($fileIds: [ID!]!) {
  fileDelete(fileIds: $fileIds) { deletedFileIds userErrors { field message code } }
}`;

/** Forgetting the `image_ar.media` we kept beside a model we removed (metafields not found are answered null, not an error). */
export const METAFIELDS_DELETE_MUTATION = `mutation MetafieldsDelete($metafields: [MetafieldIdentifierInput!]!) {
  metafieldsDelete(metafields: $metafields) { deletedMetafields { ownerId namespace key } userErrors { field message } }
}`;
