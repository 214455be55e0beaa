import { fakeWooProduct, startWooCommerceFake, type WooCommerceFake } from '@app/testing';
import { parsePrintSize } from '../size';
import { ShopApiError, ShopUnauthorizedError, ShopUnavailableError } from '../shop-errors';
import type { ShopProduct } from '../shop-product';
import { WooCommerceClient } from './index';

const KEY = 'ck_0123456789abcdef0123456789abcdef01234567';
const SECRET = 'cs_fedcba9876543210fedcba9876543210fedcba98';
const BIG = 77; // the product with 120 variations (two pages of them)

describe('WooCommerceClient against the REST v3 fake (https, Basic auth)', () => {
  let shop: WooCommerceFake;
  let sleeps: number[];
  const client = (over: Partial<ConstructorParameters<typeof WooCommerceClient>[0]> = {}) =>
    new WooCommerceClient({
      shopUrl: shop.url,
      consumerKey: KEY,
      consumerSecret: SECRET,
      fetch: shop.fetch,
      sleep: async (ms) => void sleeps.push(ms),
      ...over,
    });
  const wcRequests = (pattern: RegExp) => shop.requests.filter((r) => pattern.test(r.path));

  beforeEach(async () => {
    shop = await startWooCommerceFake({ consumerKey: KEY, consumerSecret: SECRET, name: 'Atelier Nord', currency: 'SEK' });
    // 250 published products: every 10th variable with 6 sizes, one with 120; 3 drafts that must not be listed.
    for (let id = 1; id <= 250; id++) shop.add(fakeWooProduct(id, { variations: id === BIG ? 120 : id % 10 === 0 ? 6 : 0 }));
    for (let id = 251; id <= 253; id++) shop.add(fakeWooProduct(id, { status: 'draft' }));
    sleeps = [];
  });
  afterEach(() => shop.close());

  it('lists every published product, 100 a page by X-WP-TotalPages, with their variations paginated too', async () => {
    const products: ShopProduct[] = [];
    for await (const p of client().products()) products.push(p);

    expect(products.map((p) => p.id)).toEqual(Array.from({ length: 250 }, (_, i) => String(i + 1)));
    const pages = wcRequests(/^\/wp-json\/wc\/v3\/products$/);
    expect(pages.map((r) => r.query)).toEqual(
      [1, 2, 3].map((page) => ({ status: 'publish', orderby: 'id', order: 'asc', per_page: '100', page: String(page) })),
    );
    expect(wcRequests(new RegExp(`/products/${BIG}/variations$`)).map((r) => r.query.page)).toEqual(['1', '2']);
    // Simple products need no variations request: 25 variable ones take one page, the big one two.
    expect(wcRequests(/\/variations$/).length).toBe(25 + 2);
    const counts = products.map((p) => p.variants.length);
    expect(counts.filter((n) => n === 1).length).toBe(224);
    expect(counts.filter((n) => n === 6).length).toBe(25);
    expect(products[BIG - 1].variants).toHaveLength(120);
    expect(new Set(products[BIG - 1].variants.map((v) => v.id)).size).toBe(120);
  });

  it('without X-WP-TotalPages reads on until a short page', async () => {
    shop.dropPaginationHeaders();
    let n = 0;
    for await (const p of client().products()) n += p.variants.length;
    expect(n).toBe(224 + 25 * 6 + 120);
    expect(wcRequests(/^\/wp-json\/wc\/v3\/products$/).map((r) => r.query.page)).toEqual(['1', '2', '3']);
    expect(wcRequests(new RegExp(`/products/${BIG}/variations$`)).map((r) => r.query.page)).toEqual(['1', '2']);
  });

  it("maps a variable product: artist, text description, the store's currency, stock, images, sizes", async () => {
    const p = await client().product('20');
    expect(p).toMatchObject({
      platform: 'woocommerce',
      id: '20',
      title: 'Print 20',
      artist: 'Artist 6',
      descriptionText: 'Print 20 & more',
      status: 'published',
      featuredImageUrl: 'https://cdn.example/p20.jpg',
      sizeMeta: null,
      updatedAt: '2025-03-01T10:00:00Z', // the variations' date, later than the product's
    });
    expect(p.variants[0]).toEqual({
      id: '20001',
      sku: 'P20-V1',
      title: '30 x 40 cm',
      options: [{ name: 'Size', value: '30 x 40 cm' }],
      price: '20.00',
      currency: 'SEK',
      available: true,
      imageUrl: 'https://cdn.example/p20-v1.jpg',
      sizeMeta: { widthCm: 33.3, heightCm: 44.4 },
    });
    expect(p.variants[4]).toMatchObject({ available: false, imageUrl: null, sizeMeta: null });
    // The sizes the sync will use: metadata first, then the option values.
    const sizes = p.variants.map((v) =>
      parsePrintSize({ variantMeta: v.sizeMeta, productMeta: p.sizeMeta, options: v.options, units: 'cm' }),
    );
    expect(sizes.map((s) => ('error' in s ? s.error : [s.widthCm, s.heightCm, s.source]))).toEqual([
      [33.3, 44.4, 'metadata'],
      [40, 50, 'option'],
      [50, 70, 'option'],
      [40.64, 50.8, 'option'],
      [29.7, 42, 'option'],
      [42, 59.4, 'option'],
    ]);
  });

  it('maps a simple product as its own single variant, its one-valued attributes as options', async () => {
    const p = await client().product('3');
    expect(p.variants).toEqual([
      {
        id: '3',
        sku: 'P3',
        title: 'Print 3',
        options: [{ name: 'Size', value: '50 x 70 cm' }],
        price: '25.00',
        currency: 'SEK',
        available: true,
        imageUrl: null,
        sizeMeta: null,
      },
    ]);
  });

  it('reads a missing product as deleted and a draft as unpublished', async () => {
    await expect(client().product('9999')).resolves.toMatchObject({ id: '9999', status: 'deleted', variants: [] });
    await expect(client().product('251')).resolves.toMatchObject({ status: 'unpublished' });
  });

  it("names the store from the WordPress index, checking the key on the store's currency", async () => {
    await expect(client().storeName()).resolves.toBe('Atelier Nord');
    expect(wcRequests(/currencies\/current$/)).toHaveLength(1);
  });

  it('retries 5xx, 429 (waiting Retry-After) and dropped connections with a growing backoff', async () => {
    shop.fail({ status: 500 }, 2);
    shop.fail({ status: 429, retryAfter: '7' });
    shop.fail({ reset: true });
    const products: ShopProduct[] = [];
    for await (const p of client().products()) products.push(p);
    expect(products).toHaveLength(250);
    // The currency request takes all four faults: 500, 500, 429, reset, then succeeds on the fifth try.
    expect(sleeps).toEqual([500, 1000, 7000, 4000]);
  });

  it('gives up with ShopUnavailableError after the last attempt', async () => {
    shop.fail({ status: 503 }, 10);
    const error = await client({ maxAttempts: 3 })
      .product('1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopUnavailableError);
    expect(error).toMatchObject({ platform: 'woocommerce', attempts: 3, lastReason: 'HTTP 503' });
    expect(sleeps).toEqual([500, 1000]);
  });

  it('throws ShopUnauthorizedError on a revoked key at once, without the key in the message', async () => {
    const c = client();
    await c.storeName();
    shop.revokeKey();
    const before = shop.requests.length;
    const error = await c.product('1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopUnauthorizedError);
    expect(error).toMatchObject({ status: 401 });
    expect((error as Error).message).toBe('woocommerce: credentials refused (HTTP 401): woocommerce_rest_authentication_error');
    expect(shop.requests.length - before).toBe(1); // never retried
    expect(sleeps).toEqual([]);

    const wrong = await client({ consumerSecret: 'cs_wrong' })
      .storeName()
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ShopUnauthorizedError);
    expect(JSON.stringify(wrong) + String(wrong)).not.toMatch(/ck_|cs_/);
  });

  it('refuses a plain-http or malformed shop URL before sending the key', () => {
    expect(() => new WooCommerceClient({ shopUrl: 'http://shop.example', consumerKey: KEY, consumerSecret: SECRET })).toThrow(ShopApiError);
    expect(() => new WooCommerceClient({ shopUrl: 'shop.example', consumerKey: KEY, consumerSecret: SECRET })).toThrow(/not a URL/);
  });

  it('writes image_ar on products and variations through the batch endpoints, 100 objects a request', async () => {
    const updates = Array.from({ length: 250 }, (_, i) => {
      const id = i + 1;
      const count = id === BIG ? 120 : id % 10 === 0 ? 6 : 0;
      return {
        productId: String(id),
        value: { embed_url: `https://ar.example/e/${id}` },
        variations: Array.from({ length: count }, (_, j) => ({ id: String(id * 1000 + j + 1), value: { sku: `P${id}-V${j + 1}` } })),
      };
    });
    updates.push({ productId: '8888', value: { embed_url: 'x' }, variations: [] });
    const { failed } = await client().setModelMeta(updates);

    expect(failed).toEqual([{ id: '8888', message: 'Invalid ID.' }]);
    const productBatches = shop.batches.filter((b) => b.path.endsWith('/products/batch'));
    expect(productBatches.map((b) => b.update.length)).toEqual([100, 100, 51]);
    const big = shop.batches.filter((b) => b.path === `/wp-json/wc/v3/products/${BIG}/variations/batch`);
    expect(big.map((b) => b.update.length)).toEqual([100, 20]);
    expect(shop.batches.filter((b) => /\/variations\/batch$/.test(b.path))).toHaveLength(25 + 2);
    expect(shop.products.get(5)!.meta_data).toContainEqual(
      expect.objectContaining({ key: 'image_ar', value: { embed_url: 'https://ar.example/e/5' } }),
    );
    expect(shop.variations.get(BIG)![119].meta_data).toContainEqual(
      expect.objectContaining({ key: 'image_ar', value: { sku: 'P77-V120' } }),
    );
  });

  it('clears the meta with an empty value when an item goes', async () => {
    await client().setModelMeta([{ productId: '4', value: null, variations: [] }]);
    expect(shop.products.get(4)!.meta_data).toContainEqual(expect.objectContaining({ key: 'image_ar', value: '' }));
  });
});
