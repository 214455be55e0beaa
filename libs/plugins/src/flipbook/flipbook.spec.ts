import sharp from 'sharp';
import { close } from '../../../../test/support/pictures';
import { readGlb, readUsdz, samplePixel, tinyusdzParse, validateGlb, zipLocalEntries } from '../../../../test/support/model-readers';
import { frameTimes, HIDDEN_SCALE, packAtlases, scaleSamples, writeFlipbookGlb, writeFlipbookUsda, writeFlipbookUsdz } from './index';

const W = 160;
const H = 90;
/** A distinct colour per frame, so each frame's UVs can be checked against its atlas. */
const colour = (i: number): [number, number, number] => [(i * 53) % 256, (i * 97 + 40) % 256, (i * 151 + 80) % 256];

async function frames(n: number, alpha = false) {
  return Promise.all(Array.from({ length: n }, async (_, i) => {
    const [r, g, b] = colour(i);
    const rgba = await sharp({ create: { width: W, height: H, channels: 4, background: { r, g, b, alpha: alpha && i % 2 ? 0 : 1 } } }).raw().toBuffer();
    return { rgba, duration: 0.1 };
  }));
}

describe('flipbook atlases', () => {
  it('packs equal frames into grids no larger than the limit, with UVs pointing at each frame', async () => {
    const packed = await packAtlases(await frames(20), { width: W, height: H, alpha: false, maxAtlasPx: 512 });
    // 3 columns x 5 rows fit in 512 px: 15 + 5 frames.
    expect(packed.atlases.map((a) => [a.width, a.height, a.mime])).toEqual([[480, 450, 'image/jpeg'], [480, 180, 'image/jpeg']]);
    for (const [i, f] of packed.frames.entries()) {
      const img = packed.atlases[f.atlas].image;
      const [u0, v0, u1, v1] = f.uv;
      expect(close(await samplePixel(img, (u0 + u1) / 2, (v0 + v1) / 2), colour(i), 10)).toBe(true);
    }
  });

  it('refuses loops longer than 10 s and frames without a duration', () => {
    expect(() => frameTimes([{ atlas: 0, uv: [0, 0, 1, 1], duration: 10.5 }])).toThrow('at most 10 s');
    expect(() => frameTimes([{ atlas: 0, uv: [0, 0, 1, 1], duration: 0 }])).toThrow('duration > 0');
  });
});

describe('flipbook GLB', () => {
  it('passes the Khronos validator and has one animation with one STEP scale channel per frame', async () => {
    const packed = await packAtlases(await frames(20), { width: W, height: H, alpha: false, maxAtlasPx: 512 });
    const glb = await writeFlipbookGlb({ ...packed, alpha: 'opaque', width: 0.96, height: 0.54 });
    const report = await validateGlb(glb);
    expect(report.numErrors).toBe(0);
    const doc = await readGlb(glb);
    const root = doc.getRoot();
    expect(root.listAnimations()).toHaveLength(1);
    const anim = root.listAnimations()[0];
    const frameNodes = root.listNodes().filter((n) => n.getName().startsWith('frame-'));
    expect(frameNodes).toHaveLength(20);
    expect(anim.listChannels()).toHaveLength(20);
    expect(new Set(anim.listChannels().map((c) => c.getTargetPath()))).toEqual(new Set(['scale']));
    expect(new Set(anim.listSamplers().map((s) => s.getInterpolation()))).toEqual(new Set(['STEP']));
    // One shared time input, with a final key at the loop's end (2.0 s).
    expect(new Set(anim.listSamplers().map((s) => s.getInput()))).toHaveProperty('size', 1);
    const times = Array.from(anim.listSamplers()[0].getInput()!.getArray()! as Float32Array);
    expect(times).toHaveLength(21);
    expect(times[20]).toBeCloseTo(2, 5);
    // At each key exactly one frame is at full size: frame k at key k, the last frame also at the end.
    for (const [i, ch] of anim.listChannels().entries()) {
      const values = Array.from(ch.getSampler()!.getOutput()!.getArray()! as Float32Array);
      const visible = times.map((_, k) => values[3 * k] === 1);
      expect(visible.map((v, k) => (v ? k : -1)).filter((k) => k >= 0)).toEqual(i === 19 ? [19, 20] : [i]);
      expect(values.filter((v) => v !== 1).every((v) => Math.abs(v - HIDDEN_SCALE) < 1e-9)).toBe(true);
    }
    // Plane size in metres, few materials.
    const pos = frameNodes[0].getMesh()!.listPrimitives()[0].getAttribute('POSITION')!;
    const xs = Array.from({ length: pos.getCount() }, (_, k) => pos.getElement(k, [])[0]);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(0.96, 5);
    expect(root.listMaterials().length).toBeLessThanOrEqual(10);
    expect(root.listTextures()).toHaveLength(2);
  });

  it('keeps transparency with MASK materials on PNG atlases', async () => {
    const packed = await packAtlases(await frames(4, true), { width: W, height: H, alpha: true });
    const glb = await writeFlipbookGlb({ ...packed, alpha: 'mask', width: 0.5, height: 0.3 });
    expect((await validateGlb(glb)).numErrors).toBe(0);
    const mats = (await readGlb(glb)).getRoot().listMaterials().filter((m) => m.getName().startsWith('frames-'));
    expect(mats.map((m) => m.getAlphaMode())).toEqual(['MASK']);
    expect(packed.atlases[0].mime).toBe('image/png');
  });
});

