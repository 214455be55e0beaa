import sharp from 'sharp';
import { flipbookLayer } from '../libs/plugins/src/flipbook/flipbook';
import { packAtlases } from '../libs/plugins/src/flipbook/pack-atlases';
import { writeSceneGlb } from '../libs/plugins/src/glb-writer/write-scene-glb';
import { outerDimensions, parsePresentation } from '../libs/plugins/src/presentation/presentation';
import { pictureScene } from '../libs/plugins/src/scene-builder/picture-model';
import { writeSceneUsdz } from '../libs/plugins/src/usdz-writer/write-scene-usdz';
import type { PictureLayer } from '../libs/scene/src';
import { glbBounds, readGlb, validateGlb } from '@app/testing';
import { type OpenUsd, openUsd, type UsdBounds, usdAttribute } from './support/openusd';

// Every wall-ready variant the writers make, loaded in OpenUSD itself (three-usdz-loader's WebAssembly
// build in headless Chromium) and in the Khronos glTF validator: the anchoring Quick Look reads, and
// the outer size read back from both files to 0.01 in.

const IN = 0.0254;
let usd: OpenUsd;
beforeAll(async () => {
  usd = await openUsd();
}, 60_000);
afterAll(async () => {
  await usd?.close();
});

async function stillLayer(alpha = false): Promise<PictureLayer> {
  const img = sharp({ create: { width: 120, height: 180, channels: 4, background: { r: 40, g: 90, b: 170, alpha: alpha ? 0.5 : 1 } } });
  const image = alpha ? await img.png().toBuffer() : await img.jpeg().toBuffer();
  return {
    kind: 'still',
    texture: { id: 'picture', image, mime: alpha ? 'image/png' : 'image/jpeg', width: 120, height: 180 },
    alpha: alpha ? 'blend' : 'opaque',
  };
}

async function flipLayer(): Promise<PictureLayer> {
  const frames = await Promise.all(
    [0, 1, 2, 3].map(async (i) => ({
      rgba: await sharp({ create: { width: 60, height: 90, channels: 4, background: { r: 60 * i, g: 100, b: 200 - 40 * i, alpha: 1 } } })
        .raw()
        .toBuffer(),
      duration: 0.25,
    })),
  );
  const packed = await packAtlases(frames, { width: 60, height: 90, alpha: false });
  return flipbookLayer({ ...packed, alpha: 'opaque' });
}

const size = (b: UsdBounds | null) => (b ? b.max.map((v, i) => v - b.min[i]) : [0, 0, 0]);

const VARIANTS: [string, Record<string, unknown>][] = [
  ['plain, wall', {}],
  ['plain, floor', { placement: 'floor' }],
  ['thin black + mat', { frame: 'thin', mat: { width_inches: 2 } }],
  ['classic oak, gloss', { frame: { style: 'classic', color: 'oak' }, finish: 'gloss' }],
  ['classic walnut + mat, floor', { frame: 'classic', mat: { width_inches: 3, color: '#eeeeee' }, placement: 'floor' }],
  ['float gold', { frame: { style: 'float', color: 'gold' } }],
  ['canvas, mirrored edges', { frame: 'canvas' }],
  ['canvas, black edges, matte', { frame: { style: 'canvas', edge: 'black', depth_inches: 0.75 }, finish: 'matte' }],
];

