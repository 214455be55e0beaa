import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  fakeShopifyProduct,
  fakeWooProduct,
  type FakeShopifyAdmin,
  startFakeShopifyAdmin,
  startWooCommerceFake,
  type WooCommerceFake,
} from '@app/testing';
import { Api, type AppProcess, createTestDatabase, freePort, REDIS_URL, tempDir } from './support/app-process';
import { startMediaServer } from './support/media-server';
import { spawnShopApp } from './support/shop-app';
import { testCertificate } from './support/tls';

/**
 * Shop connections (issue 41, part 1): the connections API and the connection test, through the built service
 * (Postgres + Redis, so the stored row can be read while it runs) against protocol fakes of Shopify's Admin
 * GraphQL API and WooCommerce's REST API, both over https with throwaway certificates the service trusts through
 * NODE_EXTRA_CA_CERTS. The service reaches the Shopify fake through SHOPIFY_ADMIN_BASE_URL (shop domains are
 * `<name>.myshopify.com`), the WooCommerce fake at the address the merchant gives. Every JSON answer is checked
 * against the published OpenAPI document (Api); the credentials are looked for in every answer, the whole log
 * (LOG_LEVEL=debug), the database row and the data directory.
 */
const OWNER = 'owner-key-for-connections-e2e';
const SHOP_NAME = 'Studio North Prints';
const STORE_NAME = 'Atelier Woo';
const secret = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;
const SHOPIFY_TOKEN = secret('shpat_');
const WOO_KEY = secret('ck_');
const WOO_SECRET = secret('cs_');
const SHOPIFY_HOOK = secret('hook-shopify-');
const WOO_HOOK = secret('hook-woo-');
const WRONG_TOKEN = secret('shpat_');
const SECRETS = [SHOPIFY_TOKEN, WOO_KEY, WOO_SECRET, SHOPIFY_HOOK, WOO_HOOK, WRONG_TOKEN];

let shopify: FakeShopifyAdmin;
let woo: WooCommerceFake;
let media: Awaited<ReturnType<typeof startMediaServer>>;
let db: { url: string; drop: () => Promise<void> };
let pg: Client;
let app: AppProcess;
let owner: Api;
let base: string;
let dataDir: string;
/** Every answer's text, to look for the credentials in. */
const answers: string[] = [];

beforeAll(async () => {
  const tls = testCertificate();
  shopify = await startFakeShopifyAdmin({ accessToken: SHOPIFY_TOKEN, shopName: SHOP_NAME, tls: { key: tls.key, cert: tls.cert } });
  shopify.products.push(fakeShopifyProduct(1, 2));
  woo = await startWooCommerceFake({ consumerKey: WOO_KEY, consumerSecret: WOO_SECRET, name: STORE_NAME });
  woo.add(fakeWooProduct(7, { variations: 2 }));
  media = await startMediaServer();
  db = await createTestDatabase({ migrated: true });
  pg = new Client({ connectionString: db.url });
  await pg.connect();
  dataDir = tempDir('connections-e2e-');
  // Both fakes' certificates, trusted by the service's process only.
  ({ app, base } = await spawnShopApp({
    dataDir,
    shopifyUrl: shopify.url,
    certificates: [tls.cert, woo.ca],
    env: {
      OWNER_API_KEY: OWNER,
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_NAME: `connections-${Date.now()}-${Math.random()}`,
      LOG_LEVEL: 'debug',
    },
  }));
  owner = new Api(base, OWNER);
}, 90_000);
afterAll(async () => {
  await app?.kill('SIGKILL');
  await pg?.end();
  await db?.drop();
  await shopify?.close();
  await woo?.close();
  await media?.stop();
});

