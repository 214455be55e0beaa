import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AppConfig } from '@app/config';
import { UserError, type StageProvider } from '@app/pipeline';
import { LocalStorageAdapter } from '@app/storage';
import { fakeStageContext, glbBounds, glbPicture, readGlb, readUsdz, usdzPictureInches, validateGlb } from '@app/testing';
import { METERS_PER_INCH } from '../dimensions/dimensions';
import { glbWriterStage } from '../glb-writer/glb-writer.stage';
import { normaliseImage, type NormalisedImage } from '../normalise/normalise-image';
import { createNormaliseStage } from '../normalise/normalise.stage';
import { createPublishStage, type StillImageResult } from '../publish/publish.stage';
import { sceneStage, type SceneOutput } from '../scene-builder/scene.stage';
import { usdzWriterStage } from '../usdz-writer/usdz-writer.stage';
import { STILL_IMAGE_PIPELINE } from './still-image.plugin';

const ROOT = join(__dirname, '../../../..');
const LIMITS = { maxTexturePx: 2048, maxInputPixels: 100_000_000 };
const config = { images: LIMITS } as unknown as AppConfig;

/** A real photograph (500 x 338) resized to `width` x `height`, as a JPEG upload. */
const photo = (width: number, height: number) =>
  sharp(readFileSync(join(ROOT, 'test/fixtures/media/photo-street.jpg')))
    .resize(width, height, { fit: 'fill' })
    .jpeg({ quality: 92 })
    .toBuffer();

/**
 * Runs the still-image pipeline's steps after fetch (normalise, scene, glb-writer, usdz-writer, publish)
 * on `bytes` for a job with `input`, each stage with the outputs of the ones before, as the runner does.
 */
async function runStill(bytes: Buffer, input: Record<string, unknown>) {
  const storage = new LocalStorageAdapter(join(mkdtempSync(join(tmpdir(), 'fit-')), 'storage'), 'http://files.test');
  const stages: Record<string, StageProvider<unknown, object>> = {
    normalise: createNormaliseStage(config),
    scene: sceneStage,
    'glb-writer': glbWriterStage,
    'usdz-writer': usdzWriterStage,
    publish: createPublishStage(storage),
  };
  const outputs: Record<string, unknown> = { fetch: { bytes, type: 'image', url: 'https://example.test/p.jpg' } };
  for (const step of STILL_IMAGE_PIPELINE.steps.slice(1)) {
    const ctx = fakeStageContext({ job: { id: 'job_fit', kind: 'v1.convert', input }, outputs: { ...outputs } });
    outputs[step.stage] = await stages[step.stage].run({ ...ctx, options: {} });
  }
  return {
    img: outputs.normalise as NormalisedImage,
    scene: outputs.scene as SceneOutput,
    glb: (outputs['glb-writer'] as { glb: Buffer }).glb,
    usdz: (outputs['usdz-writer'] as { usdz: Buffer }).usdz,
    result: outputs.publish as StillImageResult,
  };
}

/** Width and height in inches of the picture's quad (material `Picture`, exactly one) in a GLB. */
async function glbPictureInches(glb: Buffer): Promise<[number, number]> {
  const { inches, primitives } = await glbPicture(glb);
  expect(primitives).toBe(1);
  return inches;
}

const sizeOf = async (image: Buffer) => {
  const m = await sharp(image).metadata();
  return [m.width, m.height];
};

