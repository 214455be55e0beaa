import { matchFrame, parsePrintSize, type ShopProduct, type ShopVariant } from '@app/shops';

/**
 * A shop's product as one row of a catalogue import (issue 41): the JSON item `POST /api/v2/showcases/{id}/imports`
 * takes, with its variants, so the sync is an import like any other (the same checks, counts, report, credits and
 * idempotency by `external_id`). Pure: no I/O.
 */

/** The settings of a connection the mapping reads. */
export interface ProductRowSettings {
  /** How a size written without units is read. */
  units: 'cm' | 'in';
  /** Option value → frame preset (null: explicitly no frame). */
  frames: Readonly<Record<string, string | null>>;
}

/** A shop variant left out of the item, with what was seen instead of a size. */
export interface SkippedVariant {
  variantId: string;
  sku: string;
  seen: string;
}

/** What a product becomes: the import row (or why there is none), and how its variants map to the item's SKUs. */
export interface ProductRow {
  externalId: string;
  /** The JSON item of the import; absent when the product cannot be one (`problem` says why). */
  item?: Record<string, unknown>;
  /** Why the product is not imported: reported as an invalid row, nothing converted. */
  problem?: { field: string; message: string };
  /** The shop's variant id → the SKU its variant has on the item (the write-back finds each variant by it). */
  variantSkus: { variantId: string; sku: string }[];
  /** Variants without a believable size: not on the item (a wrong size is worse than none), reported. */
  skipped: SkippedVariant[];
}

/** The limits of the item fields (item-fields.schema, presentation.schema, variants.schema). */
const LIMITS = { title: 60, artist: 120, description: 2000, variantName: 80, sku: 64, price: 30, variants: 24 } as const;

/** A showcase item's external id for a shop product: `shopify:<id>` / `woocommerce:<id>`. */
export const productExternalId = (platform: ShopProduct['platform'], id: string): string => `${platform}:${id}`;

