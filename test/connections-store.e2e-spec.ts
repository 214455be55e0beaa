import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { type FakeShopifyAdmin, fakeShopifyProduct, glbPicture, startFakeShopifyAdmin } from '@app/testing';
import { Api, type AppProcess, createTestDatabase, REDIS_URL, spawnApp, tempDir, waitFor } from './support/app-process';
import { spawnShopApp } from './support/shop-app';
import { testCertificate } from './support/tls';

/**
 * The store (issue 41, "Tests and numbers"): a Shopify catalogue of 500 products with 6 variants each,
 * synced end to end in both modes — embedded (one process: PGlite, the queue and the conversions in it) and scaled
 * (Postgres + Redis, an API process `--role api` and a separate worker process) — through the Admin GraphQL
 * protocol fake over https. Each product is one picture (its featured image, a tiny JPEG made with sharp) and six
 * print sizes, written four ways across the store: "W x H cm" options, "W x H in" options, ISO 216 papers (A5…A0)
 * and `image_ar.width_cm`/`height_cm` variant metafields.
 *
 * The whole store is pulled, mapped, charged and converted in each mode: 500 pictures, 3,000 variant GLBs. The
 * pictures are 24 x 32 px, too small for the pages' thumbnails (MIN_THUMBNAIL_POSTER_PX), so a conversion costs
 * what its models cost (about 0.05 CPU-s; the thumbnails' encodes were 0.55 of a tiny picture's 0.6). The account
 * holds exactly the credits for the 500 pictures. Checked per mode: the counts and the credits; every variant's GLB
 * read back at its size to 0.01 in; `image_ar.model` written on each product and each of its variants; a picture
 * without thumbnails shown and shared as its poster; then a re-sync of the unchanged store that creates, charges and
 * writes nothing; then {@link ADDED} new products, synced with the balance spent: each skipped `insufficient_credits`,
 * nothing charged or fetched (the rule for a shop larger than the credits).
 */
const PRODUCTS = 500;
const VARIANTS = 6;
/** Products the shop adds after the store is paid for and converted (the balance then 0): each skipped for credits. */
const ADDED = 20;
const OWNER = 'owner-key-for-connections-store-e2e';
const TOKEN = `shpat_${randomBytes(12).toString('hex')}`;
const HOOK = `hook-${randomBytes(12).toString('hex')}`;
const CM_PER_INCH = 2.54;
/** ISO 216, portrait, in cm. */
const PAPER: Record<string, [number, number]> = {
  A5: [14.8, 21],
  A4: [21, 29.7],
  A3: [29.7, 42],
  A2: [42, 59.4],
  A1: [59.4, 84.1],
  A0: [84.1, 118.9],
};

/** Product `n` (0-based) and its variants' sizes in cm, in one of four ways the shops write them. */
function storeProduct(n: number, pictures: string) {
  const id = 7_100_000_000 + n + 1;
  const p = fakeShopifyProduct(id, VARIANTS);
  p.imageUrl = `${pictures}/p${n}.jpg`;
  const sizes: [number, number][] = [];
  p.variants.forEach((v, j) => {
    switch (n % 4) {
      case 0: // the fake's own "20 x 30 cm" … "45 x 55 cm" options
        sizes.push([20 + 5 * j, 30 + 5 * j]);
        break;
      case 1: {
        const [w, h] = [8 + 2 * j, 10 + 2 * j];
        v.options = [{ name: 'Size', value: `${w} x ${h} in` }];
        sizes.push([w * CM_PER_INCH, h * CM_PER_INCH]);
        break;
      }
      case 2: {
        const paper = Object.keys(PAPER)[j];
        v.options = [{ name: 'Size', value: paper }];
        sizes.push(PAPER[paper]);
        break;
      }
      default: {
        // A metafield wins over the option the variant also carries.
        const [w, h] = [30 + 3 * j + (n % 7), 40 + 4 * j];
        v.metafields = { width_cm: String(w), height_cm: String(h) };
        v.options = [{ name: 'Size', value: `Edition ${j + 1}` }];
        sizes.push([w, h]);
      }
    }
  });
  return { product: p, sizes };
}

