import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import {
  type FakeShopifyAdmin,
  fakeShopifyProduct,
  fakeWooProduct,
  signWooWebhook,
  startFakeShopifyAdmin,
  startWooCommerceFake,
  type WooCommerceFake,
} from '@app/testing';
import { Api, type AppProcess, tempDir, waitFor } from './support/app-process';
import { spawnShopApp } from './support/shop-app';
import { testCertificate } from './support/tls';

/**
 * Shop connections, part 2 (issue 41): the sync, the write-back and the webhooks, through the built service
 * (embedded: PGlite, the queue and the conversions in process) against the protocol fakes of Shopify's Admin GraphQL
 * API and WooCommerce's REST API over https (throwaway certificates trusted through NODE_EXTRA_CA_CERTS; Shopify
 * reached through SHOPIFY_ADMIN_BASE_URL). A small store with real conversions: products × variants at sizes read
 * from metafields and option values, a product without a size, a draft; one app for the whole file.
 */
const OWNER = 'owner-key-for-connections-sync-e2e';
const hex = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const SHOPIFY_TOKEN = hex('shpat_');
const SHOPIFY_HOOK = hex('hook-');
const WOO_KEY = hex('ck_');
const WOO_SECRET = hex('cs_');
const WOO_HOOK = hex('hook-');