/** Trimmed, control characters dropped, at most `max` characters (a word cut gets an ellipsis); null when empty. */
export function clipText(value: string | null | undefined, max: number, multiline = false): string | null {
  if (!value) return null;
  const cleaned = (multiline ? value.replace(/[^\P{Cc}\n\t]/gu, '') : value.replace(/\p{Cc}+/gu, ' ')).trim();
  if (!cleaned) return null;
  const chars = [...cleaned];
  return chars.length <= max
    ? cleaned
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

/** A SKU the item can take (no spaces, at most 64 characters); else null. */
const usableSku = (sku: string | null): string | null => (sku && sku.length <= LIMITS.sku && !/[\p{Cc}\s]/u.test(sku) ? sku : null);

/**
 * The price as the banner shows it, in the shop's currency: "€49.90", "US$120.00", "49.90 CHF" where Intl has no
 * symbol. The shop's decimal text is kept as written (no float rounding); null without a price.
 */
export function formatPrice(price: string | null, currency: string | null): string | null {
  const text = price?.trim();
  if (!text || !/^\d{1,12}(\.\d{1,4})?$/.test(text)) return null;
  if (!currency) return text;
  let out: string;
  try {
    const usual = currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
    // The currency's usual decimals, more only where the shop wrote more (at most 16 digits: exact as a double).
    const decimals = Math.max(usual, (text.split('.')[1] ?? '').replace(/0+$/, '').length);
    out = currencyFormat(currency, decimals).format(Number(text)).replace(/\s+/g, ' ');
  } catch {
    out = `${text} ${currency}`;
  }
  return out.length <= LIMITS.price ? out : null;
}

/**
 * Made formats, by currency and decimals. Why: a sync prices every variant of the shop, and making an
 * Intl.NumberFormat costs far more than formatting with one (3,000 variants: 103 ms making two each, 13 ms reusing
 * one; in the embedded process's profile of a 500 x 6 store's sync, 0.4 of its 18 busy CPU-s). Bounded: the codes
 * come from the shop, so the map starts again when full.
 */
const formats = new Map<string, Intl.NumberFormat>();
const MAX_FORMATS = 256;

/** The currency's format ('en'), with `decimals` fixed where given; throws RangeError for a code Intl does not know. */
function currencyFormat(currency: string, decimals?: number): Intl.NumberFormat {
  const key = `${currency}:${decimals ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      'en',
      decimals === undefined
        ? { style: 'currency', currency }
        : { style: 'currency', currency, minimumFractionDigits: decimals, maximumFractionDigits: decimals },
    );
    if (formats.size >= MAX_FORMATS) formats.clear();
    formats.set(key, format);
  }
  return format;
}

/** The item's picture: the first variant's own image, else the product's featured image. */
function pictureOf(p: ShopProduct, variants: readonly ShopVariant[]): string | null {
  return variants.find((v) => v.imageUrl)?.imageUrl ?? p.featuredImageUrl ?? null;
}

/**
 * One product as an import row. Each variant becomes a variant of the item with its SKU (or
 * `<platform>:<variant id>` when it has none the item can take, or shares one with an earlier variant), its
 * name, price in the shop's currency, availability, real size (the variant's size metadata, the product's,
 * then its option values in the connection's units; see parsePrintSize) and frame (the connection's `frames`
 * table on its option values). A variant whose size is not found is left out and reported; a product with none
 * left, no picture, or more variants than an item takes, is a problem row (not converted).
 *
 * @example
 * productRow(product, { units: 'cm', frames: { 'Oak frame': 'classic' } })
 * // { externalId: 'shopify:81', item: { image_url, external_id: 'shopify:81', title, variants: [{ sku, width_cm: 50, height_cm: 70, ... }] }, ... }
 */
export function productRow(p: ShopProduct, settings: ProductRowSettings): ProductRow {
  const externalId = productExternalId(p.platform, p.id);
  const skipped: SkippedVariant[] = [];
  const variantSkus: ProductRow['variantSkus'] = [];
  const variants: Record<string, unknown>[] = [];
  const taken = new Set<string>();
  const kept: ShopVariant[] = [];
  for (const v of p.variants) {
    let sku = usableSku(v.sku) ?? `${p.platform}:${v.id}`;
    if (taken.has(sku)) sku = `${p.platform}:${v.id}`;
    taken.add(sku);
    const size = parsePrintSize({ variantMeta: v.sizeMeta, productMeta: p.sizeMeta, options: v.options, units: settings.units });
    if ('error' in size) {
      skipped.push({ variantId: v.id, sku, seen: size.seen });
      continue;
    }
    kept.push(v);
    variantSkus.push({ variantId: v.id, sku });
    const frame = matchFrame(v.options, settings.frames);
    const price = formatPrice(v.price, v.currency);
    variants.push({
      sku,
      ...(clipText(v.title, LIMITS.variantName) ? { name: clipText(v.title, LIMITS.variantName) } : {}),
      ...(price ? { price } : {}),
      availability: v.available ? 'available' : 'sold',
      width_cm: size.widthCm,
      height_cm: size.heightCm,
      ...(frame !== undefined ? { frame } : {}),
    });
  }
  const problem = (field: string, message: string): ProductRow => ({ externalId, problem: { field, message }, variantSkus: [], skipped });
  if (!variants.length) {
    const seen = skipped.map((s) => s.seen).join('; ') || '(no variants)';
    return problem(
      'size',
      `size_unknown: ${externalId} "${clipText(p.title, 60) ?? ''}": no print size found (saw: ${clipText(seen, 300)})`,
    );
  }
  if (variants.length > LIMITS.variants)
    return problem(
      'variants',
      `${externalId}: ${variants.length} variants; an item takes at most ${LIMITS.variants} (split the product or its options)`,
    );
  const image = pictureOf(p, kept);
  if (!image) return problem('image_url', `${externalId}: the product has no image (neither its variants nor a featured image)`);
  const item: Record<string, unknown> = {
    image_url: image,
    external_id: externalId,
    title: clipText(p.title, LIMITS.title) ?? externalId,
    availability: p.status !== 'published' ? 'not_for_sale' : kept.some((v) => v.available) ? 'available' : 'sold',
    variants,
  };
  const artist = clipText(p.artist, LIMITS.artist);
  if (artist) item.artist = artist;
  const description = clipText(p.descriptionText, LIMITS.description, true);
  if (description) item.description = description;
  return { externalId, item, variantSkus, skipped };
}

/**
 * The row that hides an item whose product is gone from the shop (deleted, unpublished): an update of the item
 * with its external id to `not_for_sale`, so it is never left showing (and a re-publish makes it available again).
 */
export const hideRow = (externalId: string): Record<string, unknown> => ({ external_id: externalId, availability: 'not_for_sale' });
