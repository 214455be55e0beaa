import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import type { AppConfig } from '@app/config';
import { UserError, validateDefinition, type StageProvider } from '@app/pipeline';
import { CONTENT_TYPES, LocalStorageAdapter } from '@app/storage';
import {
  close,
  fakeStageContext,
  glbPicture,
  QUADRANTS,
  quadrantPicture,
  readGlb,
  readUsdz,
  samplePixel,
  usdzPictureInches,
  validateGlb,
} from '@app/testing';
import { createFetchStage } from '../fetch/fetch.stage';
import { glbPictureTexture } from '../fetch/glb-texture';
import { glbWriterStage } from '../glb-writer/glb-writer.stage';
import type { NormalisedImage } from '../normalise/normalise-image';
import { createNormaliseStage } from '../normalise/normalise.stage';
import { createPublishStage, type StillImageResult } from '../publish/publish.stage';
import { sceneStage, type SceneOutput } from '../scene-builder/scene.stage';
import { SHOWCASE_PICTURE_PIPELINE } from '../thumbnails/thumbnails.plugin';
import { usdzWriterStage } from '../usdz-writer/usdz-writer.stage';
import type { VariantBuild } from './build-variant';
import { MAX_VARIANTS, parseVariantSpecs } from './variant-specs';
import { SHOWCASE_VARIANTS_PIPELINE } from './variants.plugin';
import { createVariantsStage, type VariantsOutput } from './variants.stage';

const ROOT = join(__dirname, '../../../..');
const LIMITS = { maxTexturePx: 2048, maxInputPixels: 100_000_000 };
const config = { images: LIMITS, fetch: { maxBytes: 50_000_000, timeoutMs: 5000, connectTimeoutMs: 5000 } } as unknown as AppConfig;

