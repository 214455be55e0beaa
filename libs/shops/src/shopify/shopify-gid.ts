/**
 * Shopify's GraphQL ids are GIDs ("gid://shopify/Product/123"); its webhooks and REST shapes use the number.
 * The shop-neutral model keeps the number as a string (the external id `shopify:<number>` must not change when a
 * merchant's webhook and the nightly pull disagree on the form), and the GraphQL calls rebuild the GID.
 */
export type ShopifyResource = 'Product' | 'ProductVariant' | 'MediaImage' | 'Model3d';

const GID = /^gid:\/\/shopify\/([A-Za-z0-9]+)\/(\d+)(?:\?.*)?$/;

/** The numeric id of a GID or of a bare number (string or number); null for anything else. */
export function shopifyNumericId(id: string | number | null | undefined): string | null {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? String(id) : null;
  if (typeof id !== 'string') return null;
  const trimmed = id.trim();
  if (/^\d{1,20}$/.test(trimmed)) return trimmed;
  return GID.exec(trimmed)?.[2] ?? null;
}

/** The GID of a resource from its number or GID; throws on anything else (ids come from our own records). */
export function shopifyGid(resource: ShopifyResource, id: string | number): string {
  const n = shopifyNumericId(id);
  if (!n) throw new Error(`shopify: not a ${resource} id`);
  return `gid://shopify/${resource}/${n}`;
}
