/**
 * The parts of WooCommerce REST API v3 (`/wp-json/wc/v3`) resources this library reads, as the API sends them:
 * ids are numbers, prices and meta values strings (or anything a plugin stored), dates without a zone in `_gmt`.
 * Only the fields used are typed; everything is read defensively since plugins reshape products.
 */
export interface WooMeta {
  id?: number;
  key: string;
  value: unknown;
}

export interface WooImage {
  id?: number;
  src: string;
}

/** A product attribute: `variation: true` ones define the variations; others are plain facts (Artist). */
export interface WooProductAttribute {
  id?: number;
  name: string;
  variation?: boolean;
  options?: string[];
}

export interface WooProduct {
  id: number;
  name: string;
  type: string; // simple | variable | grouped | external
  status: string; // publish | draft | pending | private | trash
  description?: string;
  short_description?: string;
  sku?: string;
  price?: string;
  stock_status?: string; // instock | outofstock | onbackorder
  purchasable?: boolean;
  date_modified_gmt?: string | null;
  images?: WooImage[];
  attributes?: WooProductAttribute[];
  variations?: number[];
  meta_data?: WooMeta[];
}

export interface WooVariation {
  id: number;
  sku?: string;
  status?: string; // publish | private (disabled in the admin)
  price?: string;
  stock_status?: string;
  purchasable?: boolean;
  date_modified_gmt?: string | null;
  image?: WooImage | null;
  attributes?: { id?: number; name: string; option: string }[];
  meta_data?: WooMeta[];
}

/** WooCommerce's (WordPress's) error body: `{code, message, data: {status}}`. */
export interface WooError {
  code: string;
  message: string;
  data?: { status?: number };
}