/** A real photograph (500 x 338) resized to `width` x `height`, as a JPEG upload. */
const photo = (width: number, height: number) =>
  sharp(readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg')))
    .resize(width, height, { fit: 'fill' })
    .jpeg({ quality: 92 })
    .toBuffer();

const sizeOf = async (image: Buffer) => {
  const m = await sharp(image).metadata();
  return [m.width, m.height];
};

/**
 * Runs `steps` of a pipeline (the fetch step given as `fetched`, or run against storage) for a job with
 * `input`, each stage with the outputs of the ones before, as the runner does.
 */
async function run(
  storage: LocalStorageAdapter,
  jobId: string,
  steps: readonly { stage: string }[],
  input: Record<string, unknown>,
  fetched?: Buffer,
): Promise<Record<string, unknown>> {
  const stages: Record<string, StageProvider<unknown, object>> = {
    fetch: createFetchStage(config, storage),
    normalise: createNormaliseStage(config),
    scene: sceneStage,
    'glb-writer': glbWriterStage,
    'usdz-writer': usdzWriterStage,
    variants: createVariantsStage(storage),
    publish: createPublishStage(storage),
  };
  const outputs: Record<string, unknown> = fetched ? { fetch: { bytes: fetched, type: 'image', url: 'https://example.test/p.jpg' } } : {};
  for (const step of steps) {
    if (step.stage in outputs || step.stage === 'thumbnails') continue;
    const ctx = fakeStageContext({ job: { id: jobId, kind: 'v2.picture', input }, outputs: { ...outputs } });
    outputs[step.stage] = await stages[step.stage].run({ ...ctx, options: {} });
  }
  return outputs;
}

const read = async (storage: LocalStorageAdapter, key: string) => buffer(await storage.read(key));

/** The Picture quad's TEXCOORD_0 range in a GLB: [u0, v0, u1, v1]. */
async function glbFrontUv(glb: Buffer): Promise<number[]> {
  const prim = (await readGlb(glb))
    .getRoot()
    .listMeshes()
    .find((m) => m.getName() === 'Body')!
    .listPrimitives()
    .find((p) => p.getMaterial()?.getName() === 'Picture')!;
  const a = prim.getAttribute('TEXCOORD_0')!;
  return [...a.getMin([]), ...a.getMax([])];
}

const VARIANTS = [
  // A square crop of the 4:3 picture in a thin oak frame with a 2 in mat.
  {
    id: 'var_square01',
    width_inches: 20,
    height_inches: 20,
    fit: 'crop',
    frame: { style: 'thin', color: 'oak' },
    mat: { width_inches: 2 },
  },
  // The whole picture stretched on a 2:1 canvas wrap.
  { id: 'var_wide0001', width_inches: 40, height_inches: 20, fit: 'stretch', frame: { style: 'canvas' } },
  // A 2:3 crop in a classic walnut frame, standing on the floor, matte.
  { id: 'var_tall0001', width_inches: 16, height_inches: 24, fit: 'crop', frame: 'classic', placement: 'floor', finish: 'matte' },
];

/** What each of {@link VARIANTS} should be: picture size, outer size, uv shown, fit applied, poster size. */
const EXPECTED = {
  var_square01: { inches: [20, 20], outer: [25, 25], uv: [0.125, 0, 0.875, 1], applied: 'crop', poster: [600, 600] },
  var_wide0001: { inches: [40, 20], outer: [40, 20], uv: [0, 0, 1, 1], applied: 'stretch', poster: [640, 480] },
  // 480 x 720 of the 640 x 480 picture is 320 x 480; classic: 1.5 in at 20 px/in = 30 px a side.
  var_tall0001: { inches: [16, 24], outer: [19, 27], uv: [0.25, 0, 0.75, 1], applied: 'crop', poster: [380, 540] },
} as const;

describe('an item with variants: every model from the one uncropped texture', () => {
  const storage = new LocalStorageAdapter(join(mkdtempSync(join(tmpdir(), 'variants-')), 'storage'), 'http://files.test');
  let item: Record<string, unknown>;
  let img: NormalisedImage;
  let result: StillImageResult;

  beforeAll(async () => {
    const input = { width_inches: 30, height_inches: 30, fit: 'crop', frame: 'thin', title: 'Street', variants: VARIANTS };
    item = await run(storage, 'job_item', SHOWCASE_PICTURE_PIPELINE.steps, input, await photo(640, 480));
    img = item.normalise as NormalisedImage;
    result = item.publish as StillImageResult;
  });

  it('normalise keeps the whole picture; the main files crop it through their uv and report the fit', async () => {
    expect([img.width, img.height]).toEqual([640, 480]);
    expect(await sizeOf(img.texture)).toEqual([640, 480]);
    expect(img).not.toHaveProperty('fit');
    expect(result.texture).toEqual({ width: 640, height: 480, mime: 'image/jpeg', alpha: 'opaque' });
    expect(result.fit).toEqual({ requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 });
    expect(result.dimensions).toEqual({ width_inches: 30, height_inches: 30 });
    expect(result.outer_dimensions).toMatchObject({ width_inches: 31, height_inches: 31 });
    expect(result.banner).toEqual({ title: 'Street' });

    const glb = await read(storage, result.files.glb.key);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    expect((await glbPicture(glb)).inches.map((v) => Math.round(v * 100) / 100)).toEqual([30, 30]);
    expect(await glbFrontUv(glb)).toEqual([0.125, 0, 0.875, 1].map((v) => expect.closeTo(v, 6)));
    expect(glbPictureTexture(glb)!.equals(img.texture)).toBe(true);
    const [uw, uh] = await usdzPictureInches(await read(storage, result.files.usdz.key));
    expect([uw, uh].map((v) => Math.abs(v - 30) < 0.01)).toEqual([true, true]);
    // The poster: the centre 480 x 480 of the picture in a 0.5 in frame at 16 px/in (8 px a side).
    expect(await sizeOf(await read(storage, result.files.poster.key))).toEqual([496, 496]);
    expect((item.scene as SceneOutput).poster.pixels).toMatchObject({ width: 496, height: 496 });
  });

  it('builds each variant at its size, outer size, crop and frame, readable back from the GLB and the USDZ', async () => {
    const variants = result.variants!;
    expect(variants.map((v) => v.id)).toEqual(VARIANTS.map((v) => v.id));
    expect(variants).toEqual((item.variants as VariantsOutput).variants);
    for (const v of variants) {
      const want = EXPECTED[v.id as keyof typeof EXPECTED];
      const base = `models/job_item/variants/${v.id}`;
      expect(v.files).toEqual({
        glb: { key: `${base}/model.glb`, bytes: expect.any(Number), content_type: CONTENT_TYPES.glb },
        usdz: { key: `${base}/model.usdz`, bytes: expect.any(Number), content_type: CONTENT_TYPES.usdz },
        poster: { key: `${base}/poster.jpg`, bytes: expect.any(Number), content_type: 'image/jpeg' },
      });
      expect(v.dimensions).toEqual({ width_inches: want.inches[0], height_inches: want.inches[1] });
      expect(v.outer_dimensions).toMatchObject({ width_inches: want.outer[0], height_inches: want.outer[1] });
      expect(v.fit).toMatchObject({ applied: want.applied, source_aspect: 1.3333 });
      expect(v).not.toHaveProperty('banner');

      const glb = await read(storage, v.files.glb.key);
      expect(glb.length).toBe(v.files.glb.bytes);
      expect((await validateGlb(glb)).numErrors).toBe(0);
      const { inches } = await glbPicture(glb);
      expect(Math.abs(inches[0] - want.inches[0])).toBeLessThan(0.01);
      expect(Math.abs(inches[1] - want.inches[1])).toBeLessThan(0.01);
      expect(await glbFrontUv(glb)).toEqual(want.uv.map((x) => expect.closeTo(x, 6)));
      // The one texture, byte for byte, in every model: never cropped nor encoded again.
      expect(glbPictureTexture(glb)!.equals(img.texture)).toBe(true);

      const usdz = await read(storage, v.files.usdz.key);
      const [uw, uh] = await usdzPictureInches(usdz);
      expect(Math.abs(uw - want.inches[0])).toBeLessThan(0.01);
      expect(Math.abs(uh - want.inches[1])).toBeLessThan(0.01);
      const { files, usda } = await readUsdz(usdz);
      expect(files.get('textures/picture.jpg')!.equals(img.texture)).toBe(true);
      expect(usda).toContain(`preliminary:planeAnchoring:alignment = "${v.placement === 'floor' ? 'horizontal' : 'vertical'}"`);

      expect(await sizeOf(await read(storage, v.files.poster.key))).toEqual(want.poster);
    }
    const [square, wide, tall] = variants;
    expect(square).toMatchObject({ frame: { style: 'thin', color: 'oak' }, mat: { width_inches: 2, color: 'white' }, placement: 'wall' });
    expect(wide).toMatchObject({ frame: { style: 'canvas', edge: 'mirror' }, mat: null });
    expect(tall).toMatchObject({ frame: { style: 'classic', color: 'walnut' }, placement: 'floor', finish: 'matte', allow_scaling: false });
    // A canvas wrap carries the picture on its front and its mirrored edges.
    expect((await glbPicture(await read(storage, wide.files.glb.key))).primitives).toBe(2);
  });

  it('showcase-variants rebuilds variants from the item GLB: the same texture bytes, the same models', async () => {
    expect(() => validateDefinition(SHOWCASE_VARIANTS_PIPELINE)).not.toThrow();
    expect(SHOWCASE_VARIANTS_PIPELINE.steps.map((s) => s.stage)).toEqual(['fetch', 'normalise', 'variants']);
    const input = { upload_key: result.files.glb.key, variants: [VARIANTS[2], { ...VARIANTS[0], id: 'var_square02' }] };
    const out = await run(storage, 'job_rebuild', SHOWCASE_VARIANTS_PIPELINE.steps, input);
    const rebuilt = out[SHOWCASE_VARIANTS_PIPELINE.resultFrom!] as VariantsOutput;
    // The stored texture is the source: its size is the source's, and its bytes are kept as they are.
    expect((out.normalise as NormalisedImage).texture.equals(img.texture)).toBe(true);
    expect(rebuilt.texture).toEqual({ width: 640, height: 480, mime: 'image/jpeg', alpha: 'opaque' });
    expect(rebuilt.variants.map((v) => v.id)).toEqual(['var_tall0001', 'var_square02']);
    const before = result.variants!;
    for (const [v, was] of [
      [rebuilt.variants[0], before[2]],
      [rebuilt.variants[1], before[0]],
    ] as [VariantBuild, VariantBuild][]) {
      expect(v.files.glb.key).toBe(`models/job_rebuild/variants/${v.id}/model.glb`);
      const { files: _f, id: _i, ...rest } = v;
      const { files: _g, id: _j, ...wasRest } = was;
      expect(rest).toEqual(wasRest);
      // Same scene, same texture: the same model file as the item's job made.
      expect((await read(storage, v.files.glb.key)).equals(await read(storage, was.files.glb.key))).toBe(true);
      expect((await read(storage, v.files.usdz.key)).equals(await read(storage, was.files.usdz.key))).toBe(true);
      expect(await sizeOf(await read(storage, v.files.poster.key))).toEqual(await sizeOf(await read(storage, was.files.poster.key)));
    }
  });

  it('variants: [] keeps the texture whole too, and the result lists none', async () => {
    const bytes = await photo(640, 480);
    const out = await run(
      storage,
      'job_none',
      SHOWCASE_PICTURE_PIPELINE.steps,
      { width_inches: 30, height_inches: 30, fit: 'crop', variants: [] },
      bytes,
    );
    const published = out.publish as StillImageResult;
    expect(await sizeOf((out.normalise as NormalisedImage).texture)).toEqual([640, 480]);
    expect(published.variants).toEqual([]);
    expect(published.fit).toMatchObject({ applied: 'crop' });
    expect(await glbFrontUv(await read(storage, published.files.glb.key))).toEqual([0.125, 0, 0.875, 1].map((v) => expect.closeTo(v, 6)));
    // Unframed: the centre of the poster, encoded once as the poster is.
    expect(await sizeOf(await read(storage, published.files.poster.key))).toEqual([480, 480]);
  });

  it('a transparent picture: a PNG texture kept whole, each variant poster the right part of it, as PNG', async () => {
    const { png } = await quadrantPicture(400, 300, true);
    const variants = [{ id: 'var_quad0001', width_inches: 10, height_inches: 10, fit: 'crop' }];
    const out = await run(storage, 'job_png', SHOWCASE_PICTURE_PIPELINE.steps, { variants }, png);
    const texture = (out.normalise as NormalisedImage).texture;
    expect(await sizeOf(texture)).toEqual([400, 300]);
    const [v] = (out.publish as StillImageResult).variants!;
    expect(v.files.poster).toMatchObject({ key: 'models/job_png/variants/var_quad0001/poster.png', content_type: 'image/png' });
    expect(glbPictureTexture(await read(storage, v.files.glb.key))!.equals(texture)).toBe(true);
    const poster = await read(storage, v.files.poster.key);
    expect(await sizeOf(poster)).toEqual([300, 300]);
    // The centre 300 x 300: the quadrants meet in its middle.
    expect(close(await samplePixel(poster, 0.75, 0.25), QUADRANTS.tr)).toBe(true);
    expect(close(await samplePixel(poster, 0.75, 0.75), QUADRANTS.br)).toBe(true);
    expect(close(await samplePixel(poster, 0.4, 0.75), QUADRANTS.bl)).toBe(true);
  });

  it('a job without the key: the texture is cropped by normalise as before, and the result has no variants', async () => {
    const out = await run(
      storage,
      'job_plain',
      SHOWCASE_PICTURE_PIPELINE.steps,
      { width_inches: 30, height_inches: 30, fit: 'crop' },
      await photo(640, 480),
    );
    const published = out.publish as StillImageResult;
    expect(await sizeOf((out.normalise as NormalisedImage).texture)).toEqual([480, 480]);
    expect(published).not.toHaveProperty('variants');
    expect(out.variants).toEqual({ variants: [], texture: { width: 480, height: 480, mime: 'image/jpeg', alpha: 'opaque' } });
    expect(await glbFrontUv(await read(storage, published.files.glb.key))).toEqual([0, 0, 1, 1]);
  });
});

describe('parseVariantSpecs', () => {
  const err = (variants: unknown) => {
    try {
      parseVariantSpecs({ variants });
    } catch (e) {
      expect(e).toBeInstanceOf(UserError);
      return { message: (e as UserError).message, param: (e as UserError).param, code: (e as UserError).code };
    }
    throw new Error('no error');
  };
  const ok = { id: 'var_abcd', width_inches: 10, height_inches: 12 };

  it('reads each spec as a picture job input: size, fit, presentation', () => {
    expect(parseVariantSpecs({})).toEqual([]);
    expect(parseVariantSpecs({ variants: null })).toEqual([]);
    const [a, b] = parseVariantSpecs({ variants: [ok, { id: 'var_efgh1234', aspect_ratio: '1:1', fit: 'crop', frame: 'float' }] });
    expect(a).toMatchObject({ id: 'var_abcd', size: { mode: 'explicit', width: 10, height: 12 }, fit: 'stretch' });
    expect(a.presentation).toMatchObject({ placement: 'wall', frame: { style: 'none' }, mat: null });
    expect(b).toMatchObject({ size: { mode: 'aspect', w: 1, h: 1 }, fit: 'crop', presentation: { frame: { style: 'float' } } });
  });

  it('refuses a bad list or spec, naming variants[i].field after the stage', () => {
    expect(err({})).toEqual({ code: 'parameter_invalid', param: 'variants', message: 'variants: must be an array' });
    expect(err(Array.from({ length: MAX_VARIANTS + 1 }, (_, i) => ({ ...ok, id: `var_n${1000 + i}` })))).toMatchObject({
      param: 'variants',
      message: `variants: at most ${MAX_VARIANTS} variants (got ${MAX_VARIANTS + 1})`,
    });
    expect(err([ok, 'A3'])).toMatchObject({ param: 'variants[1]', message: 'variants: variants[1]: must be an object' });
    expect(err([{ ...ok, id: 'A3' }])).toMatchObject({
      param: 'variants[0].id',
      message: 'variants: variants[0].id: must match ^var_[A-Za-z0-9]{4,40}$',
    });
    expect(err([{ width_inches: 1, height_inches: 1 }])).toMatchObject({ code: 'parameter_missing', param: 'variants[0].id' });
    expect(err([ok, ok])).toMatchObject({ param: 'variants[1].id', message: 'variants: variants[1].id: var_abcd is listed twice' });
    expect(err([{ ...ok, price: '€10' }])).toMatchObject({ code: 'parameter_unknown', param: 'variants[0].price' });
    expect(err([ok, { ...ok, id: 'var_wxyz', width_inches: 500 }])).toMatchObject({
      param: 'variants[1].width_inches',
      message: 'variants: variants[1].width_inches: must be between 0.1 and 120 inches',
    });
    expect(err([{ ...ok, height_inches: undefined }])).toMatchObject({ param: 'variants[0].height_inches' });
    expect(err([{ ...ok, fit: 'cover' }])).toMatchObject({
      param: 'variants[0].fit',
      message: 'variants: variants[0].fit: must be one of "crop", "stretch"',
    });
    expect(err([{ ...ok, frame: { style: 'baroque' } }])).toMatchObject({ param: 'variants[0].frame.style' });
    expect(err([{ ...ok, mat: { width_inches: 2 } }])).toMatchObject({
      param: 'variants[0].mat',
      message: 'variants: variants[0].mat: a mat needs a frame around it (frame.style "none" takes none)',
    });
  });

  it('a stage fails on a bad spec before building anything', async () => {
    const storage = new LocalStorageAdapter(join(mkdtempSync(join(tmpdir(), 'variants-')), 'storage'), 'http://files.test');
    const img = { width: 4, height: 3, mime: 'image/jpeg', alpha: 'opaque' } as NormalisedImage;
    const ctx = fakeStageContext({
      job: { id: 'j', kind: 'v2.picture', input: { variants: [{ id: 'bad' }] } },
      outputs: { normalise: img },
    });
    await expect(createVariantsStage(storage).run({ ...ctx, options: {} })).rejects.toMatchObject({ param: 'variants[0].id' });
    const none = fakeStageContext({ job: { id: 'j', kind: 'v2.picture', input: {} }, outputs: { normalise: img } });
    expect(await createVariantsStage(storage).run({ ...none, options: {} })).toEqual({
      variants: [],
      texture: { width: 4, height: 3, mime: 'image/jpeg', alpha: 'opaque' },
    });
  });
});