/** A request whose answer text is kept for the credential search. */
async function call(api: Api, method: string, path: string, body?: unknown) {
  const r = await api.req(method, path, body);
  answers.push(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
  return r;
}

let seq = 0;
async function newUser() {
  const u = await owner.req('POST', '/api/admin/users', {
    email: `con-${Date.now()}-${seq++}@example.com`,
    credits: 20,
    showcase_slots: 3,
  });
  expect(u.status).toBe(201);
  const k = await owner.req('POST', `/api/admin/users/${u.body.id}/keys`);
  const api = new Api(base, k.body.key);
  const s = await api.req('POST', '/api/v2/showcases', { items: [{ image_url: `${media.base}/street.jpg`, title: 'One' }] });
  expect(s.status).toBe(201);
  return { id: u.body.id as string, api, showcaseId: s.body.id as number };
}

const shopifyBody = (showcaseId: number, extra: Record<string, unknown> = {}) => ({
  platform: 'shopify',
  shop_domain: 'studio-north.myshopify.com',
  access_token: SHOPIFY_TOKEN,
  webhook_secret: SHOPIFY_HOOK,
  showcase_id: showcaseId,
  ...extra,
});
const wooBody = (showcaseId: number, extra: Record<string, unknown> = {}) => ({
  platform: 'woocommerce',
  shop_url: `${woo.url}/`,
  consumer_key: WOO_KEY,
  consumer_secret: WOO_SECRET,
  webhook_secret: WOO_HOOK,
  showcase_id: showcaseId,
  ...extra,
});

describe('shop connections', () => {
  let a: Awaited<ReturnType<typeof newUser>>;
  let shopifyId: string;
  let wooId: string;
  beforeAll(async () => {
    a = await newUser();
  });

  it('connects a Shopify and a WooCommerce shop, answering settings and webhook URLs, never the credentials', async () => {
    const s = await call(
      a.api,
      'POST',
      '/api/v2/connections',
      shopifyBody(a.showcaseId, { frames: { 'Oak frame': 'classic', Unframed: null } }),
    );
    expect(s.status).toBe(201);
    expect(s.body).toEqual({
      id: expect.stringMatching(/^con_[a-z2-7]{24}$/),
      object: 'shop_connection',
      platform: 'shopify',
      shop: 'studio-north.myshopify.com',
      showcase_id: a.showcaseId,
      push: 'metafields',
      units: 'cm',
      frames: { 'Oak frame': 'classic', Unframed: null },
      sync_interval_hours: 24,
      status: 'active',
      webhook_urls: { products: `${base}/webhooks/shopify/${s.body.id}` },
      last_sync: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    shopifyId = s.body.id;
    const w = await call(
      a.api,
      'POST',
      '/api/v2/connections',
      wooBody(a.showcaseId, { push: 'none', units: 'in', sync_interval_hours: 0 }),
    );
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({
      platform: 'woocommerce',
      shop: woo.url,
      push: 'none',
      units: 'in',
      sync_interval_hours: 0,
      status: 'active',
    });
    expect(w.body.webhook_urls.products).toBe(`${base}/webhooks/woocommerce/${w.body.id}`);
    wooId = w.body.id;

    const list = await call(a.api, 'GET', '/api/v2/connections');
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([shopifyId, wooId]);
    expect((await call(a.api, 'GET', `/api/v2/connections/${wooId}`)).body).toEqual(w.body);
  });

  it('stores the credentials sealed: the row holds ciphertext, a key id and no plaintext', async () => {
    const { rows } = await pg.query(`SELECT * FROM "shop_connections" WHERE "public_id" = ANY($1) ORDER BY "id"`, [[shopifyId, wooId]]);
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r.secrets_key_id).toMatch(/^[0-9a-f]{16}$/);
      expect(Buffer.from(r.secrets_iv, 'base64')).toHaveLength(12);
      expect(Buffer.from(r.secrets_tag, 'base64')).toHaveLength(16);
      const row = JSON.stringify(r);
      const decoded = Buffer.from(r.secrets_ciphertext, 'base64').toString('latin1');
      for (const s of SECRETS) {
        expect(row).not.toContain(s);
        expect(decoded).not.toContain(s);
      }
    }
    // The key the service generated on its first start, kept beside the owner key's place, readable by its owner only.
    const key = join(dataDir, 'connections-secret-key');
    expect(Buffer.from(readFileSync(key, 'utf8').trim(), 'base64')).toHaveLength(32);
    expect(statSync(key).mode & 0o777).toBe(0o600);
  });

  it('tests each connection against its shop: the shop names itself', async () => {
    const s = await call(a.api, 'POST', `/api/v2/connections/${shopifyId}/test`);
    expect(s).toMatchObject({ status: 200, body: { ok: true, shop_name: SHOP_NAME } });
    expect(shopify.requests.at(-1)).toMatchObject({ operationName: 'ShopInfo', outcome: 'ok' });
    const w = await call(a.api, 'POST', `/api/v2/connections/${wooId}/test`);
    expect(w).toMatchObject({ status: 200, body: { ok: true, shop_name: STORE_NAME } });
    // The key was checked too: the store's currency is behind it.
    expect(woo.requests.map((r) => r.path)).toContain('/wp-json/wc/v3/data/currencies/current');
  });

  it('refuses bad requests naming the field, storing nothing', async () => {
    const before = (await call(a.api, 'GET', '/api/v2/connections')).body.data.length;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [shopifyBody(a.showcaseId, { shop_domain: 'prints.example.com' }), 'shop_domain', /myshopify\.com/],
      [wooBody(a.showcaseId, { shop_url: woo.url.replace('https:', 'http:') }), 'shop_url', /https/],
      [shopifyBody(a.showcaseId, { frames: { 'Oak frame': 'gilded' } }), 'frames.Oak frame', /classic/],
      [wooBody(a.showcaseId, { push: 'metafields+media' }), 'push', /Shopify only/],
      [shopifyBody(a.showcaseId, { platform: 'etsy' }), 'platform', /shopify or woocommerce/],
      [shopifyBody(a.showcaseId, { sync_interval_hours: 500 }), 'sync_interval_hours', /168/],
      [shopifyBody(a.showcaseId, { access_token: '' }), 'access_token', /empty/],
    ];
    for (const [body, param, message] of cases) {
      const r = await call(a.api, 'POST', '/api/v2/connections', body);
      expect({ status: r.status, param: r.body.error?.param }).toEqual({ status: 400, param });
      expect(r.body.error.message).toMatch(message);
    }
    expect((await call(a.api, 'GET', '/api/v2/connections')).body.data).toHaveLength(before);
  });

  it("409 for a shop already connected to that showcase; 404 for a showcase that is not the caller's", async () => {
    const dup = await call(a.api, 'POST', '/api/v2/connections', shopifyBody(a.showcaseId, { shop_domain: 'Studio-North.myshopify.com' }));
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'shop_already_connected', param: 'showcase_id' });
    const b = await newUser();
    const other = await call(b.api, 'POST', '/api/v2/connections', shopifyBody(a.showcaseId));
    expect(other.status).toBe(404);
    // The same shop on the other account's own showcase is its own connection.
    expect((await call(b.api, 'POST', '/api/v2/connections', shopifyBody(b.showcaseId))).status).toBe(201);
    // And another account's connection is no connection.
    expect((await call(b.api, 'GET', `/api/v2/connections/${shopifyId}`)).status).toBe(404);
    expect((await call(b.api, 'POST', `/api/v2/connections/${shopifyId}/test`)).status).toBe(404);
    expect((await call(b.api, 'PATCH', `/api/v2/connections/${shopifyId}`, { status: 'paused' })).status).toBe(404);
    expect((await call(b.api, 'DELETE', `/api/v2/connections/${shopifyId}`)).status).toBe(404);
    expect((await call(b.api, 'GET', '/api/v2/connections')).body.data.map((c: { id: string }) => c.id)).not.toContain(shopifyId);
  });

  it('lets a read_only key list and read, not create, change or test; a widget key sees nothing', async () => {
    const ro = await a.api.req('POST', '/api/v2/keys', { name: 'dashboard', scope: 'read_only' });
    const reader = new Api(base, ro.body.key);
    expect((await call(reader, 'GET', '/api/v2/connections')).body.data).toHaveLength(2);
    expect((await call(reader, 'GET', `/api/v2/connections/${shopifyId}`)).status).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/v2/connections', shopifyBody(a.showcaseId, { shop_domain: 'ro.myshopify.com' })],
      ['PATCH', `/api/v2/connections/${shopifyId}`, { status: 'paused' }],
      ['POST', `/api/v2/connections/${shopifyId}/test`, undefined],
      ['DELETE', `/api/v2/connections/${shopifyId}`, undefined],
    ] as const) {
      const r = await call(reader, method, path, body);
      expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 403, code: 'insufficient_scope' });
    }
    const w = await a.api.req('POST', '/api/v2/keys', { name: 'shop', scope: 'widget', allowed_origins: ['https://shop.example.com'] });
    const widget = new Api(base, w.body.key);
    for (const path of ['/api/v2/connections', `/api/v2/connections/${shopifyId}`]) {
      const r = await widget.req('GET', path, undefined, { origin: 'https://shop.example.com' });
      answers.push(JSON.stringify(r.body));
      expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 403, code: 'insufficient_scope' });
    }
  });

  it('changes settings and pauses; refuses credentials and push of the other platform', async () => {
    const p = await call(a.api, 'PATCH', `/api/v2/connections/${shopifyId}`, {
      push: 'metafields+media',
      units: 'in',
      frames: { Black: 'thin' },
      sync_interval_hours: 6,
      status: 'paused',
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({
      push: 'metafields+media',
      units: 'in',
      frames: { Black: 'thin' },
      sync_interval_hours: 6,
      status: 'paused',
    });
    expect((await call(a.api, 'GET', `/api/v2/connections/${shopifyId}`)).body).toEqual(p.body);
    const refusals: [string, Record<string, unknown>, string][] = [
      [wooId, { push: 'metafields+media' }, 'push'],
      [wooId, { access_token: SHOPIFY_TOKEN }, 'access_token'],
      [shopifyId, { consumer_key: WOO_KEY, consumer_secret: WOO_SECRET }, 'consumer_key'],
      [wooId, { consumer_key: WOO_KEY }, 'consumer_secret'],
      [shopifyId, { shop_domain: 'moved.myshopify.com' }, 'shop_domain'],
      [shopifyId, { status: 'unauthorized' }, 'status'],
    ];
    for (const [id, body, param] of refusals) {
      const r = await call(a.api, 'PATCH', `/api/v2/connections/${id}`, body);
      expect({ status: r.status, param: r.body.error?.param }).toEqual({ status: 400, param });
    }
    const back = await call(a.api, 'PATCH', `/api/v2/connections/${shopifyId}`, { status: 'active', push: 'metafields', units: 'cm' });
    expect(back.body).toMatchObject({ status: 'active', push: 'metafields', units: 'cm', frames: { Black: 'thin' } });
  });

  it('marks a connection unauthorized when the shop refuses its credentials, and active again with new ones', async () => {
    const wrong = await call(a.api, 'PATCH', `/api/v2/connections/${shopifyId}`, { access_token: WRONG_TOKEN });
    expect(wrong.body.status).toBe('active');
    const t = await call(a.api, 'POST', `/api/v2/connections/${shopifyId}/test`);
    expect(t.body).toMatchObject({ ok: false, reason: 'unauthorized', message: expect.stringContaining('HTTP 401') });
    expect((await call(a.api, 'GET', `/api/v2/connections/${shopifyId}`)).body.status).toBe('unauthorized');
    // The webhook secret stays when only the token is replaced.
    const fixed = await call(a.api, 'PATCH', `/api/v2/connections/${shopifyId}`, { access_token: SHOPIFY_TOKEN });
    expect(fixed.body.status).toBe('active');
    expect((await call(a.api, 'POST', `/api/v2/connections/${shopifyId}/test`)).body).toEqual({ ok: true, shop_name: SHOP_NAME });

    // The merchant revokes the WooCommerce key in the store.
    woo.revokeKey();
    const w = await call(a.api, 'POST', `/api/v2/connections/${wooId}/test`);
    expect(w.body).toMatchObject({ ok: false, reason: 'unauthorized' });
    expect((await call(a.api, 'GET', `/api/v2/connections/${wooId}`)).body.status).toBe('unauthorized');
  });

  it('reports a shop that is down or failing as unreachable, after one retry', async () => {
    const port = await freePort();
    const down = await call(a.api, 'POST', '/api/v2/connections', wooBody(a.showcaseId, { shop_url: `https://127.0.0.1:${port}/shop` }));
    expect(down.status).toBe(201);
    const t = await call(a.api, 'POST', `/api/v2/connections/${down.body.id}/test`);
    expect(t.body).toMatchObject({
      ok: false,
      reason: 'unreachable',
      message: expect.stringContaining('woocommerce: shop unavailable after 2 attempts'),
    });
    expect((await call(a.api, 'GET', `/api/v2/connections/${down.body.id}`)).body.status).toBe('active');

    shopify.fault({ status: 503 }, { status: 503 });
    const s = await call(a.api, 'POST', `/api/v2/connections/${shopifyId}/test`);
    expect(s.body).toMatchObject({ ok: false, reason: 'unreachable', message: expect.stringContaining('HTTP 503') });
    expect((await call(a.api, 'GET', `/api/v2/connections/${shopifyId}`)).body.status).toBe('active');
  });

  it('disconnects: the row and its sealed credentials are gone, the showcase stays', async () => {
    expect((await a.api.req('DELETE', `/api/v2/connections/${wooId}`)).status).toBe(204);
    expect((await call(a.api, 'GET', `/api/v2/connections/${wooId}`)).status).toBe(404);
    expect((await pg.query(`SELECT 1 FROM "shop_connections" WHERE "public_id" = $1`, [wooId])).rows).toHaveLength(0);
    expect((await call(a.api, 'GET', `/api/v2/showcases/${a.showcaseId}`)).status).toBe(200);
    expect((await a.api.req('DELETE', `/api/v2/connections/${wooId}`)).status).toBe(404);
  });

  it('never shows a credential: not in any answer, the log, the database or the data directory', async () => {
    expect(answers.length).toBeGreaterThan(40);
    const log = app.output();
    expect(log).toContain(`connection ${shopifyId}: test unauthorized`);
    const dump = (await pg.query(`SELECT row_to_json(c)::text AS t FROM "shop_connections" c`)).rows.map((r) => r.t).join('\n');
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => readFileSync(join(f.parentPath, f.name)).toString('latin1'))
      .join('\n');
    for (const s of SECRETS) {
      for (const [where, text] of [
        ['answers', answers.join('\n')],
        ['log', log],
        ['database', dump],
        ['data directory', files],
      ] as const) {
        expect({ where, found: text.includes(s) }).toEqual({ where, found: false });
      }
    }
  });
});
