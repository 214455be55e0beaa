import { ShopApiError, ShopUnauthorizedError, ShopUnavailableError } from '../shop-errors';
import { retryAfterMs } from '../retry-after';
import type { ShopProduct } from '../shop-product';
import { toShopProduct } from './woocommerce-mapping';
import type { WooError, WooProduct, WooVariation } from './woocommerce.types';

export interface WooCommerceClientOptions {
  /** The store's address, https only ("https://shop.example"); a WordPress in a folder works ("…/blog"). */
  shopUrl: string;
  consumerKey: string;
  consumerSecret: string;
  /** Replaced in tests (a fetch that trusts the fake's throwaway CA). */
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Tries per request, the first included (default 5). */
  maxAttempts?: number;
  /** First backoff after a 5xx or network failure without a Retry-After, doubled each try up to 30 s (default 500 ms). */
  backoffMs?: number;
  /** Per request (default 30 s): a hung shop must fail the sync, not hold it. */
  timeoutMs?: number;
}

/** One product's `image_ar` meta and its variations', written back after a sync; `null` clears it, `undefined` leaves the product's as it is. */
export interface WooModelMetaUpdate {
  productId: string;
  value?: unknown;
  variations: { id: string; value: unknown }[];
}

// WooCommerce refuses more than 100 objects per batch request (`woocommerce_rest_batch_items_limit`) and per page.
const PAGE = 100;
const BATCH = 100;
// WordPress reports pages in a header; a bound keeps a lying header from looping forever (100 × 5000 products).
const MAX_PAGES = 5000;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * WooCommerce REST API v3 over HTTP Basic (consumer key and secret), which WooCommerce accepts only over https,
 * so plain http is refused here too rather than sending the secret in clear. 429 (honouring `Retry-After`), 5xx
 * and network failures are retried with bounded exponential backoff; 401/403 throw {@link ShopUnauthorizedError}
 * at once. No message ever contains the key.
 */
export class WooCommerceClient {
  private readonly base: URL;
  private readonly auth: string;
  private readonly fetchFn: typeof globalThis.fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly timeoutMs: number;
  private currency: Promise<string | null> | undefined;

