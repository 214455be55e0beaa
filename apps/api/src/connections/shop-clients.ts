import { Agent, request } from 'node:https';
import type { AppConfig } from '@app/config';
import { BlockedAddressError, guardedLookup, isBlockedHostname } from '@app/plugins';
import { ShopifyAdminClient, WooCommerceClient } from '@app/shops';

/** A connection's credentials in clear: only in memory, for the time one client lives. */
export interface ShopifyClientOptions {
  shopDomain: string;
  accessToken: string;
  /** Tries per request (the connection test: few, a sync: the client's default). */
  maxAttempts?: number;
  timeoutMs?: number;
}

export interface WooCommerceClientOptions {
  shopUrl: string;
  consumerKey: string;
  consumerSecret: string;
  maxAttempts?: number;
  timeoutMs?: number;
}

/**
 * How the connections module (and the sync built on it) makes shop clients: the one seam between a connection's
 * stored settings and the network. The default (see {@link defaultShopClients}) reaches the real shops; a test
 * module may provide another under {@link SHOP_CLIENTS}.
 */
export interface ShopClients {
  shopify(opts: ShopifyClientOptions): ShopifyAdminClient;
  woocommerce(opts: WooCommerceClientOptions): WooCommerceClient;
}

export const SHOP_CLIENTS = Symbol.for('image-ar.shop-clients');

/** Largest answer read from a shop (a page of 100 products with their variations is well under this). */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

// One pool for every shop: a sync sends thousands of requests to the same host.
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * The `fetch` subset the shop clients use (method, headers, a string or byte body, signal), over node:https with
 * the SSRF guard at connect time: a merchant-typed store address that resolves to a private or reserved address is
 * refused unless ALLOW_PRIVATE_NETWORKS (tests, local development). https only, no redirects followed (a client sees
 * the 3xx), answers capped at {@link MAX_ANSWER_BYTES}. The system's certificate authorities (and
 * NODE_EXTRA_CA_CERTS) decide what is trusted.
 */
export function guardedShopFetch(allowPrivateNetworks: boolean): typeof fetch {
  const lookup = guardedLookup(allowPrivateNetworks);
  const fetchFn = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'https:') throw new TypeError('fetch failed', { cause: new Error('shops are reached over https only') });
    // An address literal is connected to without a lookup: checked here; names are checked by the lookup at connect time.
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivateNetworks && isBlockedHostname(host)) throw new TypeError('fetch failed', { cause: new BlockedAddressError(host) });
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    let bytes: Buffer | undefined;
    if (init?.body != null) {
      // Any body fetch takes (a string, bytes, a staged upload's FormData), encoded as fetch would encode it.
      const encoded = new Request('https://body.invalid/', { method: 'POST', body: init.body });
      bytes = Buffer.from(await encoded.arrayBuffer());
      const type = encoded.headers.get('content-type');
      if (type && !Object.keys(headers).includes('content-type')) headers['content-type'] = type;
      headers['content-length'] = String(bytes.length);
    }
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init?.method ?? 'GET', headers, agent, lookup, signal: init?.signal ?? undefined }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_ANSWER_BYTES) res.destroy(new Error(`the shop's answer is over ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(c);
        });
        res.on('error', (e) => reject(new TypeError('fetch failed', { cause: e })));
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304 || init?.method === 'HEAD';
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
        });
      });
      req.on('error', (e) => reject(e.name === 'AbortError' ? e : new TypeError('fetch failed', { cause: e })));
      req.end(bytes);
    });
  };
  return fetchFn as typeof fetch;
}

/**
 * The real clients: WooCommerce at the merchant's address through the SSRF guard; Shopify at
 * `https://<shop>.myshopify.com`, or at SHOPIFY_ADMIN_BASE_URL when the operator set one (a fake in tests, a
 * proxy), which is the operator's choice and so not held to the private-address rule.
 */
export function defaultShopClients(config: Pick<AppConfig, 'allowPrivateNetworks' | 'connections'>): ShopClients {
  const guarded = guardedShopFetch(config.allowPrivateNetworks);
  const override = config.connections.shopifyAdminBaseUrl;
  // The configured backoff (SHOP_RETRY_BACKOFF_MS, default 500 ms): tests of a shop that is down set a short one.
  const backoffMs = config.connections.retryBackoffMs;
  return {
    shopify: (o) =>
      new ShopifyAdminClient({
        shopDomain: o.shopDomain,
        accessToken: o.accessToken,
        maxAttempts: o.maxAttempts,
        backoffMs,
        timeoutMs: o.timeoutMs,
        ...(override ? { endpoint: override, fetch: override.startsWith('https:') ? guardedShopFetch(true) : fetch } : { fetch: guarded }),
      }),
    woocommerce: (o) =>
      new WooCommerceClient({
        shopUrl: o.shopUrl,
        consumerKey: o.consumerKey,
        consumerSecret: o.consumerSecret,
        maxAttempts: o.maxAttempts,
        backoffMs,
        timeoutMs: o.timeoutMs,
        fetch: guarded,
      }),
  };
}
