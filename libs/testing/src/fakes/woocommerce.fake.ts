import { createHmac } from 'node:crypto';
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fetchTrusting, selfSignedCertificate } from './https-test-origin';

/** A WooCommerce product / variation as REST API v3 serves it (the fields the fake fills). */
export type FakeWooProduct = Record<string, unknown> & { id: number; type: string; status: string; meta_data: FakeMeta[] };
export type FakeWooVariation = Record<string, unknown> & { id: number; meta_data: FakeMeta[] };
type FakeMeta = { id: number; key: string; value: unknown };

/** A scripted failure for the next matching API requests (the WordPress index and all wc/v3 routes). */
export type WooFault = { status: 500 | 502 | 503 } | { status: 429; retryAfter?: string } | { reset: true };

const PER_PAGE_MAX = 100; // WordPress refuses per_page > 100 (rest_invalid_param)
const BATCH_MAX = 100; // woocommerce_rest_batch_items_limit

/**
 * A print with sizes as a shop sells it: `variations` > 0 makes it variable, with a "Size" attribute cycling through
 * real sizes (and a size meta on the first variation so both sources are exercised).
 */
export function fakeWooProduct(
  id: number,
  opts: { variations?: number; status?: string } = {},
): { product: FakeWooProduct; variations: FakeWooVariation[] } {
  const sizes = ['30 x 40 cm', '40 x 50 cm', '50 x 70 cm', '16" x 20"', 'A3', 'A2'];
  const n = opts.variations ?? 0;
  const variations: FakeWooVariation[] = Array.from({ length: n }, (_, i) => ({
    id: id * 1000 + i + 1,
    sku: `P${id}-V${i + 1}`,
    status: 'publish',
    price: `${20 + i}.00`,
    stock_status: i % 5 === 4 ? 'outofstock' : 'instock',
    purchasable: true,
    date_modified_gmt: '2025-03-01T10:00:00',
    image: i === 0 ? { id: 1, src: `https://cdn.example/p${id}-v1.jpg` } : null,
    attributes: [{ id: 1, name: 'Size', option: sizes[i % sizes.length] }],
    meta_data:
      i === 0
        ? [
            { id: 1, key: 'image_ar_width_cm', value: '33.3' },
            { id: 2, key: 'image_ar_height_cm', value: '44.4' },
          ]
        : [],
  }));
  const product: FakeWooProduct = {
    id,
    name: `Print ${id}`,
    type: n > 0 ? 'variable' : 'simple',
    status: opts.status ?? 'publish',
    description: `<p>Print <b>${id}</b> &amp; more</p>`,
    short_description: '',
    sku: n > 0 ? '' : `P${id}`,
    price: '25.00',
    stock_status: 'instock',
    purchasable: true,
    date_modified_gmt: '2025-02-01T10:00:00',
    images: [{ id: 9, src: `https://cdn.example/p${id}.jpg` }],
    attributes: [
      { id: 2, name: 'Artist', variation: false, options: [`Artist ${id % 7}`] },
      ...(n > 0
        ? [{ id: 1, name: 'Size', variation: true, options: sizes.slice(0, Math.min(n, sizes.length)) }]
        : [{ id: 1, name: 'Size', variation: false, options: ['50 x 70 cm'] }]),
    ],
    variations: variations.map((v) => v.id),
    meta_data: [],
  };
  return { product, variations };
}

/** base64 HMAC-SHA256 of the body, as WooCommerce signs webhook deliveries (WC_Webhook::generate_signature). */
export const signWooWebhook = (body: string | Buffer, secret: string): string => createHmac('sha256', secret).update(body).digest('base64');

/**
 * A WooCommerce store speaking REST API v3 over https with a throwaway CA: Basic auth (consumer key and secret),
 * the WordPress index, products and variations with `X-WP-Total`/`X-WP-TotalPages`, the batch endpoints (recorded,
 * and applied to `meta_data`), the current currency, and scripted faults; errors use WooCommerce's
 * `{code, message, data: {status}}`. `fetch` trusts the fake's certificate for clients that take one.
 */
