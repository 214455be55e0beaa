import { createHmac } from 'node:crypto';
import { parseShopifyProductWebhook, verifyShopifyWebhook } from './shopify-webhook';

const SECRET = 'whsec_9f8e7d6c5b4a';
const sign = (body: Buffer, secret = SECRET) => createHmac('sha256', secret).update(body).digest('base64');

/** A products/update delivery as Shopify's REST shape has it (18-digit ids: beyond 2^53). */
const RAW = Buffer.from(
  `{"id":788032119674292922,"admin_graphql_api_id":"gid://shopify/Product/788032119674292922","title":"Harbour at dawn",` +
    `"body_html":"<p>Giclée print &amp; <em>signed</em></p><script>alert(1)</script><p>Edition of 50</p>","vendor":"Studio North",` +
    `"status":"active","updated_at":"2025-11-02T09:30:00-05:00","options":[{"name":"Size","position":1},{"name":"Frame","position":2}],` +
    `"images":[{"id":111,"src":"https://cdn.shopify.com/a.jpg"},{"id":222,"src":"https://cdn.shopify.com/b.jpg"}],"image":{"id":111,"src":"https://cdn.shopify.com/a.jpg"},` +
    `"metafields":[{"namespace":"image_ar","key":"width_cm","value":"50"},{"namespace":"image_ar","key":"height_cm","value":"70"},{"namespace":"other","key":"artist","value":"x"}],` +
    `"variants":[` +
    `{"id":39072856,"admin_graphql_api_id":"gid://shopify/ProductVariant/808950810099977777","title":"50 x 70 cm / Oak frame","price":"120.00","sku":" HAR-50-OAK ","option1":"50 x 70 cm","option2":"Oak frame","option3":null,"image_id":222,"inventory_quantity":0,"inventory_policy":"deny","inventory_management":"shopify"},` +
    `{"id":39072857,"title":"A3 / Unframed","price":"60.00","sku":"","option1":"A3","option2":"Unframed","option3":null,"image_id":null,"inventory_quantity":3,"inventory_policy":"deny","inventory_management":"shopify"},` +
    `{"id":39072858,"title":"A2 / Unframed","price":"80.00","sku":null,"option1":"A2","option2":"Unframed","image_id":null,"inventory_quantity":0,"inventory_policy":"deny","inventory_management":null}` +
    `]}`,
);

describe('verifyShopifyWebhook', () => {
  it('accepts the HMAC of the raw body with the secret', () => {
    expect(verifyShopifyWebhook(RAW, sign(RAW), SECRET)).toBe(true);
    expect(verifyShopifyWebhook(RAW, ` ${sign(RAW)} `, SECRET)).toBe(true);
  });

  it('refuses another body, another secret, re-serialised JSON, or a missing header or secret', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(RAW.toString())));
    expect(verifyShopifyWebhook(reserialised, sign(RAW), SECRET)).toBe(false);
    expect(verifyShopifyWebhook(Buffer.concat([RAW, Buffer.from(' ')]), sign(RAW), SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, sign(RAW, 'another secret'), SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, undefined, SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, '', SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, sign(RAW), '')).toBe(false);
  });

  it('refuses a header of another length or not base64 without throwing', () => {
    const good = sign(RAW);
    expect(verifyShopifyWebhook(RAW, good.slice(0, -4), SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, `${good}AAAA`, SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, createHmac('sha256', SECRET).update(RAW).digest('hex'), SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, 'not*base64!', SECRET)).toBe(false);
    expect(verifyShopifyWebhook(RAW, 'A'.repeat(10_000), SECRET)).toBe(false);
  });
});

describe('parseShopifyProductWebhook', () => {
  it('maps a products/update payload to a ShopProduct, ids from the GraphQL id (no precision lost)', () => {
    const p = parseShopifyProductWebhook(JSON.parse(RAW.toString()), { topic: 'products/update', currency: 'EUR' });
    expect(p).toMatchObject({
      platform: 'shopify',
      id: '788032119674292922',
      title: 'Harbour at dawn',
      artist: 'Studio North',
      descriptionText: 'Giclée print & signed\n\nEdition of 50',
      status: 'published',
      featuredImageUrl: 'https://cdn.shopify.com/a.jpg',
      sizeMeta: { widthCm: 50, heightCm: 70 },
      updatedAt: '2025-11-02T09:30:00-05:00',
    });
    expect(p?.variants).toEqual([
      {
        id: '808950810099977777',
        sku: 'HAR-50-OAK',
        title: '50 x 70 cm / Oak frame',
        options: [
          { name: 'Size', value: '50 x 70 cm' },
          { name: 'Frame', value: 'Oak frame' },
        ],
        price: '120.00',
        currency: 'EUR',
        available: false,
        imageUrl: 'https://cdn.shopify.com/b.jpg',
        sizeMeta: null,
      },
      expect.objectContaining({
        id: '39072857',
        sku: null,
        options: [
          { name: 'Size', value: 'A3' },
          { name: 'Frame', value: 'Unframed' },
        ],
        available: true,
        imageUrl: null,
      }),
      // Untracked inventory sells at 0.
      expect.objectContaining({ id: '39072858', available: true }),
    ]);
  });

  it('marks draft products unpublished with nothing available, and reads a products/delete as deleted', () => {
    const draft = parseShopifyProductWebhook({ ...JSON.parse(RAW.toString()), status: 'draft' });
    expect(draft?.status).toBe('unpublished');
    expect(draft?.variants.some((v) => v.available)).toBe(false);

    expect(parseShopifyProductWebhook({ id: 788032119674 }, { topic: 'products/delete', receivedAt: '2025-11-03T00:00:00Z' })).toEqual({
      platform: 'shopify',
      id: '788032119674',
      title: '',
      artist: null,
      descriptionText: '',
      status: 'deleted',
      featuredImageUrl: null,
      sizeMeta: null,
      variants: [],
      updatedAt: '2025-11-03T00:00:00Z',
    });
    expect(parseShopifyProductWebhook({ id: 'gid://shopify/Product/42' }, { topic: 'products/delete' })?.id).toBe('42');
  });

  it('drops the "Default Title" option of a product without options, and rejects payloads without an id', () => {
    const simple = parseShopifyProductWebhook({
      id: 7,
      title: 'Poster',
      status: 'active',
      options: [{ name: 'Title', position: 1 }],
      variants: [{ id: 70, title: 'Default Title', option1: 'Default Title', price: 10, inventory_policy: 'continue' }],
    });
    expect(simple?.variants[0]).toMatchObject({ id: '70', options: [], price: '10', available: true });
    expect(parseShopifyProductWebhook({ title: 'no id' })).toBeNull();
    expect(parseShopifyProductWebhook('nonsense')).toBeNull();
    expect(parseShopifyProductWebhook({ id: -5, title: 'x' })).toBeNull();
  });
});
