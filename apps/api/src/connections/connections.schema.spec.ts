import { parseInput, toOpenApi } from '@app/schema';
import { CreateConnectionBody, UpdateConnectionBody } from './connections.schema';

const shopify = {
  platform: 'shopify',
  shop_domain: 'prints.myshopify.com',
  access_token: 'shpat_abc123',
  webhook_secret: 'whs',
  showcase_id: 3,
};
const woo = {
  platform: 'woocommerce',
  shop_url: 'https://shop.example.com/',
  consumer_key: 'ck_1',
  consumer_secret: 'cs_1',
  webhook_secret: 'whs',
  showcase_id: 3,
};

/** The 400 a body gets: its parameter and message. */
function refusal(body: unknown, schema: typeof CreateConnectionBody | typeof UpdateConnectionBody = CreateConnectionBody) {
  try {
    parseInput(schema, body);
  } catch (e) {
    return { param: (e as { param?: string }).param, message: (e as Error).message };
  }
  throw new Error('accepted');
}

describe('connection request schemas', () => {
  it('reads both platforms, normalising the shop and leaving the defaults to the service', () => {
    expect(parseInput(CreateConnectionBody, { ...shopify, shop_domain: 'https://Prints.myshopify.com/admin' })).toEqual({
      ...shopify,
      shop_domain: 'prints.myshopify.com',
    });
    expect(parseInput(CreateConnectionBody, { ...shopify, shop_domain: 'prints' })).toMatchObject({ shop_domain: 'prints.myshopify.com' });
    const w = parseInput(CreateConnectionBody, {
      ...woo,
      shop_url: 'https://shop.example.com/blog/?x=1#y',
      push: 'none',
      units: 'in',
      frames: { 'Oak frame': 'classic', Unframed: null },
      sync_interval_hours: 0,
    });
    expect(w).toMatchObject({ shop_url: 'https://shop.example.com/blog', push: 'none', units: 'in', sync_interval_hours: 0 });
  });

  it('names the field of each refusal', () => {
    expect(refusal({ ...shopify, platform: 'bigcommerce' })).toMatchObject({
      param: 'platform',
      message: 'platform: must be shopify or woocommerce',
    });
    expect(refusal({ ...shopify, shop_domain: 'shop.example.com' }).param).toBe('shop_domain');
    expect(refusal({ ...shopify, shop_domain: 'evil.com/x.myshopify.com' }).param).toBe('shop_domain');
    expect(refusal({ ...woo, shop_url: 'http://shop.example.com' })).toMatchObject({
      param: 'shop_url',
      message: expect.stringContaining('https'),
    });
    expect(refusal({ ...woo, shop_url: 'https://u:p@shop.example.com' }).param).toBe('shop_url');
    expect(refusal({ ...woo, push: 'metafields+media' })).toMatchObject({
      param: 'push',
      message: expect.stringContaining('Shopify only'),
    });
    expect(refusal({ ...shopify, frames: { Oak: 'gilded' } })).toMatchObject({
      param: 'frames.Oak',
      message: expect.stringContaining('classic'),
    });
    expect(refusal({ ...shopify, sync_interval_hours: 169 }).param).toBe('sync_interval_hours');
    expect(refusal({ ...shopify, sync_interval_hours: 1.5 }).param).toBe('sync_interval_hours');
    expect(refusal({ ...shopify, showcase_id: '3' }).param).toBe('showcase_id');
    expect(refusal({ ...shopify, access_token: undefined }).param).toBe('access_token');
    expect(refusal({ ...shopify, shop_url: 'https://x' }).param).toBe('shop_url');
    expect(refusal({ ...woo, access_token: 'shpat_x' }).param).toBe('access_token');
    expect(refusal({ ...shopify, units: 'mm' }).param).toBe('units');
  });

  it('never echoes a credential in a refusal', () => {
    const r = refusal({ ...shopify, access_token: 'shpat secret with spaces' });
    expect(r.param).toBe('access_token');
    expect(r.message).not.toContain('secret with');
  });

  it('takes settings, a pause and credentials on PATCH, not the shop or the showcase', () => {
    expect(parseInput(UpdateConnectionBody, { status: 'paused', units: 'in', access_token: 'shpat_new' })).toEqual({
      status: 'paused',
      units: 'in',
      access_token: 'shpat_new',
    });
    expect(refusal({ status: 'unauthorized' }, UpdateConnectionBody).param).toBe('status');
    expect(refusal({ showcase_id: 4 }, UpdateConnectionBody).param).toBe('showcase_id');
    expect(refusal({ shop_domain: 'x.myshopify.com' }, UpdateConnectionBody).param).toBe('shop_domain');
  });

  it('documents both bodies for OpenAPI, credentials write-only', () => {
    const doc = JSON.stringify(toOpenApi(CreateConnectionBody));
    expect(doc).toContain('shop_domain');
    expect(doc).toContain('consumer_secret');
    expect(doc).toContain('"writeOnly":true');
    // A frame may be null ("no frame"): OpenAPI 3.0 lists null among the enum's values.
    expect(toOpenApi(UpdateConnectionBody).properties.frames.additionalProperties).toMatchObject({
      nullable: true,
      enum: expect.arrayContaining(['classic', null]),
    });
  });
});