export async function startWooCommerceFake(opts: { consumerKey: string; consumerSecret: string; name?: string; currency?: string }) {
  const products = new Map<number, FakeWooProduct>();
  const variations = new Map<number, FakeWooVariation[]>();
  const faults: { fault: WooFault; match?: RegExp }[] = [];
  const requests: { method: string; path: string; query: Record<string, string> }[] = [];
  const batches: { path: string; update: { id: number; meta_data?: { key: string; value: unknown }[] }[] }[] = [];
  const sockets = new Set<Socket>();
  let revoked = false;
  let paginationHeaders = true;
  const basic = `Basic ${Buffer.from(`${opts.consumerKey}:${opts.consumerSecret}`).toString('base64')}`;
  const { key, cert } = selfSignedCertificate();

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    void res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
  const error = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { code, message, data: { status } });

  function page<T>(res: ServerResponse, all: T[], query: Record<string, string>) {
    const perPage = Number(query.per_page ?? 10);
    const n = Number(query.page ?? 1);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > PER_PAGE_MAX) {
      return error(res, 400, 'rest_invalid_param', 'Invalid parameter(s): per_page');
    }
    const totalPages = Math.ceil(all.length / perPage);
    const headers: Record<string, string> = paginationHeaders
      ? { 'X-WP-Total': String(all.length), 'X-WP-TotalPages': String(totalPages) }
      : {};
    send(res, 200, all.slice((n - 1) * perPage, n * perPage), headers);
  }

  function applyMeta(target: { meta_data: FakeMeta[] }, meta: { key: string; value: unknown }[] = []) {
    for (const m of meta) {
      const existing = target.meta_data.find((x) => x.key === m.key);
      if (existing) existing.value = m.value;
      else target.meta_data.push({ id: target.meta_data.length + 100, key: m.key, value: m.value });
    }
  }

  function batch(res: ServerResponse, path: string, body: unknown, find: (id: number) => { meta_data: FakeMeta[] } | undefined) {
    const update = (body as { update?: { id: number; meta_data?: { key: string; value: unknown }[] }[] } | null)?.update ?? [];
    if (update.length > BATCH_MAX) {
      return error(
        res,
        413,
        'woocommerce_rest_request_entity_too_large',
        `Unable to accept more than ${BATCH_MAX} items for this request.`,
      );
    }
    batches.push({ path, update });
    const out = update.map((u) => {
      const target = find(u.id);
      if (!target)
        return { id: u.id, error: { code: 'woocommerce_rest_product_invalid_id', message: 'Invalid ID.', data: { status: 400 } } };
      applyMeta(target, u.meta_data);
      return target;
    });
    send(res, 200, { update: out });
  }

  function route(req: IncomingMessage, res: ServerResponse, raw: string) {
    const url = new URL(req.url!, 'https://x');
    const query = Object.fromEntries(url.searchParams);
    const path = url.pathname.replace(/\/+$/, '') || '/';
    requests.push({ method: req.method!, path, query });
    const i = faults.findIndex((f) => !f.match || f.match.test(path));
    if (i >= 0) {
      const [{ fault }] = faults.splice(i, 1);
      if ('reset' in fault) return void req.socket.destroy();
      if (fault.status === 429) {
        const body = { code: 'too_many_requests', message: 'Too many requests.', data: { status: 429 } };
        return send(res, 429, body, fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {});
      }
      return error(res, fault.status, 'internal_server_error', 'There has been a critical error on this website.');
    }
    // The index is public in WordPress; everything under wc/v3 needs the key.
    if (path === '/wp-json')
      return send(res, 200, { name: opts.name ?? 'Fake Print Shop', url: `https://127.0.0.1`, namespaces: ['wp/v2', 'wc/v3'] });
    if (!path.startsWith('/wp-json/wc/v3/'))
      return error(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
    if (revoked || req.headers.authorization !== basic)
      return error(res, 401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.');
    const rest = path.slice('/wp-json/wc/v3'.length);
    const body = raw ? (JSON.parse(raw) as unknown) : null;
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && rest === '/data/currencies/current')
      return send(res, 200, { code: opts.currency ?? 'EUR', name: 'Euro', symbol: '€' });
    if (req.method === 'GET' && rest === '/products') {
      const list = [...products.values()]
        .filter((p) => !query.status || query.status === 'any' || p.status === query.status)
        .sort((a, b) => a.id - b.id);
      return page(res, list, query);
    }
    if (req.method === 'POST' && rest === '/products/batch') return batch(res, path, body, (id) => products.get(id));
    if ((m = /^\/products\/(\d+)$/.exec(rest)) && req.method === 'GET') {
      const p = products.get(Number(m[1]));
      return p ? send(res, 200, p) : error(res, 404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
    }
    if ((m = /^\/products\/(\d+)\/variations(\/batch)?$/.exec(rest))) {
      const list = variations.get(Number(m[1]));
      if (!products.has(Number(m[1])) || !list) return error(res, 404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
      if (req.method === 'GET' && !m[2])
        return page(
          res,
          [...list].sort((a, b) => a.id - b.id),
          query,
        );
      if (req.method === 'POST' && m[2]) return batch(res, path, body, (id) => list.find((v) => v.id === id));
    }
    error(res, 404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  const server = createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        route(req, res, Buffer.concat(chunks).toString('utf8'));
      } catch {
        error(res, 400, 'rest_invalid_json', 'Invalid JSON body passed.');
      }
    });
  });
  server.on('secureConnection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = fetchTrusting(cert);

  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The certificate to trust (PEM). */
    ca: cert,
    fetch: client.fetch,
    products,
    variations,
    requests,
    batches,
    add(entry: { product: FakeWooProduct; variations: FakeWooVariation[] }) {
      products.set(entry.product.id, entry.product);
      variations.set(entry.product.id, entry.variations);
    },
    /** Queues `fault` for the next `times` requests whose path matches (all paths when omitted). */
    fail(fault: WooFault, times = 1, match?: RegExp) {
      for (let i = 0; i < times; i++) faults.push({ fault, match });
    },
    /** The merchant revoked the key: every wc/v3 request is 401 from now on. */
    revokeKey: () => void (revoked = true),
    /** As behind a proxy that strips unknown headers: pages come without `X-WP-Total(Pages)`. */
    dropPaginationHeaders: () => void (paginationHeaders = false),
    async close() {
      client.close();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WooCommerceFake = Awaited<ReturnType<typeof startWooCommerceFake>>;