/** A tiny JPEG per product (its own colour, so no two pictures are the same bytes), made on first request. */
async function pictureServer(): Promise<{ base: string; fetched: () => number; stop: () => Promise<void> }> {
  const made = new Map<string, Promise<Buffer>>();
  let fetched = 0;
  const server: Server = createServer((req, res) => {
    const m = /^\/p(\d+)\.jpg$/.exec(new URL(req.url!, 'http://x').pathname);
    if (!m) return void res.writeHead(404).end('not found');
    fetched++;
    const n = Number(m[1]);
    let picture = made.get(m[1]);
    if (!picture) {
      const background = { r: (n * 37) % 256, g: (n * 91) % 256, b: (n * 53) % 256 };
      picture = sharp({ create: { width: 24, height: 32, channels: 3, background } })
        .jpeg()
        .toBuffer();
      made.set(m[1], picture);
    }
    void picture.then((bytes) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(bytes));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    fetched: () => fetched,
    stop: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const close = (v: number) => expect.closeTo(v, 2);
const timings: Record<string, Record<string, number>> = {};

afterAll(() => {
  // The measured phases, for the docs and the report (CI's log keeps them).
  console.log(`connections-store timings (s): ${JSON.stringify(timings)}`);
});

describe.each(['embedded', 'scaled'] as const)('a 500 × 6 Shopify store synced end to end (%s)', (mode) => {
  let shopify: FakeShopifyAdmin;
  let pics: Awaited<ReturnType<typeof pictureServer>>;
  let app: AppProcess;
  let worker: AppProcess | undefined;
  let db: { url: string; drop: () => Promise<void> } | undefined;
  let api: Api;
  let showcaseId: number;
  let showcaseUrl: string;
  let dataDir: string;
  let connectionId: string;
  const expected = new Map<string, { sizes: [number, number][]; skus: string[] }>();
  const t: Record<string, number> = (timings[mode] = {});
  const lap = (name: string, since: number) => (t[name] = Math.round((Date.now() - since) / 100) / 10);

  beforeAll(async () => {
    const started = Date.now();
    const tls = testCertificate();
    pics = await pictureServer();
    // A bucket that never runs dry: Shopify's throttling is connections-sync's subject; here 500 × 6 would wait ~7 min
    // for the standard plan's 100 points/s (88 points a product).
    shopify = await startFakeShopifyAdmin({
      accessToken: TOKEN,
      shopName: 'Big Print Shop',
      currency: 'EUR',
      tls,
      maximumAvailable: 1e9,
      restoreRate: 1e9,
    });
    for (let n = 0; n < PRODUCTS; n++) {
      const { product, sizes } = storeProduct(n, pics.base);
      shopify.products.push(product);
      expected.set(`shopify:${product.id}`, { sizes, skus: product.variants.map((v) => v.sku!) });
    }
    const env: Record<string, string> = {
      OWNER_API_KEY: OWNER,
      RATE_LIMIT_PER_KEY: '1000000',
      LOG_LEVEL: 'warn',
      SHOWCASE_MAX_ITEMS: String(PRODUCTS * 2),
    };
    dataDir = tempDir(`connections-store-${mode}-`);
    if (mode === 'scaled') {
      db = await createTestDatabase({ migrated: true });
      Object.assign(env, { DATABASE_URL: db.url, REDIS_URL, QUEUE_NAME: `connections-store-${Date.now()}-${process.pid}` });
    }
    let base: string;
    ({ app, base } = await spawnShopApp({
      dataDir,
      shopifyUrl: shopify.url,
      certificates: [tls.cert],
      env,
      args: mode === 'scaled' ? ['--role', 'api'] : [],
    }));
    if (mode === 'scaled') {
      // The worker shares the API's database, queue and DATA_DIR; it never talks to the shop (the API pulls).
      // Its own log level: the start line it is waited for is an info line.
      worker = spawnApp('worker', { ...env, LOG_LEVEL: 'info', DATA_DIR: dataDir, PUBLIC_BASE_URL: base, ALLOW_PRIVATE_NETWORKS: 'true' });
      await waitFor(
        async () => {
          if (worker!.proc.exitCode !== null) throw new Error(`worker exited: ${worker!.output()}`);
          return /worker \d+ started \(scaled mode/.test(worker!.output());
        },
        60_000,
        'the worker to start',
      );
      expect(app.output()).not.toMatch(/API \+ worker/);
    }
    const owner = new Api(base, OWNER);
    const u = await owner.req('POST', '/api/admin/users', { email: `store-${mode}@example.com`, credits: 10, showcase_slots: 3 });
    expect(u.status).toBe(201);
    api = new Api(base, (await owner.req('POST', `/api/admin/users/${u.body.id}/keys`)).body.key);
    const s = await api.req('POST', '/api/v2/showcases', { units: 'cm' });
    expect(s.status).toBe(201);
    showcaseId = s.body.id;
    showcaseUrl = s.body.url;
    // The showcase paid for, the balance is made exactly what the store's pictures cost.
    const grant = await owner.req('POST', `/api/admin/users/${u.body.id}/credits`, { amount: PRODUCTS * 2 - (await balance()) });
    expect(grant.status).toBe(200);
    expect(await balance()).toBe(PRODUCTS * 2);
    const con = await api.req('POST', '/api/v2/connections', {
      platform: 'shopify',
      shop_domain: 'big-print-shop.myshopify.com',
      access_token: TOKEN,
      webhook_secret: HOOK,
      showcase_id: showcaseId,
      sync_interval_hours: 0,
    });
    expect(con.status).toBe(201);
    connectionId = con.body.id;
    lap('start', started);
  }, 120_000);

  afterAll(async () => {
    await worker?.kill('SIGKILL');
    await app?.kill('SIGKILL');
    await db?.drop();
    await shopify?.close();
    await pics?.stop();
  });

  const balance = async () => (await api.req('GET', '/api/v2/me')).body.credits as number;

  /** Starts a sync and waits until the connection records it done (conversions finished, write-back made). */
  async function sync(timeoutMs: number) {
    const r = await api.req('POST', `/api/v2/connections/${connectionId}/sync`);
    expect(r.status).toBe(202);
    const importId = r.body.import_id as string;
    let imported = 0;
    const con = await waitFor(
      async () => {
        if (!imported && (await api.req('GET', `/api/v2/imports/${importId}`)).body.status === 'completed') imported = Date.now();
        // A process that died says why here, instead of the wait running out on refused connections.
        for (const p of [app, worker]) if (p && p.proc.exitCode !== null) throw new Error(`a process exited: ${p.output().slice(-4000)}`);
        const c = await api.req('GET', `/api/v2/connections/${connectionId}`);
        return c.body.last_sync?.import_id === importId && c.body.last_sync.outcome !== 'running' && c.body;
      },
      timeoutMs,
      `sync ${importId} to be recorded`,
      // Two requests a poll, answered by the process converting the store (a sync takes 20-40 s): every 500 ms,
      // not every 100.
      500,
    );
    const imp = (await api.req('GET', `/api/v2/imports/${importId}?rows=all`)).body;
    return { imp, con, imported };
  }

  it('pulls all 500 products into the import, converts each with every variant at its size (read back from the GLBs), charges each, and writes image_ar.model back to each product and variant', async () => {
    const before = await balance();
    let started = Date.now();
    const { imp, con, imported } = await sync(420_000);
    lap('sync', started);
    t.import = Math.round((imported - started) / 100) / 10;
    expect(con.last_sync.outcome).toBe('completed');
    expect(imp.status).toBe('completed');
    expect(imp.counts).toMatchObject({ rows: PRODUCTS, created: PRODUCTS, updated: 0, unchanged: 0, invalid: 0, skipped: 0, failed: 0 });
    expect(imp.credits_charged).toBe(PRODUCTS * 2);
    expect(await balance()).toBe(before - PRODUCTS * 2);
    // Every product is a row, in the shop's order, each created.
    expect(imp.rows.map((r: any) => [r.row, r.status])).toEqual(Array.from({ length: PRODUCTS }, (_, i) => [i + 1, 'created']));
    expect(pics.fetched()).toBe(PRODUCTS);

    started = Date.now();
    const items = (await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items as any[];
    expect(items).toHaveLength(PRODUCTS);
    expect(items.map((i) => i.external_id).sort()).toEqual(shopify.products.map((p) => `shopify:${p.id}`).sort());
    const glbs: { url: string; size: [number, number] }[] = [];
    for (const item of items) {
      const want = expected.get(item.external_id)!;
      expect(want).toBeDefined();
      expect(item.status).toBe('completed');
      expect(item.variants.map((v: any) => [v.sku, v.status])).toEqual(want.skus.map((sku) => [sku, 'ready']));
      item.variants.forEach((v: any, j: number) => {
        const [w, h] = want.sizes[j];
        expect(v.dimensions_cm).toEqual({ width_cm: close(w), height_cm: close(h) });
        glbs.push({ url: v.glb_url, size: [w, h] });
      });
    }
    expect(new Set(glbs.map((g) => g.url)).size).toBe(PRODUCTS * VARIANTS);
    // Every variant's GLB, read back: the picture's width and height in metres, to 0.01 in of the product's size.
    const read: [number, number][] = [];
    for (let i = 0; i < glbs.length; i += 16)
      read.push(
        ...(await Promise.all(
          glbs.slice(i, i + 16).map(async (g) => {
            const r = await fetch(g.url);
            expect(r.status).toBe(200);
            return (await glbPicture(Buffer.from(await r.arrayBuffer()))).inches;
          }),
        )),
      );
    expect(read).toEqual(glbs.map((g) => [close(g.size[0] / CM_PER_INCH), close(g.size[1] / CM_PER_INCH)]));
    lap('read back', started);

    // Written back: one image_ar.model (json) per product and per variant, each naming its own GLB and size.
    const writes = new Map(shopify.metafieldsSetCalls.flat().map((w) => [w.ownerId, w]));
    expect(shopify.metafieldsSetCalls.flat()).toHaveLength(PRODUCTS * (1 + VARIANTS));
    expect(writes.size).toBe(PRODUCTS * (1 + VARIANTS));
    for (const item of items) {
      const id = item.external_id.slice('shopify:'.length);
      const product = JSON.parse(writes.get(`gid://shopify/Product/${id}`)!.value);
      expect(product).toMatchObject({ glb_url: item.glb_url, sku: item.variants[0].sku });
      for (const v of item.variants) {
        const shopVariant = shopify.products.find((p) => String(p.id) === id)!.variants.find((sv) => sv.sku === v.sku)!;
        const w = writes.get(`gid://shopify/ProductVariant/${shopVariant.id}`)!;
        expect([w.namespace, w.key, w.type]).toEqual(['image_ar', 'model', 'json']);
        expect(JSON.parse(w.value)).toEqual({
          embed_url: v.embed_url,
          glb_url: v.glb_url,
          usdz_url: v.usdz_url,
          poster_url: v.preview_url,
          width_cm: v.dimensions_cm.width_cm,
          height_cm: v.dimensions_cm.height_cm,
          sku: v.sku,
        });
      }
    }

    // A 24 x 32 px picture has no thumbnails (too small to enlarge): none stored, and its page shows and shares its poster.
    const first = items.find((i) => i.external_id === `shopify:${shopify.products[0].id}`)!;
    expect(readdirSync(join(dataDir, 'storage/models', first.job_id)).filter((f) => f.startsWith('thumb-'))).toEqual([]);
    const page = await fetch(`${showcaseUrl}/items/${first.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('/thumb/');
    const og = (key: string) => new RegExp(`<meta property="${key}" content="([^"]*)">`).exec(html)?.[1];
    const poster = await fetch(og('og:image')!.replace(/&amp;/g, '&'));
    expect(poster.status).toBe(200);
    const size = await sharp(Buffer.from(await poster.arrayBuffer())).metadata();
    expect([size.width, size.height]).toEqual([Number(og('og:image:width')), Number(og('og:image:height'))]);
    expect(size.width).toBeLessThan(32);
  }, 600_000);

  it('a re-sync of the unchanged store changes nothing, charges nothing and writes nothing back', async () => {
    const before = await balance();
    const calls = shopify.metafieldsSetCalls.length;
    const started = Date.now();
    const { imp, con } = await sync(120_000);
    lap('re-sync', started);
    expect(con.last_sync.outcome).toBe('completed');
    expect(imp.counts).toMatchObject({
      rows: PRODUCTS,
      created: 0,
      updated: 0,
      unchanged: PRODUCTS,
      invalid: 0,
      skipped: 0,
    });
    expect(imp.credits_charged).toBe(0);
    expect(await balance()).toBe(before);
    expect(shopify.metafieldsSetCalls.length).toBe(calls);
    expect(pics.fetched()).toBe(PRODUCTS);
  }, 150_000);

  it('products added once the balance is spent are skipped for credits: charged nothing, their pictures not fetched, nothing written back', async () => {
    expect(await balance()).toBe(0);
    const calls = shopify.metafieldsSetCalls.length;
    for (let n = PRODUCTS; n < PRODUCTS + ADDED; n++) shopify.products.push(storeProduct(n, pics.base).product);
    const started = Date.now();
    const { imp, con } = await sync(120_000);
    lap('unpaid', started);
    expect(con.last_sync.outcome).toBe('completed');
    expect(imp.counts).toMatchObject({ rows: PRODUCTS + ADDED, created: 0, updated: 0, unchanged: PRODUCTS, invalid: 0, skipped: ADDED });
    expect(imp.rows.slice(PRODUCTS).map((r: any) => [r.row, r.status, r.message])).toEqual(
      Array.from({ length: ADDED }, (_, i) => [PRODUCTS + i + 1, 'skipped', 'insufficient_credits']),
    );
    expect(imp.credits_charged).toBe(0);
    expect(await balance()).toBe(0);
    expect(pics.fetched()).toBe(PRODUCTS);
    expect(shopify.metafieldsSetCalls.length).toBe(calls);
    expect((await api.req('GET', `/api/v2/showcases/${showcaseId}`)).body.items).toHaveLength(PRODUCTS);
  }, 150_000);
});
