import type { ShopProduct, ShopVariant } from '@app/shops';
import { checkRow } from '../../imports/import-rows';
import { clipText, formatPrice, hideRow, productRow } from './product-rows';

const variant = (id: string, over: Partial<ShopVariant> = {}): ShopVariant => ({
  id,
  sku: `SKU-${id}`,
  title: `Variant ${id}`,
  options: [],
  price: '49.90',
  currency: 'EUR',
  available: true,
  imageUrl: null,
  sizeMeta: null,
  ...over,
});

const product = (over: Partial<ShopProduct> = {}): ShopProduct => ({
  platform: 'shopify',
  id: '8101',
  title: 'Dunes at Dawn',
  artist: 'Ada North',
  descriptionText: 'Giclée print on cotton rag.\nArchival inks',
  status: 'published',
  featuredImageUrl: 'https://cdn.example/dunes.jpg',
  sizeMeta: null,
  variants: [],
  updatedAt: '2025-11-01T10:00:00Z',
  ...over,
});

const settings = { units: 'cm' as const, frames: { 'Oak frame': 'classic', Unframed: null } };

describe('productRow (a shop product as one import row)', () => {
  it('maps title, artist, plain description, price in the shop currency, sizes by precedence and frames', () => {
    const p = product({
      sizeMeta: { widthCm: 30, heightCm: 40 },
      variants: [
        // The variant's own metadata wins over the product's and over its option.
        variant('1', { sizeMeta: { widthCm: 50, heightCm: 70 }, options: [{ name: 'Size', value: '60 x 80 cm' }] }),
        // No variant metadata: the product's.
        variant('2', { options: [{ name: 'Frame', value: 'Oak frame' }] }),
        variant('3', { sizeMeta: { widthIn: 16, heightIn: 20 }, options: [{ name: 'Frame', value: 'unframed ' }], available: false }),
      ],
    });
    const row = productRow(p, settings);
    expect(row.problem).toBeUndefined();
    expect(row.item).toEqual({
      image_url: 'https://cdn.example/dunes.jpg',
      external_id: 'shopify:8101',
      title: 'Dunes at Dawn',
      artist: 'Ada North',
      description: 'Giclée print on cotton rag.\nArchival inks',
      availability: 'available',
      variants: [
        { sku: 'SKU-1', name: 'Variant 1', price: '€49.90', availability: 'available', width_cm: 50, height_cm: 70 },
        { sku: 'SKU-2', name: 'Variant 2', price: '€49.90', availability: 'available', width_cm: 30, height_cm: 40, frame: 'classic' },
        { sku: 'SKU-3', name: 'Variant 3', price: '€49.90', availability: 'sold', width_cm: 40.64, height_cm: 50.8, frame: null },
      ],
    });
    expect(row.variantSkus).toEqual([
      { variantId: '1', sku: 'SKU-1' },
      { variantId: '2', sku: 'SKU-2' },
      { variantId: '3', sku: 'SKU-3' },
    ]);
  });

  it('reads option values in the showcase units when none is written, and ISO papers', () => {
    const p = product({
      platform: 'woocommerce',
      id: '7',
      variants: [
        variant('71', { options: [{ name: 'Size', value: '16 x 20' }] }),
        variant('72', { options: [{ name: 'Format', value: 'A3' }] }),
      ],
    });
    const row = productRow(p, { units: 'in', frames: {} });
    const variants = row.item!.variants as Record<string, unknown>[];
    expect(variants.map((v) => [v.width_cm, v.height_cm])).toEqual([
      [40.64, 50.8],
      [29.7, 42],
    ]);
    expect(row.item!.external_id).toBe('woocommerce:7');
  });

  it('uses <platform>:<variant id> for a missing, spaced or repeated SKU', () => {
    const size = { options: [{ name: 'Size', value: '50 x 70 cm' }] };
    const row = productRow(
      product({
        variants: [
          variant('1', { sku: null, ...size }),
          variant('2', { sku: 'HAS SPACE', ...size }),
          variant('3', { sku: 'A', ...size }),
          variant('4', { sku: 'A', ...size }),
        ],
      }),
      settings,
    );
    expect((row.item!.variants as { sku: string }[]).map((v) => v.sku)).toEqual(['shopify:1', 'shopify:2', 'A', 'shopify:4']);
  });

  it('takes the first variant image, else the featured image', () => {
    const size = { options: [{ name: 'Size', value: 'A4' }] };
    const own = productRow(
      product({ variants: [variant('1', size), variant('2', { ...size, imageUrl: 'https://cdn.example/v2.jpg' })] }),
      settings,
    );
    expect(own.item!.image_url).toBe('https://cdn.example/v2.jpg');
    const none = productRow(product({ featuredImageUrl: null, variants: [variant('1', size)] }), settings);
    expect(none.problem).toEqual({ field: 'image_url', message: expect.stringContaining('shopify:8101: the product has no image') });
  });

  it('reports a product without any believable size as size_unknown, naming what it saw, with no item', () => {
    const row = productRow(product({ variants: [variant('1', { options: [{ name: 'Size', value: 'Large' }] })] }), settings);
    expect(row.item).toBeUndefined();
    expect(row.problem).toEqual({
      field: 'size',
      message: expect.stringMatching(/^size_unknown: shopify:8101 "Dunes at Dawn".*Size: Large/),
    });
  });

  it('leaves out (and lists) the variants without a size, keeping the others', () => {
    const row = productRow(
      product({
        variants: [
          variant('1', { options: [{ name: 'Size', value: 'Large' }] }),
          variant('2', { options: [{ name: 'Size', value: '50x70cm' }] }),
        ],
      }),
      settings,
    );
    expect((row.item!.variants as { sku: string }[]).map((v) => v.sku)).toEqual(['SKU-2']);
    expect(row.skipped).toEqual([{ variantId: '1', sku: 'SKU-1', seen: 'Size: Large' }]);
  });

  it('marks an unpublished product not_for_sale and an all-sold one sold', () => {
    const size = { options: [{ name: 'Size', value: 'A4' }] };
    expect(productRow(product({ status: 'unpublished', variants: [variant('1', size)] }), settings).item!.availability).toBe(
      'not_for_sale',
    );
    expect(productRow(product({ variants: [variant('1', { ...size, available: false })] }), settings).item!.availability).toBe('sold');
  });

  it('clips texts to the item limits, so a long shop title is still an item', () => {
    const size = { options: [{ name: 'Size', value: 'A4' }] };
    const row = productRow(product({ title: 'T'.repeat(100), artist: 'A'.repeat(200), variants: [variant('1', size)] }), settings);
    expect([...(row.item!.title as string)]).toHaveLength(60);
    expect([...(row.item!.artist as string)]).toHaveLength(120);
    expect(clipText('  a\u0007b  ', 10)).toBe('a b');
    expect(clipText('', 10)).toBeNull();
  });

  it('is a valid import row: checked by the import as a new item with its variants', () => {
    const row = productRow(
      product({
        variants: [
          variant('1', {
            options: [
              { name: 'Size', value: '50 x 70 cm' },
              { name: 'Frame', value: 'Oak frame' },
            ],
          }),
        ],
      }),
      settings,
    );
    const checked = checkRow(1, row.item, {}, { files: false, csv: false });
    expect(checked.problem).toBeUndefined();
    expect(checked.externalId).toBe('shopify:8101');
    expect(checked.create?.variants?.map((v) => [v.sku, v.price, v.sent])).toEqual([
      ['SKU-1', '€49.90', { width_cm: 50, height_cm: 70, frame: 'classic' }],
    ]);
    // The hiding row is an update only (no picture): valid for the item with that external id.
    const hide = checkRow(2, hideRow('shopify:8101'), {}, { files: false, csv: false });
    expect(hide.externalId).toBe('shopify:8101');
    expect(hide.patch).toEqual({ external_id: 'shopify:8101', availability: 'not_for_sale' });
  });
});

describe('formatPrice', () => {
  it("keeps the shop's digits with the currency's symbol", () => {
    expect(formatPrice('49.90', 'EUR')).toBe('€49.90');
    expect(formatPrice('1200', 'USD')).toBe('$1,200.00');
    expect(formatPrice('1500', 'JPY')).toBe('¥1,500');
    expect(formatPrice('12.345', 'EUR')).toBe('€12.345');
    expect(formatPrice('49.90', null)).toBe('49.90');
    expect(formatPrice('49.90', 'XYZ1')).toBe('49.90 XYZ1');
    expect(formatPrice(null, 'EUR')).toBeNull();
    expect(formatPrice('-3', 'EUR')).toBeNull();
  });
});
