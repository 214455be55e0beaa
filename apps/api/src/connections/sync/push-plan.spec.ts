import { type ItemViewLike, mediaPlan, productModel, pushPlan, variantModel } from './push-plan';

const files = (n: string) => ({
  glb_url: `https://ar.example/f/${n}.glb`,
  usdz_url: `https://ar.example/f/${n}.usdz`,
  preview_url: `https://ar.example/f/${n}.jpg`,
});

const item = (over: Partial<ItemViewLike> = {}): ItemViewLike => ({
  external_id: 'shopify:81',
  status: 'completed',
  embed_url: 'https://ar.example/embed/emb_1',
  ...files('main'),
  dimensions_cm: { width_cm: 50, height_cm: 70 },
  variants: [
    {
      sku: 'A3',
      default: false,
      status: 'ready',
      embed_url: 'https://ar.example/embed/emb_1?variant=A3',
      ...files('a3'),
      dimensions_cm: { width_cm: 29.7, height_cm: 42 },
    },
    {
      sku: 'B2',
      default: true,
      status: 'ready',
      embed_url: 'https://ar.example/embed/emb_1?variant=B2',
      ...files('main'),
      dimensions_cm: { width_cm: 50, height_cm: 70 },
    },
  ],
  ...over,
});

const target = (current: unknown = null, variants: Record<string, unknown> = {}) => ({
  productId: '81',
  current,
  variants: [
    { variantId: '1', sku: 'A3', current: variants['1'] ?? null },
    { variantId: '2', sku: 'B2', current: variants['2'] ?? null },
  ],
});

const ext = (id: string) => `shopify:${id}`;

describe('push plan (what is written back to the shop)', () => {
  it('writes the product (its default variant) and each ready variant the first time', () => {
    const plan = pushPlan([target()], new Map([['shopify:81', item()]]), ext);
    expect(plan.products).toEqual([
      {
        productId: '81',
        value: {
          embed_url: 'https://ar.example/embed/emb_1',
          ...{
            glb_url: 'https://ar.example/f/main.glb',
            usdz_url: 'https://ar.example/f/main.usdz',
            poster_url: 'https://ar.example/f/main.jpg',
          },
          width_cm: 50,
          height_cm: 70,
          sku: 'B2',
        },
      },
    ]);
    expect(plan.variants.map((v) => [v.variantId, v.value.sku, v.value.width_cm, v.value.embed_url])).toEqual([
      ['1', 'A3', 29.7, 'https://ar.example/embed/emb_1?variant=A3'],
      ['2', 'B2', 50, 'https://ar.example/embed/emb_1?variant=B2'],
    ]);
  });

  it('writes nothing the shop already holds (key order and JSON text do not matter), only what changed', () => {
    const i = item();
    const p = productModel(i)!;
    const a3 = variantModel(i.variants![0])!;
    const b2 = variantModel(i.variants![1])!;
    const reordered = Object.fromEntries(Object.entries(p).reverse());
    const same = pushPlan([target(reordered, { '1': JSON.stringify(a3), '2': b2 })], new Map([['shopify:81', i]]), ext);
    expect(same).toEqual({ products: [], variants: [] });
    const changed = pushPlan([target(p, { '1': { ...a3, width_cm: 30 }, '2': b2 })], new Map([['shopify:81', i]]), ext);
    expect(changed.products).toEqual([]);
    expect(changed.variants.map((v) => v.variantId)).toEqual(['1']);
  });

  it('writes nothing for an item that is converting, failed, or not there, nor for a variant still building', () => {
    expect(pushPlan([target()], new Map([['shopify:81', item({ status: 'processing' })]]), ext).products).toEqual([]);
    expect(pushPlan([target()], new Map(), ext)).toEqual({ products: [], variants: [] });
    const building = item();
    building.variants![0] = { sku: 'A3', status: 'building' };
    const plan = pushPlan([target()], new Map([['shopify:81', building]]), ext);
    expect(plan.variants.map((v) => v.variantId)).toEqual(['2']);
  });
});

describe('media plan (Shopify "metafields+media")', () => {
  const items = new Map([['shopify:81', item()]]);
  it('attaches the main GLB once, and replaces the media a sync attached for an older GLB', () => {
    expect(mediaPlan([target()], items, ext)).toEqual([{ productId: '81', glbUrl: 'https://ar.example/f/main.glb', replaces: null }]);
    const same = { ...target(), media: JSON.stringify({ media_id: 'gid://shopify/Model3d/1', glb_url: 'https://ar.example/f/main.glb' }) };
    expect(mediaPlan([same], items, ext)).toEqual([]);
    const older = { ...target(), media: { media_id: 'gid://shopify/Model3d/1', glb_url: 'https://ar.example/f/old.glb' } };
    expect(mediaPlan([older], items, ext)).toEqual([
      { productId: '81', glbUrl: 'https://ar.example/f/main.glb', replaces: 'gid://shopify/Model3d/1' },
    ]);
  });

  it('attaches nothing for an item not ready or not there', () => {
    expect(mediaPlan([target()], new Map([['shopify:81', item({ status: 'processing' })]]), ext)).toEqual([]);
    expect(mediaPlan([target()], new Map(), ext)).toEqual([]);
  });
});