describe('wall-ready AR files read back by OpenUSD and the glTF validator', () => {
  it.each(VARIANTS)('%s', async (_label, fields) => {
    const p = parsePresentation(fields);
    const dims = { width_inches: 24, height_inches: 36 };
    const outer = outerDimensions(dims, p);
    const { scene } = await pictureScene(p, dims, await stillLayer());

    const report = await usd.load(writeSceneUsdz(scene), 'model.usdz', { times: [0] });
    expect(report.errors).toEqual([]);
    expect(usdAttribute(report, '/Card', 'preliminary:anchoring:type')).toBe('"plane"');
    expect(usdAttribute(report, '/Card', 'preliminary:planeAnchoring:alignment')).toBe(
      p.placement === 'wall' ? '"vertical"' : '"horizontal"',
    );
    expect(report.layer).toMatch(/apiSchemas = \["Preliminary_AnchoringAPI"\]/);
    const [x, y, z] = size(report.bounds).map((m) => m / IN);
    if (p.placement === 'wall') {
      // On a vertical anchor +Y is the wall's normal: depth along Y, the picture's height along Z.
      expect([x, z, y].map((v) => v.toFixed(2))).toEqual(
        [outer.width_inches, outer.height_inches, outer.depth_inches].map((v) => v.toFixed(2)),
      );
      expect(report.bounds!.min[1]).toBeCloseTo(0, 6); // the back on the wall
    } else {
      expect([x, y, z].map((v) => v.toFixed(2))).toEqual(
        [outer.width_inches, outer.height_inches, outer.depth_inches].map((v) => v.toFixed(2)),
      );
      expect(report.bounds!.min[1]).toBeCloseTo(0, 6); // standing on the floor
    }
    // The picture itself keeps its exact size.
    const front = report.meshes.find((m) => m.path.endsWith('/Front'))!;
    const fb = size(report.boundsAt[0].meshes[front.path] ?? null);
    const along = p.placement === 'wall' ? [fb[0], fb[2]] : [fb[0], fb[1]];
    expect(along.map((m) => (m / IN).toFixed(2))).toEqual(['24.00', '36.00']);

    const glb = await writeSceneGlb(scene);
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const doc = await readGlb(glb);
    expect(doc.getRoot().listMaterials().length).toBeLessThanOrEqual(10);
    const { min: lo, max: hi } = glbBounds(doc);
    expect(hi.map((v, i) => ((v - lo[i]) / IN).toFixed(2))).toEqual(
      [outer.width_inches, outer.height_inches, outer.depth_inches].map((v) => v.toFixed(2)),
    );
    expect(lo[2]).toBeCloseTo(0, 6); // model-viewer / Scene Viewer: the back (-Z) against the wall
  });

  it('a transparent picture in a frame', async () => {
    const { scene } = await pictureScene(
      parsePresentation({ frame: 'thin' }),
      { width_inches: 10, height_inches: 15 },
      await stillLayer(true),
    );
    const report = await usd.load(writeSceneUsdz(scene), 'alpha.usdz');
    expect(report.errors).toEqual([]);
    expect(report.meshes.find((m) => m.path.endsWith('/Front'))!.transparent).toBe(true);
  });

  it('an animated picture in a classic frame: the frame stays, the frames play', async () => {
    const p = parsePresentation({ frame: 'classic', mat: { width_inches: 2 } });
    const { scene } = await pictureScene(p, { width_inches: 20, height_inches: 30 }, await flipLayer());
    const report = await usd.load(writeSceneUsdz(scene), 'flip.usdz', { times: [0, 30, 60, 99] });
    expect(report.errors).toEqual([]);
    expect(report.stage).toMatchObject({ startTimeCode: 0, endTimeCode: 100, timeCodesPerSecond: 100 });
    const frames = report.meshes.filter((m) => /Frame_\d+\/Quad$/.test(m.path)).map((m) => m.path);
    expect(frames).toHaveLength(4);
    const shown = (i: number) => frames.filter((f) => size(report.boundsAt![i].meshes[f] ?? null)[0] > 0.1);
    expect(shown(0)).toEqual([frames[0]]);
    expect(shown(1)).toEqual([frames[1]]);
    expect(shown(2)).toEqual([frames[2]]);
    expect(shown(3)).toEqual([frames[3]]);
    // The frame's mesh has the same bounds at every time.
    const body = report.meshes.find((m) => m.path.endsWith('/Body/Frame'))!.path;
    expect(size(report.boundsAt![0].meshes[body])).toEqual(size(report.boundsAt![3].meshes[body]));
    const outer = outerDimensions({ width_inches: 20, height_inches: 30 }, p);
    expect((size(report.bounds)[0] / IN).toFixed(2)).toBe(outer.width_inches.toFixed(2));
  });
});