describe('fit: a picture given an explicit size whose aspect is not its own', () => {
  it('crop: a 4:3 picture at 30 x 30 in becomes a square texture, poster and plane; the result says so', async () => {
    const { img, scene, glb, usdz, result } = await runStill(await photo(640, 480), { width_inches: 30, height_inches: 30, fit: 'crop' });
    expect([img.width, img.height]).toEqual([480, 480]);
    expect(await sizeOf(img.texture)).toEqual([480, 480]);
    expect(await sizeOf(scene.poster.image)).toEqual([480, 480]);
    expect(result.texture).toMatchObject({ width: 480, height: 480 });
    expect(result.poster_px).toEqual({ width: 480, height: 480 });
    expect(result.dimensions).toEqual({ width_inches: 30, height_inches: 30 });
    expect(result.fit).toEqual({ requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 });
    // The texture in the GLB is the square one.
    const doc = await readGlb(glb);
    const tex = doc
      .getRoot()
      .listTextures()
      .find((t) => t.getMimeType() === 'image/jpeg')!;
    expect(tex.getSize()).toEqual([480, 480]);
    expect(await glbPictureInches(glb)).toEqual([expect.closeTo(30, 2), expect.closeTo(30, 2)]);
    expect(await usdzPictureInches(usdz)).toEqual([expect.closeTo(30, 2), expect.closeTo(30, 2)]);
  });

  it('stretch: the texture keeps its 4:3 pixels on the 30 x 30 in plane; the result says stretch', async () => {
    const { img, scene, result, glb } = await runStill(await photo(640, 480), { width_inches: 30, height_inches: 30, fit: 'stretch' });
    expect(await sizeOf(img.texture)).toEqual([640, 480]);
    expect(await sizeOf(scene.poster.image)).toEqual([640, 480]);
    expect(result.fit).toEqual({ requested: 'stretch', applied: 'stretch', source_aspect: 1.3333, target_aspect: 1 });
    expect(await glbPictureInches(glb)).toEqual([expect.closeTo(30, 2), expect.closeTo(30, 2)]);
  });

  it("within 1 % (an aspect 1.005 times the size's) nothing is cropped: applied 'none'", async () => {
    const { img, result } = await runStill(await photo(603, 600), { width_inches: 30, height_inches: 30, fit: 'crop' });
    expect(await sizeOf(img.texture)).toEqual([603, 600]);
    expect(result.fit).toEqual({ requested: 'crop', applied: 'none', source_aspect: 1.005, target_aspect: 1 });
  });

  it('no fit with an explicit size is stretch: the same texture and poster bytes as before fit existed', async () => {
    const bytes = await photo(640, 480);
    const before = await normaliseImage(bytes, LIMITS);
    const { img, result } = await runStill(bytes, { width_inches: 30, height_inches: 30 });
    expect(img.texture.equals(before.texture)).toBe(true);
    expect(img.poster.image.equals(before.poster.image)).toBe(true);
    expect(result.fit).toEqual({ requested: 'stretch', applied: 'stretch', source_aspect: 1.3333, target_aspect: 1 });
  });

  it('auto and aspect_ratio sizes have no fit in the result, and crop changes nothing there', async () => {
    const bytes = await photo(640, 480);
    const before = await normaliseImage(bytes, LIMITS);
    for (const input of [{}, { fit: 'crop' }, { aspect_ratio: '1:1', fit: 'crop' }]) {
      const { img, result } = await runStill(bytes, input);
      expect(result).not.toHaveProperty('fit');
      expect(img.texture.equals(before.texture)).toBe(true);
    }
  });

  it('refuses a fit that is neither crop nor stretch, naming the parameter', async () => {
    const e = await runStill(await photo(64, 48), { width_inches: 30, height_inches: 30, fit: 'cover' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UserError);
    expect(e).toMatchObject({ code: 'parameter_invalid', message: 'fit: must be one of "crop", "stretch"', param: 'fit' });
  });

  it('crop: a square picture at 40 x 30 in, framed, reads back at 40 x 30 in from the GLB and the USDZ picture planes', async () => {
    const frame = { style: 'thin' };
    const mat = { width_inches: 2 };
    const { img, glb, usdz, result } = await runStill(await photo(600, 600), {
      width_inches: 40,
      height_inches: 30,
      fit: 'crop',
      frame,
      mat,
    });
    expect(await sizeOf(img.texture)).toEqual([600, 450]);
    expect(result.fit).toEqual({ requested: 'crop', applied: 'crop', source_aspect: 1, target_aspect: 1.3333 });
    expect(result.dimensions).toEqual({ width_inches: 40, height_inches: 30 });
    // The frame and mat are outside the picture: 40 + 2 x (0.5 + 2) by 30 + 2 x (0.5 + 2).
    expect(result.outer_dimensions).toMatchObject({ width_inches: 45, height_inches: 35 });

    expect((await validateGlb(glb)).numErrors).toBe(0);
    const [gw, gh] = await glbPictureInches(glb);
    expect(Math.abs(gw - 40)).toBeLessThan(0.01);
    expect(Math.abs(gh - 30)).toBeLessThan(0.01);
    const { min, max } = glbBounds(await readGlb(glb));
    expect(Math.abs((max[0] - min[0]) / METERS_PER_INCH - 45)).toBeLessThan(0.01);
    expect(Math.abs((max[1] - min[1]) / METERS_PER_INCH - 35)).toBeLessThan(0.01);

    const [uw, uh] = await usdzPictureInches(usdz);
    expect(Math.abs(uw - 40)).toBeLessThan(0.01);
    expect(Math.abs(uh - 30)).toBeLessThan(0.01);
    // The USDZ carries the cropped texture.
    const { files, usda } = await readUsdz(usdz);
    const texPath = /asset inputs:file = @([^@]+)@/.exec(usda)![1];
    expect(await sizeOf(files.get(texPath)!)).toEqual([600, 450]);
  });
});
