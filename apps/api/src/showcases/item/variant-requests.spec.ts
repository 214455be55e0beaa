import { UserError } from '@app/pipeline';
import type { StoredVariant } from '@app/persistence';
import { mainVariantInput, parseNewVariants, parseVariantEdit, variantsToBuild } from './variant-requests';

/** The job input of an item as a create makes it: its size over the showcase's defaults, a banner. */
const ITEM = { title: 'Street', width_inches: 20, height_inches: 30, fit: 'crop', frame: 'thin', link_url: 'https://shop.example.com/s' };

const paramOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    if (e instanceof UserError) return e.param;
    throw e;
  }
  return undefined;
};

describe('parseNewVariants', () => {
  it("resolves each variant over the item's size and look, the first the default and main when none is marked", () => {
    const v = parseNewVariants(
      [
        { sku: 'A3', width_cm: 29.7, height_cm: 42, price: '€39' },
        {
          sku: 'OAK',
          name: '50 × 70 oak',
          width_cm: 50,
          height_cm: 70,
          frame: { style: 'classic', color: 'oak' },
          mat: { width_inches: 2 },
        },
        { sku: 'SAME', availability: 'sold' },
      ],
      ITEM,
      'items[0].variants',
    )!;
    expect(v.map((x) => [x.sku, x.default, x.main])).toEqual([
      ['A3', true, true],
      ['OAK', false, false],
      ['SAME', false, false],
    ]);
    expect(v[0].spec).toEqual({ width_inches: 11.6929, height_inches: 16.5354, fit: 'crop', frame: 'thin' });
    expect(v[0].sent).toEqual({ width_cm: 29.7, height_cm: 42 });
    expect(v[1].spec).toMatchObject({ frame: { style: 'classic', color: 'oak' }, mat: { width_inches: 2 } });
    // Nothing of its own: the item's size and look.
    expect(v[2]).toMatchObject({
      spec: { width_inches: 20, height_inches: 30, fit: 'crop', frame: 'thin' },
      availability: 'sold',
      price: null,
    });
    expect(new Set(v.map((x) => x.id)).size).toBe(3);
    for (const x of v) expect(x.id).toMatch(/^var_[A-Za-z0-9]+$/);
    // The item's job makes the main variant's files: its size and look, the item's banner.
    expect(mainVariantInput(ITEM, v)).toEqual({ title: 'Street', link_url: ITEM.link_url, ...v[0].spec });
  });

  it("gives a variant the item's price, link and call to action unless it has its own", () => {
    const item = { ...ITEM, price: '€30', call_to_action: 'Buy' };
    const v = parseNewVariants([{ sku: 'A' }, { sku: 'B', price: '€50', link_url: null }], item, 'variants')!;
    expect(v.map((x) => [x.price, x.link_url, x.call_to_action])).toEqual([
      ['€30', ITEM.link_url, 'Buy'],
      ['€50', null, null],
    ]);
  });

  it('takes the marked default as main', () => {
    const v = parseNewVariants([{ sku: 'A' }, { sku: 'B', default: true }], ITEM, 'variants')!;
    expect(v.map((x) => [x.default, x.main])).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it('refuses with the field named', () => {
    const p = (variants: unknown) => paramOf(() => parseNewVariants(variants, ITEM, 'items[2].variants'));
    expect(p([{ sku: 'A' }, { sku: 'A' }])).toBe('items[2].variants[1].sku');
    expect(
      p([
        { sku: 'A', default: true },
        { sku: 'B', default: true },
      ]),
    ).toBe('items[2].variants[1].default');
    expect(p([{ sku: 'A', frame: 'canvas', mat: { width_inches: 2 } }])).toBe('items[2].variants[0].mat');
    expect(p([{ sku: 'A', width_cm: 10 }])).toBe('items[2].variants[0].height_cm');
    expect(p([{ sku: 'x'.repeat(65) }])).toBe('items[2].variants[0].sku');
    expect(p([{ sku: 'A', name: 'n'.repeat(81) }])).toBe('items[2].variants[0].name');
    expect(p(Array.from({ length: 25 }, (_, i) => ({ sku: `S${i}` })))).toBe('items[2].variants');
    expect(parseNewVariants([], ITEM, 'variants')).toBeUndefined();
  });
});

describe('parseVariantEdit and variantsToBuild', () => {
  const current = (): StoredVariant[] =>
    parseNewVariants(
      [
        { sku: 'A', width_cm: 30, height_cm: 40, price: '€1' },
        { sku: 'B', width_cm: 50, height_cm: 70, frame: 'classic' },
        { sku: 'C', width_cm: 60, height_cm: 80 },
      ],
      ITEM,
      'variants',
    )!;

  it('edits by SKU: a price changes nothing built, a frame rebuilds that variant only', () => {
    const cur = current();
    const price = parseVariantEdit({ variant_updates: [{ sku: 'B', price: '€9' }] }, cur, ITEM)!;
    expect(price[1]).toMatchObject({ id: cur[1].id, price: '€9', spec: cur[1].spec });
    expect(variantsToBuild(price, cur)).toEqual([]);
    const frame = parseVariantEdit({ variant_updates: [{ sku: 'B', frame: 'thin' }] }, cur, ITEM)!;
    expect(frame[1].spec).toMatchObject({ frame: 'thin', width_inches: cur[1].spec.width_inches });
    expect(variantsToBuild(frame, cur).map((v) => v.sku)).toEqual(['B']);
    // The default moves with `default: true`.
    const moved = parseVariantEdit({ variant_updates: [{ sku: 'C', default: true }] }, cur, ITEM)!;
    expect(moved.map((v) => v.default)).toEqual([false, false, true]);
    expect(paramOf(() => parseVariantEdit({ variant_updates: [{ sku: 'Z', price: '€1' }] }, cur, ITEM))).toBe('variant_updates[0].sku');
  });

  it('replaces the list matched by SKU: kept ones keep their id and files, new ones are built, the default stays', () => {
    const cur = current();
    const next = parseVariantEdit(
      { variants: [{ sku: 'C' }, { sku: 'A', price: '€2' }, { sku: 'D', width_cm: 10, height_cm: 10 }] },
      cur,
      ITEM,
    )!;
    expect(next.map((v) => [v.sku, v.default])).toEqual([
      ['C', false],
      ['A', true],
      ['D', false],
    ]);
    expect(next[0].id).toBe(cur[2].id);
    expect(next[1]).toMatchObject({ id: cur[0].id, main: true, price: '€2' });
    expect(variantsToBuild(next, cur).map((v) => v.sku)).toEqual(['D']);
    expect(parseVariantEdit({ variants: [] }, cur, ITEM)).toBeNull();
    expect(parseVariantEdit({ title: 'x' } as Record<string, unknown>, cur, ITEM)).toBeUndefined();
    expect(paramOf(() => parseVariantEdit({ variants: [{ sku: 'A' }, { sku: 'A' }] }, cur, ITEM, 'items[1].'))).toBe(
      'items[1].variants[1].sku',
    );
  });

  it('gives an item without variants its first ones, each to build', () => {
    const next = parseVariantEdit({ variants: [{ sku: 'S', width_cm: 20, height_cm: 20 }] }, null, ITEM)!;
    expect(next[0]).toMatchObject({ default: true, main: false, built: null });
    expect(variantsToBuild(next, null)).toHaveLength(1);
  });
});
