import { htmlToText } from '../html-to-text';
import type { ShopProduct, ShopSizeMeta, ShopVariant } from '../shop-product';
import type { WooMeta, WooProduct, WooVariation } from './woocommerce.types';

/** Meta keys a merchant (or our plugin) sets for the real size; the issue names the `_cm` pair. */
const SIZE_KEYS: Record<string, keyof ShopSizeMeta> = {
  image_ar_width_cm: 'widthCm',
  image_ar_height_cm: 'heightCm',
  image_ar_width_in: 'widthIn',
  image_ar_height_in: 'heightIn',
};

/** Size metadata from `meta_data`; WordPress stores meta as strings, so "50" and "29,7" are read too. */
export function wooSizeMeta(meta: readonly WooMeta[] | undefined): ShopSizeMeta | null {
  const out: ShopSizeMeta = {};
  for (const m of meta ?? []) {
    const field = SIZE_KEYS[m.key];
    if (!field) continue;
    const n = typeof m.value === 'number' ? m.value : typeof m.value === 'string' ? Number(m.value.trim().replace(',', '.')) : NaN;
    if (Number.isFinite(n) && String(m.value).trim() !== '') out[field] = n;
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** The `image_ar` meta a sync wrote (an object; WordPress may hand back a JSON string), or undefined. */
export function wooModelMeta(meta: readonly WooMeta[] | undefined): unknown {
  const value = meta?.find((m) => m.key === 'image_ar')?.value;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const orNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** `date_modified_gmt` has no zone ("2025-01-02T10:00:00"); it is UTC, so a `Z` makes it ISO 8601. */
function utc(date: string | null | undefined): string | null {
  if (!date) return null;
  return /[zZ]|[+-]\d\d:\d\d$/.test(date) ? date : `${date}Z`;
}

function status(p: WooProduct): ShopProduct['status'] {
  if (p.status === 'publish') return 'published';
  return p.status === 'trash' ? 'deleted' : 'unpublished';
}

// `onbackorder` can still be bought; a disabled (private) variation cannot.
const inStock = (stock: string | undefined, purchasable: boolean | undefined): boolean => stock !== 'outofstock' && purchasable !== false;

function artist(p: WooProduct): string | null {
  const attr = p.attributes?.find((a) => a.name.trim().toLowerCase() === 'artist');
  return orNull(attr?.options?.[0]);
}

function variationVariant(v: WooVariation, currency: string | null): ShopVariant {
  // "Any Size" variations carry an empty option: it names nothing, so it is left out.
  const options = (v.attributes ?? []).filter((a) => text(a.option) !== '').map((a) => ({ name: a.name, value: a.option }));
  return {
    id: String(v.id),
    sku: orNull(v.sku),
    title: options.map((o) => o.value).join(' / '),
    options,
    price: orNull(v.price),
    currency,
    available: v.status !== 'private' && inStock(v.stock_status, v.purchasable),
    imageUrl: orNull(v.image?.src),
    sizeMeta: wooSizeMeta(v.meta_data),
    arModel: wooModelMeta(v.meta_data),
  };
}

/** A simple product is its own single variant; its one-valued attributes ("Size: 50 x 70 cm") are its options. */
function simpleVariant(p: WooProduct, currency: string | null): ShopVariant {
  const options = (p.attributes ?? [])
    .filter((a) => a.name.trim().toLowerCase() !== 'artist' && a.options?.length === 1)
    .map((a) => ({ name: a.name, value: a.options![0] }));
  return {
    id: String(p.id),
    sku: orNull(p.sku),
    title: p.name,
    options,
    price: orNull(p.price),
    currency,
    available: inStock(p.stock_status, p.purchasable),
    imageUrl: null, // the product's featured image applies
    sizeMeta: null, // the product's meta is read as the product's sizeMeta
  };
}

/**
 * A WooCommerce product (and, for a variable one, its variations as listed by `/products/{id}/variations`) as a
 * {@link ShopProduct}. `currency` is the store's (products carry none). The update time is the latest of the
 * product's and its variations', since editing a variation does not touch its parent's date.
 */
export function toShopProduct(p: WooProduct, variations: readonly WooVariation[], currency: string | null): ShopProduct {
  const variants = p.type === 'variable' ? variations.map((v) => variationVariant(v, currency)) : [simpleVariant(p, currency)];
  const dates = [p.date_modified_gmt, ...variations.map((v) => v.date_modified_gmt)].map(utc).filter((d): d is string => d !== null);
  return {
    platform: 'woocommerce',
    id: String(p.id),
    title: text(p.name).trim(),
    artist: artist(p),
    descriptionText: htmlToText(text(p.description) || text(p.short_description)),
    status: status(p),
    featuredImageUrl: orNull(p.images?.[0]?.src),
    sizeMeta: wooSizeMeta(p.meta_data),
    variants,
    arModel: wooModelMeta(p.meta_data),
    updatedAt: dates.sort().at(-1) ?? new Date(0).toISOString(),
  };
}