describe('flipbook USDZ', () => {
  it('has per-frame scale timeSamples on integer time codes with hold keys', () => {
    const starts = [0, 10, 20];
    const ends = [10, 20, 30];
    expect(scaleSamples(0, starts, ends, 30)).toEqual([[0, true], [9, true], [10, false], [30, false]]);
    expect(scaleSamples(1, starts, ends, 30)).toEqual([[0, false], [9, false], [10, true], [19, true], [20, false], [30, false]]);
    expect(scaleSamples(2, starts, ends, 30)).toEqual([[0, false], [19, false], [20, true], [29, true], [30, true]]);
  });

  it('is an aligned STORED package tinyusdz reads, with one animated Xform per frame', async () => {
    const packed = await packAtlases(await frames(20), { width: W, height: H, alpha: false, maxAtlasPx: 512 });
    const usdz = writeFlipbookUsdz({ ...packed, alpha: 'opaque', width: 0.96, height: 0.54 });
    const entries = zipLocalEntries(usdz);
    expect(entries.map((e) => e.name)).toEqual(['flipbook.usda', 'textures/atlas-0.jpg', 'textures/atlas-1.jpg']);
    expect(entries.every((e) => e.method === 0 && e.dataOffset % 64 === 0)).toBe(true);
    const { usda } = await readUsdz(usdz);
    expect(usda).toMatch(/timeCodesPerSecond = 100/);
    expect(usda).toMatch(/startTimeCode = 0/);
    expect(usda).toMatch(/endTimeCode = 200/);
    expect(usda.match(/xformOp:scale\.timeSamples/g)).toHaveLength(20);
    expect(usda.match(/def Material "Atlas_\d+"/g)).toHaveLength(2);
    const parsed = tinyusdzParse(usdz);
    expect(parsed.ok).toBe(true);
    expect(parsed.meshes.filter((m) => m.name === 'Quad')).toHaveLength(20);
    expect(parsed.root!.children.filter((c) => c.startsWith('Frame_'))).toHaveLength(20);
    const quad = parsed.meshes.find((m) => m.name === 'Quad')!;
    const xs = quad.points.filter((_, i) => i % 3 === 0);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(0.96, 5);
  });

  it('refuses textures other than png and jpg', () => {
    expect(() => writeFlipbookUsda({ width: 1, height: 1, frames: [{ atlas: 0, uv: [0, 0, 1, 1], duration: 1 }], atlasPaths: ['a.jpeg'], alpha: 'opaque' })).toThrow('.png or .jpg');
  });
});
