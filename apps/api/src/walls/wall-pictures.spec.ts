import type { ShowcaseItemRow } from '@app/persistence';
import { ApiError } from '../http/api-error';
import { arrangePictures, wallPictureOf, wallPicturesOf } from './wall-pictures';

const files = (base: string) => ({ glb: { key: `${base}/model.glb` }, poster: { key: `${base}/poster.jpg` } });

function item(extra: Partial<ShowcaseItemRow> = {}): ShowcaseItemRow {
  return {
    id: 4,
    showcaseId: 1,
    jobId: 'v2_a',
    status: 'completed',
    result: { files: files('models/v2_a'), texture: { width: 2048, height: 1536, alpha: 'opaque' }, banner: { title: 'Dunes' } },
    variants: null,
    ...extra,
  } as ShowcaseItemRow;
}

const thrown = (fn: () => unknown): ApiError => {
  try {
    fn();
  } catch (e) {
    return e as ApiError;
  }
  throw new Error('expected an ApiError');
};

describe('wallPictureOf', () => {
  it("takes an item's model, poster, title and its size and look from its job input", () => {
    const input = {
      image_url: 'https://x/a.jpg',
      width_inches: 24,
      height_inches: 18,
      fit: 'crop',
      frame: 'thin',
      title: 'Dunes',
      showcase_id: 1,
    };
    expect(wallPictureOf(item(), input, undefined, 'items[0]')).toEqual({
      item_id: 4,
      variant_sku: null,
      title: 'Dunes',
      texture: { width: 2048, height: 1536 },
      alpha: 'opaque',
      glb_key: 'models/v2_a/model.glb',
      poster_key: 'models/v2_a/poster.jpg',
      spec: { width_inches: 24, height_inches: 18, fit: 'crop', frame: 'thin' },
    });
  });

  it('takes a variant (the default, or one by SKU) with its own files and spec', () => {
    const variant = (sku: string, def: boolean, inches: number) => ({
      id: `var_${sku}`,
      sku,
      default: def,
      spec: { width_inches: inches, height_inches: inches, fit: 'crop' },
      build: { files: files(`models/v2_a/variants/var_${sku}`) },
    });
    const it = item({ variants: [variant('S', false, 10), variant('L', true, 30)] as never });
    expect(wallPictureOf(it, null, undefined, 'items[1]')).toMatchObject({ variant_sku: 'L', spec: { width_inches: 30 } });
    expect(wallPictureOf(it, null, 'S', 'items[1]')).toMatchObject({
      variant_sku: 'S',
      glb_key: 'models/v2_a/variants/var_S/model.glb',
      spec: { width_inches: 10 },
    });
    expect(thrown(() => wallPictureOf(it, null, 'XL', 'items[1]'))).toMatchObject({ status: 400, param: 'items[1].variant_sku' });
  });

  it('refuses a picture with no files (409) and a SKU on an item without variants (400)', () => {
    expect(thrown(() => wallPictureOf(item({ status: 'converting', result: null }), {}, undefined, 'items[2]'))).toMatchObject({
      status: 409,
      code: 'item_not_ready',
    });
    expect(thrown(() => wallPictureOf(item({ status: 'failed', result: null }), {}, undefined, 'items[2]'))).toMatchObject({
      status: 409,
      code: 'item_failed',
    });
    expect(thrown(() => wallPictureOf(item(), {}, 'S', 'items[2]'))).toMatchObject({ status: 400, param: 'items[2].variant_sku' });
  });
});

describe('wallPicturesOf', () => {
  const reads: string[][] = [];
  const jobs = {
    inputs: async (ids: string[]) => {
      reads.push(ids);
      return new Map(ids.map((id) => [id, { width_inches: 20, height_inches: 30 }]));
    },
  };
  const withVariants = item({
    id: 5,
    variants: [
      { id: 'var_a', sku: 'A', default: true, spec: { width_inches: 10, height_inches: 10 }, build: { files: files('models/v2_b') } },
      { id: 'var_b', sku: 'B', default: false, spec: { width_inches: 12, height_inches: 12 }, build: { files: files('models/v2_c') } },
    ] as never,
  });
  const rejected = async (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e as ApiError,
    );

  it('resolves each picture in order, reading the job inputs of the items without variants in one read', async () => {
    reads.length = 0;
    const other = item({ id: 6, jobId: 'v2_f' });
    const out = await wallPicturesOf(
      1,
      [item(), withVariants, other],
      [{ item_id: 5, variant_sku: 'B' }, { item_id: 4 }, { item_id: 6 }],
      jobs,
    );
    expect(out.map((p) => [p.item_id, p.variant_sku, p.spec.width_inches])).toEqual([
      [5, 'B', 12],
      [4, null, 20],
      [6, null, 20],
    ]);
    expect(reads).toEqual([['v2_a', 'v2_f']]);
  });

  it('refuses an item the showcase does not have, and a picture hung twice (a default variant named or not)', async () => {
    expect(await rejected(wallPicturesOf(1, [item()], [{ item_id: 4 }, { item_id: 9 }], jobs))).toMatchObject({
      status: 400,
      param: 'items[1].item_id',
    });
    const twice = await rejected(
      wallPicturesOf(1, [item(), withVariants], [{ item_id: 5 }, { item_id: 4 }, { item_id: 5, variant_sku: 'A' }], jobs),
    );
    expect(twice).toMatchObject({ status: 400, param: 'items[2]' });
    expect(twice!.message).toMatch(/is already items\[0\]/);
    expect(await wallPicturesOf(1, [withVariants], [{ item_id: 5 }, { item_id: 5, variant_sku: 'B' }], jobs)).toHaveLength(2);
  });
});

describe('arrangePictures', () => {
  const picture = (id: number, w: number, h: number, spec: Record<string, unknown> = {}) => ({
    ...wallPictureOf(item({ id }), { width_inches: w, height_inches: h, ...spec }, undefined, 'items[0]'),
  });

  it("lays out the framed sizes: a row's places, outer sizes and bounds", () => {
    const out = arrangePictures([picture(1, 20, 30, { frame: { style: 'classic', color: 'oak' } }), picture(2, 16, 20)], {
      arrangement: 'row',
      gapInches: 4,
    });
    // The classic frame adds 1.5 in a side.
    expect(out.items.map((p) => [p.item_id, p.width_inches, p.height_inches])).toEqual([
      [1, 23, 33],
      [2, 16, 20],
    ]);
    expect(out.outer_dimensions).toMatchObject({ width_inches: 43, height_inches: 33 });
    expect(out.items[0].x_inches).toBeCloseTo(-10, 6);
    expect(out.items[1].x_inches).toBeCloseTo(13.5, 6);
  });

  it("refuses what cannot hang with the layout's 400s", () => {
    const e = thrown(() =>
      arrangePictures([picture(1, 20, 30), picture(2, 16, 20, { placement: 'floor' })], { arrangement: 'row' }),
    ) as unknown as { code: string; param: string };
    expect(e).toMatchObject({ code: 'parameter_invalid', param: 'items[1].placement' });
  });
});
