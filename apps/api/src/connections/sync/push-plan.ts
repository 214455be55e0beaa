import { isDeepStrictEqual } from 'node:util';

/**
 * What a sync writes back to the shop (issue 41, "Push back"): the `image_ar` model object on each product and
 * each variant whose item is ready, and only where the shop does not already hold that exact value. Pure: the
 * views in, the writes out.
 */

/** The object the theme block and the plugin read: `image_ar.model` (Shopify, type json) / meta `image_ar` (WooCommerce). */
export interface ArModel {
  embed_url: string | null;
  glb_url: string;
  usdz_url: string;
  poster_url: string;
  width_cm: number;
  height_cm: number;
  sku: string | null;
}

/** The parts of an item's API view (showcase-views itemView / variantView) a model is read from. */
export interface ReadyView {
  status?: string;
  sku?: string;
  default?: boolean;
  embed_url?: string | null;
  glb_url?: string;
  usdz_url?: string;
  preview_url?: string;
  dimensions_cm?: { width_cm: number; height_cm: number } | null;
}
export interface ItemViewLike extends ReadyView {
  external_id: string | null;
  variants: ReadyView[] | null;
}

/** A product as the pull saw it: its id, its variants with the SKUs the item gave them, and the values the shop holds. */
export interface PushTarget {
  productId: string;
  current: unknown;
  /** Shopify, push "metafields+media": the `image_ar.media` value the shop holds ({media_id, glb_url}). */
  media?: unknown;
  variants: { variantId: string; sku: string; current: unknown }[];
}

export interface ProductWrite {
  productId: string;
  value: ArModel;
}
export interface VariantWrite {
  productId: string;
  variantId: string;
  value: ArModel;
}

/** A view's files as the model object; null while it has none (converting, failed). */
function modelOf(v: ReadyView, sku: string | null): ArModel | null {
  if (!v.glb_url || !v.usdz_url || !v.preview_url || !v.dimensions_cm) return null;
  return {
    embed_url: v.embed_url ?? null,
    glb_url: v.glb_url,
    usdz_url: v.usdz_url,
    poster_url: v.preview_url,
    width_cm: v.dimensions_cm.width_cm,
    height_cm: v.dimensions_cm.height_cm,
    sku,
  };
}

/** The product's model: the item's main files (its default variant's), with that variant's SKU. */
export function productModel(item: ItemViewLike): ArModel | null {
  if (item.status !== undefined && item.status !== 'completed') return null;
  const main = item.variants?.find((v) => v.default) ?? item.variants?.[0];
  return modelOf(item, main?.sku ?? null);
}

/** A variant's model: its own files (status ready), with its SKU. */
export function variantModel(variant: ReadyView): ArModel | null {
  if (variant.status !== undefined && variant.status !== 'ready') return null;
  return modelOf(variant, variant.sku ?? null);
}

/**
 * The writes a sync makes: for each product whose item (found by external id) is ready, its model and each of
 * its variants' where the shop's current value differs (compared as JSON values, so a shop's re-ordered keys are
 * the same value). Items not ready are left for the next sync; nothing is ever written for an item that is not
 * there.
 *
 * @example
 * pushPlan([{ productId: '81', current: null, variants: [{ variantId: '9', sku: 'A3', current: null }] }], items, (id) => `shopify:${id}`)
 * // { products: [{ productId: '81', value: {...} }], variants: [{ productId: '81', variantId: '9', value: {...} }] }
 */
export function pushPlan(
  targets: readonly PushTarget[],
  items: ReadonlyMap<string, ItemViewLike>,
  externalIdOf: (productId: string) => string,
): { products: ProductWrite[]; variants: VariantWrite[] } {
  const products: ProductWrite[] = [];
  const variants: VariantWrite[] = [];
  for (const t of targets) {
    const item = items.get(externalIdOf(t.productId));
    if (!item) continue;
    const model = productModel(item);
    if (model && !same(t.current, model)) products.push({ productId: t.productId, value: model });
    const bySku = new Map((item.variants ?? []).map((v) => [v.sku, v]));
    for (const v of t.variants) {
      const view = bySku.get(v.sku);
      const value = view ? variantModel(view) : null;
      if (value && !same(v.current, value)) variants.push({ productId: t.productId, variantId: v.variantId, value });
    }
  }
  return { products, variants };
}

/** A product whose media should hold the item's GLB: the file to attach and the media it replaces. */
export interface MediaWrite {
  productId: string;
  glbUrl: string;
  /** The media a sync attached before (for an older GLB): removed once the new one is in. */
  replaces: string | null;
}

/** The `image_ar.media` object a sync keeps beside the media it attached. */
export interface ArMedia {
  media_id: string;
  glb_url: string;
}

/** The `image_ar.media` value a shop holds, read (it may come back as text); null when it is not ours. */
export function asMedia(value: unknown): ArMedia | null {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return null;
    }
  }
  const m = v as Partial<ArMedia> | null;
  return m && typeof m.media_id === 'string' && typeof m.glb_url === 'string' ? { media_id: m.media_id, glb_url: m.glb_url } : null;
}

/**
 * Shopify's `"metafields+media"` push: each product whose item is ready gets the item's main GLB in its media,
 * unless the media a sync attached is already that file; a changed model replaces the old media.
 */
export function mediaPlan(
  targets: readonly PushTarget[],
  items: ReadonlyMap<string, ItemViewLike>,
  externalIdOf: (productId: string) => string,
): MediaWrite[] {
  const out: MediaWrite[] = [];
  for (const t of targets) {
    const item = items.get(externalIdOf(t.productId));
    const model = item ? productModel(item) : null;
    if (!model) continue;
    const current = asMedia(t.media);
    if (current?.glb_url === model.glb_url) continue;
    out.push({ productId: t.productId, glbUrl: model.glb_url, replaces: current?.media_id ?? null });
  }
  return out;
}

/** The same JSON value (a shop may hand back the object as text). */
function same(current: unknown, next: ArModel): boolean {
  let value = current;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return false;
    }
  }
  return isDeepStrictEqual(value, JSON.parse(JSON.stringify(next)));
}
