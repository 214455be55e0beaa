import { createHmac, timingSafeEqual } from 'node:crypto';
import { htmlToText } from '../html-to-text';
import type { ShopProduct, ShopVariant } from '../shop-product';
import { shopifyNumericId } from './shopify-gid';
import { realOptions, sizeMetaOf } from './shopify-product.mapper';

/**
 * Shopify signs each delivery with the app's secret: `X-Shopify-Hmac-Sha256` is the base64 HMAC-SHA256 of the raw
 * body (https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook).
 * The raw bytes, not re-serialised JSON (key order and escapes would differ); compared in constant time, on the
 * decoded digests so a header of another length is refused before the comparison rather than throwing in it.
 */
export function verifyShopifyWebhook(rawBody: Buffer, hmacHeader: string | undefined, secret: string): boolean {
  if (!hmacHeader || !secret || hmacHeader.length > 128) return false;
  const header = hmacHeader.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(header)) return false;
  const given = Buffer.from(header, 'base64');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The REST-shaped product a products/* webhook carries (only what is read). */
interface RestVariant {
  id?: number | string;
  admin_graphql_api_id?: string;
  title?: string;
  price?: string | number | null;
  sku?: string | null;
  option1?: string | null;
  option2?: string | null;
  option3?: string | null;
  image_id?: number | string | null;
  inventory_quantity?: number | null;
  inventory_policy?: string | null;
  inventory_management?: string | null;
}
interface RestProduct {
  id?: number | string;
  admin_graphql_api_id?: string;
  title?: string;
  body_html?: string | null;
  vendor?: string | null;
  status?: string;
  updated_at?: string;
  options?: { name?: string; position?: number }[];
  variants?: RestVariant[];
  image?: { src?: string } | null;
  images?: { id?: number | string; src?: string }[];
  metafields?: { namespace?: string; key?: string; value?: unknown }[];
}

/**
 * Reads a products/create, products/update or products/delete payload (products/delete carries only the id) as a
 * ShopProduct, ids as numbers-as-strings. The GraphQL id (`admin_graphql_api_id`) is preferred over `id`: an id
 * beyond 2^53 loses digits in JSON.parse. The payload has no variant metafields and no currency, and its stock
 * fields are Shopify's REST ones, so a sync should re-read the product (ShopifyAdminClient.product) for what it
 * writes; this is what the webhook itself says, for routing and for deletions. Null for a payload without an id.
 */
export function parseShopifyProductWebhook(
  payload: unknown,
  opts: { topic?: string; currency?: string | null; receivedAt?: string } = {},
): ShopProduct | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as RestProduct;
  const id = shopifyNumericId(p.admin_graphql_api_id) ?? shopifyNumericId(p.id ?? null);
  if (!id) return null;
  const deleted = opts.topic === 'products/delete' || (p.title === undefined && p.variants === undefined);
  if (deleted) {
    return {
      platform: 'shopify',
      id,
      title: '',
      artist: null,
      descriptionText: '',
      status: 'deleted',
      featuredImageUrl: null,
      sizeMeta: null,
      variants: [],
      updatedAt: opts.receivedAt ?? new Date().toISOString(),
    };
  }
  const published = p.status === 'active';
  const metafields = {
    nodes: (p.metafields ?? [])
      .filter((m) => m.namespace === 'image_ar' && typeof m.key === 'string')
      .map((m) => ({ key: m.key as string, value: typeof m.value === 'string' ? m.value : JSON.stringify(m.value) })),
  };
  const artist = metafields.nodes.find((m) => m.key === 'artist')?.value?.trim() || p.vendor?.trim() || null;
  const optionNames = [...(p.options ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0)).map((o) => o.name ?? '');
  const imageById = new Map((p.images ?? []).map((img) => [String(img.id), img.src ?? null]));
  const variants: ShopVariant[] = (p.variants ?? []).flatMap((v) => {
    const vid = shopifyNumericId(v.admin_graphql_api_id) ?? shopifyNumericId(v.id ?? null);
    if (!vid) return [];
    const values = [v.option1, v.option2, v.option3];
    const options = realOptions(
      optionNames.flatMap((name, i) => (values[i] != null && values[i] !== '' ? [{ name, value: String(values[i]) }] : [])),
    );
    // Stock: untracked (inventory_management null) or "continue" sells without stock; else it needs some.
    const untracked = 'inventory_management' in v && v.inventory_management === null;
    const inStock = v.inventory_policy === 'continue' || untracked || (v.inventory_quantity ?? 0) > 0;
    return [
      {
        id: vid,
        sku: v.sku?.trim() ? v.sku.trim() : null,
        title: v.title ?? '',
        options,
        price: v.price === null || v.price === undefined ? null : String(v.price),
        currency: opts.currency ?? null,
        available: published && inStock,
        imageUrl: v.image_id != null ? (imageById.get(String(v.image_id)) ?? null) : null,
        sizeMeta: null,
      },
    ];
  });
  return {
    platform: 'shopify',
    id,
    title: p.title ?? '',
    artist,
    descriptionText: htmlToText(p.body_html),
    status: published ? 'published' : 'unpublished',
    featuredImageUrl: p.image?.src ?? p.images?.[0]?.src ?? null,
    sizeMeta: sizeMetaOf(metafields),
    variants,
    updatedAt: p.updated_at ?? opts.receivedAt ?? new Date().toISOString(),
  };
}