  constructor(options: WooCommerceClientOptions) {
    let url: URL;
    try {
      url = new URL(options.shopUrl);
    } catch {
      throw new ShopApiError('woocommerce', 'the shop URL is not a URL');
    }
    if (url.protocol !== 'https:') throw new ShopApiError('woocommerce', 'the shop URL must use https');
    url.pathname = url.pathname.replace(/\/*$/, '/');
    url.search = '';
    url.hash = '';
    this.base = url;
    this.auth = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? defaultSleep;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.backoffMs = options.backoffMs ?? BASE_DELAY_MS;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** The site's name from the WordPress index (`GET /wp-json/`), for "Test connection"; checks the key too. */
  async storeName(): Promise<string> {
    const [{ body }] = await Promise.all([this.request('GET', 'wp-json/'), this.storeCurrency()]);
    const name = (body as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : this.base.host;
  }

  /** Every published product, mapped, page by page (a 5000-product store never sits in memory at once). */
  async *products(): AsyncGenerator<ShopProduct> {
    const currency = await this.storeCurrency();
    // Ordered by id: a product edited mid-sync would move between pages under the default (date) order.
    for await (const p of this.pages<WooProduct>('wp-json/wc/v3/products', { status: 'publish', orderby: 'id', order: 'asc' })) {
      yield toShopProduct(p, await this.variationsOf(p), currency);
    }
  }

  /** One product by id (webhooks), whatever its status; a missing one is reported `deleted`. */
  async product(id: string): Promise<ShopProduct> {
    const currency = await this.storeCurrency();
    try {
      const { body } = await this.request('GET', `wp-json/wc/v3/products/${encodeURIComponent(id)}`);
      const p = body as WooProduct;
      return toShopProduct(p, await this.variationsOf(p), currency);
    } catch (e) {
      if (e instanceof ShopApiError && e.status === 404) {
        const gone: WooProduct = { id: Number(id), name: '', type: 'simple', status: 'trash' };
        return { ...toShopProduct(gone, [], currency), variants: [] };
      }
      throw e;
    }
  }

  /**
   * Writes the `image_ar` meta on products and their variations through the batch endpoints, 100 objects a
   * request. Returns the ids WooCommerce refused one by one (a batch answers 200 with per-item errors).
   */
  async setModelMeta(updates: readonly WooModelMetaUpdate[]): Promise<{ failed: { id: string; message: string }[] }> {
    const failed: { id: string; message: string }[] = [];
    const meta = (value: unknown) => [{ key: 'image_ar', value: value ?? '' }];
    for (let i = 0; i < updates.length; i += BATCH) {
      const update = updates
        .slice(i, i + BATCH)
        .filter((u) => u.value !== undefined)
        .map((u) => ({ id: Number(u.productId), meta_data: meta(u.value) }));
      if (update.length) failed.push(...(await this.batch('wp-json/wc/v3/products/batch', update)));
    }
    for (const u of updates) {
      for (let i = 0; i < u.variations.length; i += BATCH) {
        const update = u.variations.slice(i, i + BATCH).map((v) => ({ id: Number(v.id), meta_data: meta(v.value) }));
        const path = `wp-json/wc/v3/products/${encodeURIComponent(u.productId)}/variations/batch`;
        failed.push(...(await this.batch(path, update)));
      }
    }
    return { failed };
  }

  private async batch(path: string, update: { id: number }[]): Promise<{ id: string; message: string }[]> {
    const { body } = await this.request('POST', path, { update });
    const items = (body as { update?: { id?: number; error?: WooError }[] } | null)?.update ?? [];
    return items.filter((it) => it.error).map((it) => ({ id: String(it.id), message: it.error!.message }));
  }

  private async variationsOf(p: WooProduct): Promise<WooVariation[]> {
    if (p.type !== 'variable' || p.variations?.length === 0) return [];
    const out: WooVariation[] = [];
    for await (const v of this.pages<WooVariation>(`wp-json/wc/v3/products/${p.id}/variations`, { orderby: 'id', order: 'asc' })) {
      out.push(v);
    }
    return out;
  }

  /** The store currency (`/data/currencies/current`), once per client; null if the key may not read it. */
  private storeCurrency(): Promise<string | null> {
    this.currency ??= this.request('GET', 'wp-json/wc/v3/data/currencies/current').then(
      ({ body }) => {
        const code = (body as { code?: unknown } | null)?.code;
        return typeof code === 'string' ? code : null;
      },
      (e: unknown) => {
        if (e instanceof ShopApiError) return null;
        this.currency = undefined; // unauthorized or unavailable: the caller sees it, a later call retries
        throw e;
      },
    );
    return this.currency;
  }

  private async *pages<T>(path: string, query: Record<string, string>): AsyncGenerator<T> {
    let total = 1;
    for (let page = 1; page <= Math.min(total, MAX_PAGES); page++) {
      const { body, headers } = await this.request('GET', path, undefined, { ...query, per_page: String(PAGE), page: String(page) });
      if (!Array.isArray(body)) throw new ShopApiError('woocommerce', `${path} did not answer a list`);
      const header = Number(headers.get('x-wp-totalpages'));
      // Without the header (a caching proxy may drop it), a short page is the last.
      total = Number.isInteger(header) && header > 0 ? header : body.length < PAGE ? page : page + 1;
      yield* body as T[];
    }
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    json?: unknown,
    query?: Record<string, string>,
  ): Promise<{ body: unknown; headers: Headers }> {
    const url = new URL(path, this.base);
    for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
    let reason = '';
    for (let attempt = 1; ; attempt++) {
      let delay: number | undefined;
      try {
        const res = await this.fetchFn(url, {
          method,
          headers: { authorization: this.auth, accept: 'application/json', ...(json ? { 'content-type': 'application/json' } : {}) },
          body: json === undefined ? undefined : JSON.stringify(json),
          redirect: 'error', // a redirect could carry the Basic header to another host
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        const text = await res.text();
        if (res.ok) return { body: parseJson(text, path), headers: res.headers };
        const error = wooError(text);
        if (res.status === 401 || res.status === 403) throw new ShopUnauthorizedError('woocommerce', res.status, error?.code);
        if (res.status !== 429 && res.status < 500) {
          throw new ShopApiError('woocommerce', `${method} ${url.pathname} → ${res.status}${error ? ` ${error.code}` : ''}`, res.status);
        }
        reason = `HTTP ${res.status}`;
        delay = retryAfterMs(res.headers.get('retry-after'));
      } catch (e) {
        if (e instanceof ShopUnauthorizedError || e instanceof ShopApiError) throw e;
        reason = e instanceof Error && e.name === 'TimeoutError' ? 'timed out' : 'network error';
      }
      if (attempt >= this.maxAttempts) throw new ShopUnavailableError('woocommerce', attempt, reason);
      await this.sleep(Math.min(MAX_DELAY_MS, delay ?? this.backoffMs * 2 ** (attempt - 1)));
    }
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ShopApiError('woocommerce', `${path} answered something that is not JSON`);
  }
}

/** WooCommerce's `{code, message, data: {status}}`; only the code is repeated (messages may quote input). */
function wooError(text: string): WooError | null {
  try {
    const e = JSON.parse(text) as Partial<WooError>;
    return typeof e.code === 'string' ? { code: e.code.slice(0, 100), message: String(e.message ?? '') } : null;
  } catch {
    return null;
  }
}
