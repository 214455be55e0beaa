import { type FakeShopifyAdmin, startFakeShopifyAdmin } from '@app/testing';
import { ShopApiError, ShopUnauthorizedError, ShopUnavailableError } from '../shop-errors';
import type { ShopProduct } from '../shop-product';
import { ShopifyAdminClient, type ShopifyAdminClientOptions } from './shopify-admin.client';
import { shopifyGid } from './shopify-gid';

const TOKEN = 'shpat_0123456789abcdef0123456789abcdef';

/** Time for both sides: the client's sleep advances it, so waiting out the bucket takes no real time. */
function virtualClock() {
  let t = 1_760_000_000_000;
  const sleeps: number[] = [];
  return { now: () => t, sleep: async (ms: number) => void (sleeps.push(ms), (t += ms)), sleeps };
}

async function collect(gen: AsyncGenerator<ShopProduct>): Promise<ShopProduct[]> {
  const out: ShopProduct[] = [];
  for await (const p of gen) out.push(p);
  return out;
}

describe('ShopifyAdminClient against the Admin GraphQL fake', () => {
  let fake: FakeShopifyAdmin;
  let clock: ReturnType<typeof virtualClock>;
  const client = (extra: Partial<ShopifyAdminClientOptions> = {}) =>
    new ShopifyAdminClient({
      shopDomain: 'fake-prints',
      accessToken: TOKEN,
      endpoint: fake.url,
      now: clock.now,
      sleep: clock.sleep,
      ...extra,
    });
  const start = async (o: Partial<Parameters<typeof startFakeShopifyAdmin>[0]> = {}) => {
    clock = virtualClock();
    fake = await startFakeShopifyAdmin({ accessToken: TOKEN, now: clock.now, ...o });
  };
  afterEach(() => fake?.close());

  it('pages through 120 products × 6 variants, waiting for the cost bucket instead of being throttled', async () => {
    await start({ products: 120, variants: 6 });
    const c = client();
    const products = await collect(c.products());

    expect(products).toHaveLength(120);
    expect(new Set(products.map((p) => p.id)).size).toBe(120);
    expect(products.map((p) => p.id)).toEqual(fake.products.map((p) => String(p.id)));
    const first = products[0];
    expect(first).toMatchObject({
      platform: 'shopify',
      title: fake.products[0].title,
      artist: 'Studio North',
      status: 'published',
      featuredImageUrl: fake.products[0].imageUrl,
      descriptionText: `Giclée print No. ${fake.products[0].id} on cotton rag.\n\nArchival inks`,
    });
    expect(first.variants).toHaveLength(6);
    expect(first.variants[5]).toEqual({
      id: String(fake.products[0].variants[5].id),
      sku: fake.products[0].variants[5].sku,
      title: '45 x 55 cm',
      options: [{ name: 'Size', value: '45 x 55 cm' }],
      price: '79.00',
      currency: 'EUR',
      available: true,
      imageUrl: null,
      sizeMeta: null,
    });
    // 120 products cost far more than the 2000-point bucket: the client waited for restores rather than
    // being refused, and never asked more than Shopify's 1000-point single-query limit.
    const productPages = fake.requests.filter((r) => r.operationName === 'Products');
    expect(productPages).toHaveLength(20);
    expect(fake.requests.every((r) => r.outcome === 'ok')).toBe(true);
    expect(Math.max(...fake.requests.map((r) => r.requestedCost))).toBeLessThanOrEqual(1000);
    const actualTotal = 120 * (16 + 6 * 12) + 20 * 2;
    expect(c.gql.stats.waitedMs).toBeGreaterThanOrEqual(((actualTotal - 2000 - 818) / 100) * 1000);
    expect(c.gql.stats.throttled).toBe(0);
  });

  it('pages the variants of a product with 120 of them on their own', async () => {
    await start({ products: 3, variants: 2 });
    const big = fake.products[1];
    big.variants = Array.from({ length: 120 }, (_, j) => ({
      ...fake.products[0].variants[0],
      id: big.id * 1000 + j + 1,
      sku: `BIG-${j + 1}`,
    }));
    const products = await collect(client().products());

    expect(products.map((p) => p.variants.length)).toEqual([2, 120, 2]);
    expect(products[1].variants.map((v) => v.sku)).toEqual(big.variants.map((v) => v.sku));
    // 10 with the product, then 50, 50 and 10 by ProductVariants.
    expect(fake.requests.filter((r) => r.operationName === 'ProductVariants').map((r) => r.variables.first)).toEqual([50, 50, 50]);
  });

  it('only reads active products, and reads one product (any status) by number or GID for webhooks', async () => {
    await start({ products: 4, variants: 2 });
    fake.products[2].status = 'DRAFT';
    const c = client();
    expect((await collect(c.products())).map((p) => p.id)).toEqual([0, 1, 3].map((i) => String(fake.products[i].id)));

    const draft = await c.product(String(fake.products[2].id));
    expect(draft?.status).toBe('unpublished');
    expect(draft?.variants.every((v) => !v.available)).toBe(true);
    expect((await c.product(shopifyGid('Product', fake.products[0].id)))?.status).toBe('published');
    expect(await c.product('999')).toBeNull();
  });

  it('reads sizes and the artist from image_ar metafields (variant, product; number and dimension values)', async () => {
    await start({ products: 1, variants: 2 });
    const p = fake.products[0];
    p.metafields = { width_cm: '50', height_cm: '70.5', artist: 'Ada Lovelace' };
    p.variants[0].metafields = { width_in: '{"value": 16, "unit": "INCHES"}', height_in: '{"value": 50.8, "unit": "cm"}' };
    p.variants[1].metafields = { width_cm: 'about fifty', height_cm: '0' };
    const [product] = await collect(client().products());

    expect(product.artist).toBe('Ada Lovelace');
    expect(product.sizeMeta).toEqual({ widthCm: 50, heightCm: 70.5 });
    expect(product.variants[0].sizeMeta).toEqual({ widthIn: 16, heightIn: 20 });
    expect(product.variants[1].sizeMeta).toBeNull();
  });

  it('waits out a THROTTLED answer for the time its cost needs to restore, then succeeds', async () => {
    await start({ products: 6, variants: 6, initialAvailable: 100 });
    const c = client();
    await c.shopInfo();
    const products = await collect(c.products());

    expect(products).toHaveLength(6);
    const outcomes = fake.requests.filter((r) => r.operationName === 'Products').map((r) => r.outcome);
    expect(outcomes).toEqual(['throttled', 'ok']);
    // Requested 818 with ~99 left at 100/s: about 7.2 s.
    expect(clock.sleeps.some((ms) => ms >= 7000 && ms <= 8200)).toBe(true);
    expect(c.gql.stats.throttled).toBe(1);
  });

  it('honours a 429 Retry-After, and gives up with ShopUnavailableError when throttling never ends', async () => {
    await start();
    fake.fault({ status: 429, retryAfter: '3' });
    expect(await client().shopName()).toBe('Fake Print Shop');
    expect(clock.sleeps).toEqual([3000]);

    fake.fault(...Array.from({ length: 5 }, () => ({ status: 429 as const, retryAfter: '1.0' })));
    await expect(client({ maxThrottleWaits: 4 }).shopName()).rejects.toThrow(ShopUnavailableError);
  });

  it('retries 5xx and dropped connections with exponential backoff, bounded', async () => {
    await start();
    fake.fault({ status: 500 }, { dropConnection: true }, { status: 503 });
    expect(await client().shopName()).toBe('Fake Print Shop');
    expect(clock.sleeps).toEqual([500, 1000, 2000]);

    fake.fault(...Array.from({ length: 5 }, () => ({ status: 502 as const })));
    const err = await client()
      .shopName()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopUnavailableError);
    expect((err as ShopUnavailableError).attempts).toBe(5);
    expect((err as Error).message).toMatch(/^shopify: shop unavailable after 5 attempts \(HTTP 502\)/);
  });

  it('turns a revoked token into ShopUnauthorizedError at once, without the token in the message', async () => {
    await start({ products: 2, variants: 1 });
    fake.revokeToken();
    const err = await client()
      .shopName()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ShopUnauthorizedError);
    expect((err as ShopUnauthorizedError).status).toBe(401);
    expect((err as Error).message).toMatch(/^shopify: credentials refused \(HTTP 401\)/);
    expect((err as Error).message).not.toContain(TOKEN);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports GraphQL errors as ShopApiError with Shopify’s message', async () => {
    await start({ products: 1, variants: 1 });
    await expect(client().gql.request('Products', 'query Products { products(first: 5) { nodes { id } } }', { first: 5 })).rejects.toThrow(
      new ShopApiError('shopify', 'Products: Variable $variantsFirst of type Int! was provided invalid value'),
    );
  });

  it('writes image_ar.model with metafieldsSet 25 at a time, and reports refused calls whole', async () => {
    await start({ products: 12, variants: 4 });
    const owners = fake.products.flatMap((p) => [
      shopifyGid('Product', p.id),
      ...p.variants.map((v) => shopifyGid('ProductVariant', v.id)),
    ]);
    expect(owners).toHaveLength(60);
    const writes = owners.map((ownerId, i) => ({ ownerId, value: { embed_url: `https://ar.example/e/${i}`, width_cm: 50, sku: null } }));

    const ok = await client().setModelMetafields(writes);
    expect(ok.failed).toEqual([]);
    expect(ok.written).toEqual(owners);
    expect(fake.metafieldsSetCalls.map((c) => c.length)).toEqual([25, 25, 10]);
    expect(fake.metafieldsSetCalls[0][0]).toEqual({
      ownerId: owners[0],
      namespace: 'image_ar',
      key: 'model',
      type: 'json',
      value: JSON.stringify(writes[0].value),
    });
    expect(JSON.parse(fake.products[0].metafields.model)).toEqual(writes[0].value);

    fake.refuseMetafieldOwner(owners[30]);
    const partly = await client().setModelMetafields(writes);
    expect(partly.written).toEqual([...owners.slice(0, 25), ...owners.slice(50)]);
    expect(partly.failed).toHaveLength(25);
    expect(partly.failed.find((f) => f.ownerId === owners[30])).toEqual({
      ownerId: owners[30],
      message: 'Owner does not exist.',
      code: 'INVALID',
    });
    expect(partly.failed.find((f) => f.ownerId === owners[31])?.message).toMatch(/not written/);
    expect(fake.metafieldsSetCalls.map((c) => c.length)).toEqual([25, 25, 10, 25, 10]);
  });

  it('subscribes products/create, update and delete once (a second time counts as existing)', async () => {
    await start();
    const c = client();
    const first = await c.subscribeProductWebhooks('https://ar.example/webhooks/shopify/con_1');
    expect(first.map((r) => [r.topic, r.existed])).toEqual([
      ['PRODUCTS_CREATE', false],
      ['PRODUCTS_UPDATE', false],
      ['PRODUCTS_DELETE', false],
    ]);
    expect(fake.webhookSubscriptions.every((w) => w.metafieldNamespaces.includes('image_ar'))).toBe(true);
    expect((await c.subscribeProductWebhooks('https://ar.example/webhooks/shopify/con_1')).every((r) => r.existed && r.id === null)).toBe(
      true,
    );
    expect(fake.webhookSubscriptions).toHaveLength(3);
    await expect(c.subscribeProductWebhooks('http://ar.example/hook')).rejects.toThrow(ShopApiError);
  });

  it('attaches a GLB through a staged upload (no token sent to storage) and removes it again', async () => {
    await start({ products: 1, variants: 1 });
    const glb = Buffer.concat([Buffer.from('glTF'), Buffer.alloc(60, 7)]);
    const c = client();
    const { mediaId } = await c.attachModel(String(fake.products[0].id), glb, 'print 1.glb');

    expect(mediaId).toMatch(/^gid:\/\/shopify\/Model3d\/\d+$/);
    expect(fake.products[0].media.map((m) => m.id)).toEqual([mediaId]);
    expect([...fake.uploads.values()][0]).toMatchObject({ filename: 'print_1.glb', fileSize: 64 });
    expect([...fake.uploads.values()][0].bytes?.equals(glb)).toBe(true);

    await c.removeMedia([mediaId]);
    expect(fake.products[0].media).toEqual([]);
    await expect(c.attachModel(String(fake.products[0].id), Buffer.from('not a glb, same length'), 'x.glb')).rejects.toThrow(
      /Model3d must be a binary glTF/,
    );
  });

  it('detaches a model from an unpublished product: fileDelete on its media, then metafieldsDelete of image_ar.media', async () => {
    await start({ products: 1, variants: 1 });
    const p = fake.products[0];
    const glb = Buffer.concat([Buffer.from('glTF'), Buffer.alloc(60, 7)]);
    const c = client();
    const { mediaId } = await c.attachModel(String(p.id), glb, 'print.glb');
    await c.setModelMetafields([
      { ownerId: shopifyGid('Product', String(p.id)), key: 'media', value: { media_id: mediaId, glb_url: 'x' } },
    ]);
    p.metafields.model = '{"glb_url":"x"}';

    await c.detachModel(String(p.id), mediaId);
    expect(fake.fileDeleteCalls).toEqual([{ fileIds: [mediaId], deletedFileIds: [mediaId] }]);
    expect(fake.metafieldsDeleteCalls).toEqual([[{ ownerId: shopifyGid('Product', String(p.id)), namespace: 'image_ar', key: 'media' }]]);
    expect(p.media).toEqual([]);
    expect(p.metafields).toEqual({ model: '{"glb_url":"x"}' });
    // Already gone (a second sync, or the merchant deleted it): not an error, nothing more deleted.
    await c.detachModel(String(p.id), mediaId);
    expect(fake.fileDeleteCalls[1]).toEqual({ fileIds: [mediaId], deletedFileIds: [] });
  });

  it('only sends the token to <name>.myshopify.com and API versions from 2025-10', () => {
    expect(new ShopifyAdminClient({ shopDomain: 'https://Fake-Prints.myshopify.com/admin', accessToken: TOKEN }).gql.shopDomain).toBe(
      'fake-prints.myshopify.com',
    );
    expect(() => new ShopifyAdminClient({ shopDomain: 'evil.example.com', accessToken: TOKEN })).toThrow(ShopApiError);
    expect(() => new ShopifyAdminClient({ shopDomain: 'shop.myshopify.com.evil.io', accessToken: TOKEN })).toThrow(ShopApiError);
    expect(() => new ShopifyAdminClient({ shopDomain: 'shop', accessToken: TOKEN, apiVersion: '2024-10' })).toThrow(/older than 2025-10/);
  });
});