/** Tiny pictures (fast conversions) for any path ending in .jpg. */
async function pictureServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const picture = await sharp({ create: { width: 60, height: 80, channels: 3, background: '#a5763a' } })
    .jpeg()
    .toBuffer();
  const server: Server = createServer((req, res) => {
    if (!new URL(req.url!, 'http://x').pathname.endsWith('.jpg')) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let shopify: FakeShopifyAdmin;
let woo: WooCommerceFake;
let pics: Awaited<ReturnType<typeof pictureServer>>;
let app: AppProcess;
let owner: Api;
let base: string;
let tls: ReturnType<typeof testCertificate>;

const P1 = 101; // two sizes in its options, the second framed
const P2 = 102; // a size in a variant metafield, an ISO paper in the other option
const P3 = 103; // "Large": no size
const P4 = 104; // a draft: not pulled

beforeAll(async () => {
  pics = await pictureServer();
  tls = testCertificate();
  // A fast-restoring bucket: a throttled shop waits a fraction of a second, not eight.
  shopify = await startFakeShopifyAdmin({ accessToken: SHOPIFY_TOKEN, shopName: 'Studio North', currency: 'EUR', restoreRate: 2000, tls });
  const p1 = fakeShopifyProduct(P1, 2);
  p1.imageUrl = `${pics.base}/p101.jpg`;
  p1.variants[1].options = [
    { name: 'Size', value: '25 x 35 cm' },
    { name: 'Frame', value: 'Oak frame' },
  ];
  const p2 = fakeShopifyProduct(P2, 2);
  p2.imageUrl = `${pics.base}/p102.jpg`;
  p2.vendor = 'Ada North';
  p2.variants[0].metafields = { width_cm: '40', height_cm: '50' };
  p2.variants[0].options = [{ name: 'Size', value: 'Medium' }];
  p2.variants[1].options = [{ name: 'Size', value: 'A4' }];
  const p3 = fakeShopifyProduct(P3, 1);
  p3.imageUrl = `${pics.base}/p103.jpg`;
  p3.variants[0].options = [{ name: 'Size', value: 'Large' }];
  const p4 = fakeShopifyProduct(P4, 1);
  p4.status = 'DRAFT';
  p4.imageUrl = `${pics.base}/p104.jpg`;
  shopify.products.push(p1, p2, p3, p4);

  woo = await startWooCommerceFake({ consumerKey: WOO_KEY, consumerSecret: WOO_SECRET, currency: 'GBP' });
  const w = fakeWooProduct(7, { variations: 2 });
  w.product.images = [{ id: 9, src: `${pics.base}/w7.jpg` }];
  for (const v of w.variations) v.image = null;
  woo.add(w);

  ({ app, base } = await spawnShopApp({
    dataDir: tempDir('connections-sync-e2e-'),
    shopifyUrl: shopify.url,
    certificates: [tls.cert, woo.ca],
    // A short retry backoff (the default 500 ms doubles to 7.5 s over five tries): a shop that is down fails fast.
    env: { OWNER_API_KEY: OWNER, RATE_LIMIT_PER_KEY: '1000000', LOG_LEVEL: 'warn', SHOP_RETRY_BACKOFF_MS: '20' },
  }));
  owner = new Api(base, OWNER);
}, 90_000);

afterAll(async () => {
  await app?.kill('SIGKILL');
  await shopify?.close();
  await woo?.close();
  await pics?.stop();
});

let seq = 0;
async function newUser(credits: number) {
  const u = await owner.req('POST', '/api/admin/users', { email: `sync-${Date.now()}-${seq++}@example.com`, credits, showcase_slots: 3 });
  expect(u.status).toBe(201);
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  const api = new Api(base, k.body.key);
  const s = await api.req('POST', '/api/v2/showcases', { units: 'cm' });
  expect(s.status).toBe(201);
  return { api, showcaseId: s.body.id as number };
}

const balance = async (api: Api) => (await api.req('GET', '/api/v2/me')).body.credits as number;

async function connection(api: Api, body: Record<string, unknown>) {
  const r = await api.req('POST', '/api/v2/connections', body);
  expect(r.status).toBe(201);
  return r.body as { id: string; webhook_urls: { products: string } };
}

/** Starts a sync and waits for its import to complete and for the connection to record it (the write-back done). */
async function sync(api: Api, id: string, requests = 1) {
  const answers = await Promise.all(Array.from({ length: requests }, () => api.req('POST', `/api/v2/connections/${id}/sync`)));
  const r = answers[0];
  expect(r.status).toBe(202);
  expect(r.body.import_id).toMatch(/^imp_/);
  // Asked again while it runs: the same sync.
  for (const other of answers) expect(other.body).toEqual(r.body);
  const importId = r.body.import_id as string;
  const con = await waitFor(
    async () => {
      const c = await api.req('GET', `/api/v2/connections/${id}`);
      return c.body.last_sync?.import_id === importId && c.body.last_sync.outcome !== 'running' && c.body;
    },
    120_000,
    `sync ${importId} to be recorded`,
  );
  const imp = (await api.req('GET', `/api/v2/imports/${importId}?rows=all`)).body;
  expect(imp.status).toBe('completed');
  return { importId, imp, con };
}

const items = async (api: Api, showcaseId: number) => (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items as any[];
const byExt = (list: any[], ext: string) => list.find((i) => i.external_id === ext);
const shopifyHook = (body: string, secret = SHOPIFY_HOOK) => createHmac('sha256', secret).update(body).digest('base64');

async function postWebhook(url: string, body: string, headers: Record<string, string>) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: r.status, body: await r.text() };
}

describe('shop sync (Shopify)', () => {
  let a: Awaited<ReturnType<typeof newUser>>;
  let con: { id: string; webhook_urls: { products: string } };

  beforeAll(async () => {
    a = await newUser(20);
    con = await connection(a.api, {
      platform: 'shopify',
      shop_domain: 'studio-north.myshopify.com',
      access_token: SHOPIFY_TOKEN,
      webhook_secret: SHOPIFY_HOOK,
      showcase_id: a.showcaseId,
      frames: { 'Oak frame': 'classic' },
    });
  });

  it('syncs the published products into items at their real sizes, charges each new picture, reports size_unknown, writes the AR links back', async () => {
    const before = await balance(a.api);
    const { imp, con: after } = await sync(a.api, con.id);
    // P1, P2 created; P3 invalid (no size); P4 is a draft and never pulled.
    expect(imp.counts).toMatchObject({ rows: 3, created: 2, invalid: 1, updated: 0, unchanged: 0, skipped: 0 });
    expect(imp.credits_charged).toBe(4);
    expect(await balance(a.api)).toBe(before - 4);
    const unknown = imp.rows.find((r: any) => r.status === 'invalid');
    expect(unknown).toMatchObject({ field: 'size', message: expect.stringMatching(/^size_unknown: shopify:103 .*Size: Large/) });
    expect(after.last_sync).toMatchObject({ outcome: 'completed' });
    expect(after.status).toBe('active');

    const list = await items(a.api, a.showcaseId);
    expect(list.map((i) => i.external_id).sort()).toEqual([`shopify:${P1}`, `shopify:${P2}`]);
    const p1 = byExt(list, `shopify:${P1}`);
    expect(p1.status).toBe('completed');
    expect(p1.artist).toBe('Studio North');
    expect(p1.description).toBe(`Giclée print No. ${P1} on cotton rag.\n\nArchival inks`);
    expect(p1.variants.map((v: any) => [v.sku, v.price, v.dimensions_cm, v.frame?.style ?? null])).toEqual([
      [`P${P1}-1`, '€29.00', { width_cm: 20, height_cm: 30 }, 'none'],
      [`P${P1}-2`, '€39.00', { width_cm: 25, height_cm: 35 }, 'classic'],
    ]);
    const p2 = byExt(list, `shopify:${P2}`);
    expect(p2.artist).toBe('Ada North');
    expect(p2.variants.map((v: any) => v.dimensions_cm)).toEqual([
      { width_cm: 40, height_cm: 50 },
      { width_cm: 21, height_cm: 29.7 },
    ]);

    // Written back: image_ar.model (json) on both products and their four variants, pointing at the files.
    const writes = shopify.metafieldsSetCalls.flat();
    expect(writes).toHaveLength(6);
    expect(new Set(writes.map((w) => `${w.namespace}.${w.key}:${w.type}`))).toEqual(new Set(['image_ar.model:json']));
    const variantWrite = writes.find((w) => w.ownerId === `gid://shopify/ProductVariant/${P1 * 1000 + 2}`)!;
    const v2 = p1.variants[1];
    expect(JSON.parse(variantWrite.value)).toEqual({
      embed_url: v2.embed_url,
      glb_url: v2.glb_url,
      usdz_url: v2.usdz_url,
      poster_url: v2.preview_url,
      width_cm: 25,
      height_cm: 35,
      sku: `P${P1}-2`,
    });
    const productWrite = writes.find((w) => w.ownerId === `gid://shopify/Product/${P1}`)!;
    expect(JSON.parse(productWrite.value)).toMatchObject({ glb_url: p1.glb_url, sku: `P${P1}-1`, width_cm: 20, height_cm: 30 });
    // The GLB is served at the size written back.
    const glb = await fetch(p1.variants[1].glb_url);
    expect(glb.status).toBe(200);
  });

  it('a second sync of the unchanged shop changes nothing, charges nothing and writes nothing back (asked twice at once: one sync)', async () => {
    const before = await balance(a.api);
    const calls = shopify.metafieldsSetCalls.length;
    const { imp } = await sync(a.api, con.id, 2);
    expect(imp.counts).toMatchObject({ rows: 3, created: 0, updated: 0, unchanged: 2, invalid: 1 });
    expect(imp.credits_charged).toBe(0);
    expect(await balance(a.api)).toBe(before);
    expect(shopify.metafieldsSetCalls.length).toBe(calls);
  });

  it('a signed products/update webhook syncs that product within seconds; a replay is applied once; a bad signature is 401 and changes nothing', async () => {
    const p1 = shopify.products.find((p) => p.id === P1)!;
    p1.title = 'Dunes, second edition';
    p1.variants[0].price = '31.00';
    const body = JSON.stringify({ id: P1, admin_graphql_api_id: `gid://shopify/Product/${P1}`, title: p1.title, status: 'active' });
    const headers = {
      'x-shopify-topic': 'products/update',
      'x-shopify-shop-domain': 'studio-north.myshopify.com',
      'x-shopify-webhook-id': 'delivery-1',
    };

    // A wrong signature, and a right one over other bytes: refused, and the shop is not even asked.
    const asked = shopify.requests.length;
    expect(
      (await postWebhook(con.webhook_urls.products, body, { ...headers, 'x-shopify-hmac-sha256': shopifyHook(body, 'wrong') })).status,
    ).toBe(401);
    expect(
      (await postWebhook(con.webhook_urls.products, body, { ...headers, 'x-shopify-hmac-sha256': shopifyHook(`${body} `) })).status,
    ).toBe(401);
    expect((await postWebhook(con.webhook_urls.products, body, headers)).status).toBe(401);
    expect(shopify.requests.length).toBe(asked);

    const ok = await postWebhook(con.webhook_urls.products, body, { ...headers, 'x-shopify-hmac-sha256': shopifyHook(body) });
    expect(ok.status).toBe(200);
    const started = Date.now();
    const item = await waitFor(
      async () => {
        const i = byExt(await items(a.api, a.showcaseId), `shopify:${P1}`);
        return i?.variants[0].price === '€31.00' && i;
      },
      20_000,
      'the webhook to update the item',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(item.banner?.title ?? item.title).toBe('Dunes, second edition');
    const productReads = () => shopify.requests.filter((r) => r.operationName === 'Product').length;
    const reads = productReads();
    // The same delivery again: acknowledged, not applied.
    const replay = await postWebhook(con.webhook_urls.products, body, { ...headers, 'x-shopify-hmac-sha256': shopifyHook(body) });
    expect(replay.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(productReads()).toBe(reads);
  });

  it('a products/delete webhook hides the item (not_for_sale)', async () => {
    const body = JSON.stringify({ id: P2 });
    shopify.products.splice(
      shopify.products.findIndex((p) => p.id === P2),
      1,
    );
    const r = await postWebhook(con.webhook_urls.products, body, {
      'x-shopify-topic': 'products/delete',
      'x-shopify-webhook-id': 'delivery-2',
      'x-shopify-hmac-sha256': shopifyHook(body),
    });
    expect(r.status).toBe(200);
    await waitFor(
      async () => byExt(await items(a.api, a.showcaseId), `shopify:${P2}`)?.availability === 'not_for_sale',
      20_000,
      'P2 hidden',
    );
  });

  it('a throttled shop is waited for, not failed', async () => {
    shopify.setAvailable(0);
    shopify.fault({ throttled: true }, { status: 429, retryAfter: '1' });
    const { imp, con: after } = await sync(a.api, con.id);
    expect(after.last_sync.outcome).toBe('completed');
    expect(imp.counts).toMatchObject({ rows: 2, invalid: 1, created: 0 });
    expect(shopify.requests.some((r) => r.outcome === 'throttled' || r.outcome === 'fault')).toBe(true);
  });

  it('push "metafields+media" puts the GLB in the product media once, its media id kept in image_ar.media', async () => {
    expect((await a.api.req('PATCH', `/api/v2/connections/${con.id}`, { push: 'metafields+media' })).status).toBe(200);
    const { con: after } = await sync(a.api, con.id);
    expect(after.last_sync.outcome).toBe('completed');
    const p1 = shopify.products.find((p) => p.id === P1)!;
    expect(p1.media).toHaveLength(1);
    const item = byExt(await items(a.api, a.showcaseId), `shopify:${P1}`);
    const upload = [...shopify.uploads.values()].find((u) => u.resourceUrl === p1.media[0].resourceUrl)!;
    const glb = Buffer.from(await (await fetch(item.glb_url)).arrayBuffer());
    expect(upload.bytes?.equals(glb)).toBe(true);
    expect(JSON.parse(p1.metafields.media)).toEqual({ media_id: p1.media[0].id, glb_url: item.glb_url });
    // Synced again: the media holds that GLB already, nothing is uploaded.
    const uploads = shopify.uploads.size;
    await sync(a.api, con.id);
    expect(p1.media).toHaveLength(1);
    expect(shopify.uploads.size).toBe(uploads);
  });

  it('a new product image is a new picture: charged once, the item replaced, its media and links with it', async () => {
    const p1 = shopify.products.find((p) => p.id === P1)!;
    const before = await balance(a.api);
    const old = byExt(await items(a.api, a.showcaseId), `shopify:${P1}`);
    const oldMedia = p1.media[0].id;
    p1.imageUrl = `${pics.base}/p101-v2.jpg`;
    const { imp } = await sync(a.api, con.id);
    expect(imp.counts).toMatchObject({ rows: 2, created: 1, invalid: 1 });
    expect(imp.credits_charged).toBe(2);
    expect(await balance(a.api)).toBe(before - 2);
    const list = await items(a.api, a.showcaseId);
    const now = byExt(list, `shopify:${P1}`);
    expect(now.id).not.toBe(old.id);
    expect(now.source_url).toBe(`${pics.base}/p101-v2.jpg`);
    expect(list.some((i) => i.id === old.id)).toBe(false);
    expect(p1.media).toHaveLength(1);
    expect(p1.media[0].id).not.toBe(oldMedia);
    expect(JSON.parse(p1.metafields.model).glb_url).toBe(now.glb_url);
  });

  it('a product unpublished (webhook): its item hidden, its GLB media deleted (fileDelete) with the image_ar.media naming it; published again: attached anew, free', async () => {
    const p1 = shopify.products.find((p) => p.id === P1)!;
    const mediaId = p1.media[0].id;
    const model = p1.metafields.model;
    const deletes = shopify.fileDeleteCalls.length;
    p1.status = 'DRAFT';
    const body = JSON.stringify({ id: P1, admin_graphql_api_id: `gid://shopify/Product/${P1}`, status: 'draft' });
    const r = await postWebhook(con.webhook_urls.products, body, {
      'x-shopify-topic': 'products/update',
      'x-shopify-webhook-id': 'delivery-3',
      'x-shopify-hmac-sha256': shopifyHook(body),
    });
    expect(r.status).toBe(200);
    await waitFor(
      async () => byExt(await items(a.api, a.showcaseId), `shopify:${P1}`)?.availability === 'not_for_sale',
      20_000,
      'P1 hidden',
    );
    await waitFor(async () => p1.media.length === 0 && !('media' in p1.metafields), 20_000, "P1's media removed");
    // Deleted the way Shopify documents: fileDelete with the media's id, then the metafield that named it.
    expect(shopify.fileDeleteCalls.slice(deletes)).toEqual([{ fileIds: [mediaId], deletedFileIds: [mediaId] }]);
    expect(shopify.metafieldsDeleteCalls.at(-1)).toEqual([{ ownerId: `gid://shopify/Product/${P1}`, namespace: 'image_ar', key: 'media' }]);
    // The model metafield stays: a draft is not on the storefront, and its links still answer.
    expect(p1.metafields.model).toBe(model);

    // A full sync while it is unpublished removes nothing more.
    await sync(a.api, con.id);
    expect(shopify.fileDeleteCalls.length).toBe(deletes + 1);

    // Published again: the item shows, and the GLB goes back into the product's media (no new picture, no charge).
    const before = await balance(a.api);
    p1.status = 'ACTIVE';
    const { imp, con: after } = await sync(a.api, con.id);
    expect(after.last_sync.outcome).toBe('completed');
    expect(imp.credits_charged).toBe(0);
    expect(await balance(a.api)).toBe(before);
    const item = byExt(await items(a.api, a.showcaseId), `shopify:${P1}`);
    expect(item.availability).not.toBe('not_for_sale');
    expect(p1.media).toHaveLength(1);
    expect(p1.media[0].id).not.toBe(mediaId);
    expect(JSON.parse(p1.metafields.media)).toEqual({ media_id: p1.media[0].id, glb_url: item.glb_url });
  });

  it('revoked credentials: the sync reports why, charges nothing, and the connection shows unauthorized', async () => {
    shopify.revokeToken();
    try {
      const before = await balance(a.api);
      const { imp, con: after } = await sync(a.api, con.id);
      expect(after.status).toBe('unauthorized');
      expect(after.last_sync.outcome).toBe('unauthorized');
      expect(imp.credits_charged).toBe(0);
      expect(imp.rows).toEqual([
        expect.objectContaining({ status: 'skipped', message: expect.stringMatching(/^sync_failed: shopify: credentials refused/) }),
      ]);
      expect(await balance(a.api)).toBe(before);
    } finally {
      shopify.restoreToken();
    }
    // The merchant gave the app its access back: the next sync that reaches the shop makes the connection active.
    const { con: again } = await sync(a.api, con.id);
    expect(again.last_sync.outcome).toBe('completed');
    expect(again.status).toBe('active');
  });

  it('a read_only key cannot start a sync', async () => {
    const ro = await a.api.req('POST', '/api/v2/keys', { name: 'dashboard', scope: 'read_only' });
    const r = await new Api(base, ro.body.key).req('POST', `/api/v2/connections/${con.id}/sync`);
    expect(r.status).toBe(403);
  });
});

describe('shop sync (WooCommerce)', () => {
  it('syncs a variable product, writes the image_ar meta through the batch endpoints, and takes signed webhooks (ping too)', async () => {
    const a = await newUser(20);
    const con = await connection(a.api, {
      platform: 'woocommerce',
      shop_url: woo.url,
      consumer_key: WOO_KEY,
      consumer_secret: WOO_SECRET,
      webhook_secret: WOO_HOOK,
      showcase_id: a.showcaseId,
    });
    const { imp } = await sync(a.api, con.id);
    expect(imp.counts).toMatchObject({ rows: 1, created: 1 });
    expect(imp.credits_charged).toBe(2);
    const item = byExt(await items(a.api, a.showcaseId), 'woocommerce:7');
    expect(item.artist).toBe('Artist 0');
    // The first variation's meta (33.3 × 44.4 cm) wins over its option; the second's option "40 x 50 cm".
    expect(item.variants.map((v: any) => [v.sku, v.price, v.dimensions_cm])).toEqual([
      ['P7-V1', '£20.00', { width_cm: 33.3, height_cm: 44.4 }],
      ['P7-V2', '£21.00', { width_cm: 40, height_cm: 50 }],
    ]);
    const product = woo.products.get(7)!;
    expect(product.meta_data.find((m) => m.key === 'image_ar')?.value).toMatchObject({ glb_url: item.glb_url, sku: 'P7-V1' });
    const v2 = woo.variations.get(7)!.find((v) => v.id === 7002)!;
    expect(v2.meta_data.find((m) => m.key === 'image_ar')?.value).toMatchObject({ glb_url: item.variants[1].glb_url, width_cm: 40 });
    expect(woo.batches.map((b) => b.path).sort()).toEqual(['/wp-json/wc/v3/products/7/variations/batch', '/wp-json/wc/v3/products/batch']);

    // WooCommerce's unsigned ping when the merchant saves the webhook.
    const ping = await fetch(con.webhook_urls.products, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'webhook_id=12',
    });
    expect(ping.status).toBe(200);
    // A signed product.updated: the price change arrives.
    (woo.variations.get(7)![1] as Record<string, unknown>).price = '24.00';
    const body = JSON.stringify({ id: 7, name: 'Print 7', type: 'variable', status: 'publish' });
    const headers = { 'x-wc-webhook-topic': 'product.updated', 'x-wc-webhook-delivery-id': '501' };
    expect(
      (await postWebhook(con.webhook_urls.products, body, { ...headers, 'x-wc-webhook-signature': signWooWebhook(body, 'nope') })).status,
    ).toBe(401);
    const ok = await postWebhook(con.webhook_urls.products, body, { ...headers, 'x-wc-webhook-signature': signWooWebhook(body, WOO_HOOK) });
    expect(ok.status).toBe(200);
    await waitFor(
      async () => byExt(await items(a.api, a.showcaseId), 'woocommerce:7')?.variants[1].price === '£24.00',
      20_000,
      'the webhook to update the price',
    );
  });
});

describe('a shop that is down', () => {
  it('Shopify answering 503 to every try: the import completes with the reason, nothing charged, last_sync failed; back up, the next sync succeeds', async () => {
    const a = await newUser(20);
    const con = await connection(a.api, {
      platform: 'shopify',
      shop_domain: 'studio-north.myshopify.com',
      access_token: SHOPIFY_TOKEN,
      webhook_secret: SHOPIFY_HOOK,
      showcase_id: a.showcaseId,
    });
    const before = await balance(a.api);
    const asked = shopify.requests.length;
    // Five tries (the client's default), each answered 503 without a Retry-After: the configured 20 ms backoff, doubled.
    shopify.fault(...Array.from({ length: 5 }, () => ({ status: 503 as const })));
    const { imp, con: after } = await sync(a.api, con.id);
    expect(after.last_sync.outcome).toMatch(/^failed: shopify: shop unavailable after 5 attempts \(HTTP 503\)/);
    expect(after.status).toBe('active');
    expect(imp.credits_charged).toBe(0);
    expect(imp.counts).toMatchObject({ created: 0, updated: 0, skipped: 1 });
    expect(imp.rows).toEqual([
      expect.objectContaining({ status: 'skipped', message: expect.stringMatching(/^sync_failed: shopify: shop unavailable/) }),
    ]);
    expect(shopify.requests.slice(asked).map((r) => r.outcome)).toEqual(['fault', 'fault', 'fault', 'fault', 'fault']);
    expect(await balance(a.api)).toBe(before);
    expect(await items(a.api, a.showcaseId)).toEqual([]);

    // The shop is back: the next sync reads it and creates its published product with a size.
    const { imp: again, con: up } = await sync(a.api, con.id);
    expect(up.last_sync.outcome).toBe('completed');
    expect(up.status).toBe('active');
    expect(again.counts).toMatchObject({ created: 1, skipped: 0 });
    expect(again.credits_charged).toBe(2);
    expect(await balance(a.api)).toBe(before - 2);
    expect((await items(a.api, a.showcaseId)).map((i) => i.external_id)).toEqual([`shopify:${P1}`]);
  });

  it('WooCommerce answering 503 to every call: the import completes with the reason, nothing charged, last_sync failed', async () => {
    // A WooCommerce store behind a maintenance page: 503 on every request. Its Retry-After of 0 is the retry backoff
    // (the client honours the shop's hint), so the five tries take no time.
    let asked = 0;
    const down = createHttpsServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
      asked++;
      res.writeHead(503, { 'content-type': 'text/html', 'retry-after': '0' }).end('<h1>Down for maintenance</h1>');
    });
    await new Promise<void>((r) => down.listen(0, '127.0.0.1', r));
    try {
      const a = await newUser(20);
      const con = await connection(a.api, {
        platform: 'woocommerce',
        shop_url: `https://127.0.0.1:${(down.address() as AddressInfo).port}`,
        consumer_key: WOO_KEY,
        consumer_secret: WOO_SECRET,
        webhook_secret: WOO_HOOK,
        showcase_id: a.showcaseId,
      });
      const before = await balance(a.api);
      const { imp, con: after } = await sync(a.api, con.id);
      expect(after.last_sync.outcome).toMatch(/^failed: woocommerce: shop unavailable after 5 attempts \(HTTP 503\)/);
      expect(after.status).toBe('active');
      expect(imp.credits_charged).toBe(0);
      expect(imp.counts).toMatchObject({ created: 0, updated: 0, skipped: 1 });
      expect(imp.rows).toEqual([
        expect.objectContaining({ status: 'skipped', message: expect.stringMatching(/^sync_failed: woocommerce: shop unavailable/) }),
      ]);
      expect(await balance(a.api)).toBe(before);
      expect(await items(a.api, a.showcaseId)).toEqual([]);
      expect(asked).toBeGreaterThanOrEqual(5);
    } finally {
      down.closeAllConnections();
      await new Promise<void>((r) => down.close(() => r()));
    }
  });
});
