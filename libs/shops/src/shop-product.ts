/**
 * The shop-neutral product both adapters (Shopify, WooCommerce) produce, so the sync that turns products into
 * showcase items never looks at a platform's own shapes. Strings stay strings where the shops send decimals
 * (prices) so no rounding happens before the item is written.
 */

/** A real print size as the shop states it in metadata; any of the pairs may be given, cm wins over in. */
export interface ShopSizeMeta {
  widthCm?: number;
  heightCm?: number;
  widthIn?: number;
  heightIn?: number;
}

/** One purchasable variant (a simple WooCommerce product has exactly one, whose id is the product's). */
export interface ShopVariant {
  /** The platform's own id, as a string (Shopify GIDs are reduced to their number by the adapter). */
  id: string;
  sku: string | null;
  title: string;
  /** Option name/value pairs ("Size" → "50 x 70 cm", "Frame" → "Oak frame"), read for sizes and frames. */
  options: { name: string; value: string }[];
  /** The price as the shop wrote it ("49.90"), never a float. */
  price: string | null;
  /** ISO 4217 code of the shop's currency. */
  currency: string | null;
  available: boolean;
  /** The variant's own picture, when it has one (else the product's featured image is used). */
  imageUrl: string | null;
  sizeMeta: ShopSizeMeta | null;
  /** The `image_ar` model object written back by an earlier sync, as the shop holds it (absent: none read). */
  arModel?: unknown;
}

export interface ShopProduct {
  platform: 'shopify' | 'woocommerce';
  /** The platform's product id as a string; the showcase item's external id is `<platform>:<id>`. */
  id: string;
  title: string;
  /** Shopify vendor / `image_ar.artist` metafield, WooCommerce `Artist` attribute. */
  artist: string | null;
  /** The description as plain text (the shops store HTML). */
  descriptionText: string;
  /** Only `published` products are shown; the others are hidden from the showcase, never left showing. */
  status: 'published' | 'unpublished' | 'deleted';
  featuredImageUrl: string | null;
  sizeMeta: ShopSizeMeta | null;
  variants: ShopVariant[];
  /** The `image_ar` model object written back by an earlier sync, as the shop holds it (absent: none read). */
  arModel?: unknown;
  /** Shopify, push "metafields+media": the `image_ar.media` object ({media_id, glb_url}) of the GLB a sync attached. */
  arMedia?: unknown;
  /** ISO 8601, as the shop reports the last change (used to skip unchanged products cheaply). */
  updatedAt: string;
}
