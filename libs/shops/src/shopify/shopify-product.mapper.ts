import { htmlToText } from '../html-to-text';
import type { ShopProduct, ShopSizeMeta, ShopVariant } from '../shop-product';
import { shopifyNumericId } from './shopify-gid';

/** The GraphQL shapes selected in shopify-queries.ts (only what is read). */
export interface GqlMetafields {
  nodes: { key: string; value: string }[];
}
export interface GqlPageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}
export interface GqlVariant {
  id: string;
  sku: string | null;
  title: string;
  price: string | null;
  availableForSale: boolean;
  selectedOptions: { name: string; value: string }[];
  image: { url: string } | null;
  metafields: GqlMetafields | null;
}
export interface GqlProduct {
  id: string;
  title: string;
  status: string;
  vendor: string | null;
  descriptionHtml: string | null;
  updatedAt: string;
  featuredMedia: { preview: { image: { url: string } | null } | null } | null;
  metafields: GqlMetafields | null;
  variants: { nodes: GqlVariant[]; pageInfo: GqlPageInfo };
}

const SIZE_KEYS = { width_cm: 'widthCm', height_cm: 'heightCm', width_in: 'widthIn', height_in: 'heightIn' } as const;
const TO_CM: Record<string, number> = { mm: 0.1, cm: 1, m: 100, in: 2.54, ft: 30.48 };
const UNIT_ALIASES: Record<string, string> = { millimeters: 'mm', centimeters: 'cm', meters: 'm', inches: 'in', feet: 'ft' };

/**
 * A size metafield's value in the key's unit. Merchants use `number_decimal` ("50", "50.5") or `dimension`
 * (`{"value": 50, "unit": "cm"}`, Shopify's unit names too); a dimension in another unit is converted. Anything
 * else (text, zero, negative, absurd) is no value: the size is then looked for elsewhere, never guessed.
 */
export function readSizeValue(raw: string, keyUnit: 'cm' | 'in'): number | undefined {
  const text = raw.trim();
  let value: number | undefined;
  if (/^\d{1,5}(\.\d{1,6})?$/.test(text)) value = Number(text);
  else if (text.startsWith('{')) {
    try {
      const d = JSON.parse(text) as { value?: unknown; unit?: unknown };
      const unit = String(d.unit ?? keyUnit).toLowerCase();
      const factor = TO_CM[UNIT_ALIASES[unit] ?? unit];
      const n = typeof d.value === 'number' ? d.value : Number(d.value);
      if (factor !== undefined && Number.isFinite(n)) value = (n * factor) / TO_CM[keyUnit];
    } catch {
      return undefined;
    }
  }
  return value !== undefined && value > 0 && value <= 10_000 ? value : undefined;
}

/** The `image_ar` size metafields as a ShopSizeMeta (null when none is readable). */
export function sizeMetaOf(metafields: GqlMetafields | null | undefined): ShopSizeMeta | null {
  const meta: ShopSizeMeta = {};
  for (const { key, value } of metafields?.nodes ?? []) {
    const field = SIZE_KEYS[key as keyof typeof SIZE_KEYS];
    if (!field) continue;
    const n = readSizeValue(value, key.endsWith('_cm') ? 'cm' : 'in');
    if (n !== undefined) meta[field] = n;
  }
  return Object.keys(meta).length > 0 ? meta : null;
}

/** The `image_ar.<key>` json metafield a sync wrote (`model`, `media`), parsed (undefined: none, or not JSON). */
export function modelMetafield(metafields: GqlMetafields | null | undefined, key = 'model'): unknown {
  const raw = metafields?.nodes.find((m) => m.key === key)?.value;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function metafield(metafields: GqlMetafields | null | undefined, key: string): string | null {
  const v = metafields?.nodes.find((m) => m.key === key)?.value?.trim();
  return v ? v : null;
}

/** Shopify gives a product without options one variant with the option "Title" = "Default Title": not a size. */
export function realOptions(options: { name: string; value: string }[]): { name: string; value: string }[] {
  return options.filter((o) => !(o.name === 'Title' && o.value === 'Default Title'));
}

export function mapVariant(v: GqlVariant, currency: string | null): ShopVariant {
  return {
    id: shopifyNumericId(v.id) ?? v.id,
    sku: v.sku?.trim() ? v.sku.trim() : null,
    title: v.title,
    options: realOptions(v.selectedOptions ?? []),
    price: v.price ?? null,
    currency,
    available: v.availableForSale === true,
    imageUrl: v.image?.url ?? null,
    sizeMeta: sizeMetaOf(v.metafields),
    arModel: modelMetafield(v.metafields),
  };
}

/** ACTIVE is on sale; DRAFT, ARCHIVED (and UNLISTED) are hidden from the showcase. */
export function mapProduct(p: GqlProduct, variants: GqlVariant[], currency: string | null): ShopProduct {
  const published = p.status === 'ACTIVE';
  return {
    platform: 'shopify',
    id: shopifyNumericId(p.id) ?? p.id,
    title: p.title,
    artist: metafield(p.metafields, 'artist') ?? (p.vendor?.trim() ? p.vendor.trim() : null),
    descriptionText: htmlToText(p.descriptionHtml),
    status: published ? 'published' : 'unpublished',
    featuredImageUrl: p.featuredMedia?.preview?.image?.url ?? null,
    sizeMeta: sizeMetaOf(p.metafields),
    // A variant is available only when the product is on sale too (Shopify's availableForSale ignores status).
    variants: variants.map((v) => {
      const mapped = mapVariant(v, currency);
      return published ? mapped : { ...mapped, available: false };
    }),
    arModel: modelMetafield(p.metafields),
    arMedia: modelMetafield(p.metafields, 'media'),
    updatedAt: p.updatedAt,
  };
}
