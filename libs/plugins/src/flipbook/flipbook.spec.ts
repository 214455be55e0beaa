import sharp from 'sharp';
import { close, readGlb, readUsdz, samplePixel, tinyusdzParse, validateGlb, zipLocalEntries } from '@app/testing';
import { frameTimes, HIDDEN_SCALE, packAtlases, writeFlipbookGlb, writeFlipbookUsdz } from './index';

const W = 160;
const H = 90;
/** A distinct colour per frame, so each frame's UVs can be checked against its atlas. */
const colour = (i: number): [number, number, number] => [(i * 53) % 256, (i * 97 + 40) % 256, (i * 151 + 80) % 256];

async function frames(n: number, alpha = false) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const [r, g, b] = colour(i);
      const rgba = await sharp({ create: { width: W, height: H, channels: 4, background: { r, g, b, alpha: alpha && i % 2 ? 0 : 1 } } })
        .raw()
        .toBuffer();
      return { rgba, duration: 0.1 };
    }),
  );
}

describe('flipbook atlases', () => {
  it('packs equal frames into grids no larger than the limit, with UVs pointing at each frame', async () => {
    const packed = await packAtlases(await frames(20), { width: W, height: H, alpha: false, maxAtlasPx: 512 });
    // 3 columns x 5 rows fit in 512 px: 15 + 5 frames.
    expect(packed.atlases.map((a) => [a.width, a.height, a.mime])).toEqual([
      [480, 450, 'image/jpeg'],
      [480, 180, 'image/jpeg'],
    ]);
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
    const frameNodes = root.listNodes().filter((n) => n.getName().startsWith('Frame_'));
    expect(frameNodes).toHaveLength(20);
    expect(anim.listChannels()).toHaveLength(20);
    expect(new Set(anim.listChannels().map((c) => c.getTargetPath()))).toEqual(new Set(['scale']));
    expect(new Set(anim.listSamplers().map((s) => s.getInterpolation()))).toEqual(new Set(['STEP']));
    // STEP: the value of the last key at or before t. At the middle of each frame's time exactly that
    // frame is at full size; every track ends on a key at the loop's end (2.0 s).
    const at = (ch: typeof anim.listChannels extends () => (infer C)[] ? C : never, t: number) => {
      const times = Array.from(ch.getSampler()!.getInput()!.getArray()! as Float32Array);
      const values = Array.from(ch.getSampler()!.getOutput()!.getArray()! as Float32Array);
      let k = 0;
      while (k + 1 < times.length && times[k + 1] <= t + 1e-6) k++;
      return values[3 * k];
    };
    for (const ch of anim.listChannels()) {
      const times = Array.from(ch.getSampler()!.getInput()!.getArray()! as Float32Array);
      expect(times[times.length - 1]).toBeCloseTo(2, 5);
      const values = Array.from(ch.getSampler()!.getOutput()!.getArray()! as Float32Array);
      expect(values.filter((v) => v !== 1).every((v) => Math.abs(v - HIDDEN_SCALE) < 1e-9)).toBe(true);
    }
    for (let f = 0; f < 20; f++) {
      const shown = anim
        .listChannels()
        .map((ch, i) => (at(ch, f * 0.1 + 0.05) === 1 ? i : -1))
        .filter((i) => i >= 0);
      expect(shown).toEqual([f]);
    }
    expect(
      anim
        .listChannels()
        .map((ch, i) => (at(ch, 2) === 1 ? i : -1))
        .filter((i) => i >= 0),
    ).toEqual([19]);
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
    const mats = (await readGlb(glb))
      .getRoot()
      .listMaterials()
      .filter((m) => m.getName().startsWith('Atlas_'));
    expect(mats.map((m) => m.getAlphaMode())).toEqual(['MASK']);
    expect(packed.atlases[0].mime).toBe('image/png');
  });
});

describe('flipbook USDZ', () => {
  it('has per-frame scale timeSamples on integer time codes with hold keys: one frame shown at every code', async () => {
    const packed = await packAtlases(await frames(3), { width: W, height: H, alpha: false });
    const { usda } = await readUsdz(writeFlipbookUsdz({ ...packed, alpha: 'opaque', width: 0.5, height: 0.3 }));
    const tracks = [...usda.matchAll(/def Xform "Frame_\d+"[^]*?timeSamples = \{([^}]*)\}/g)].map((m) =>
      [...m[1].matchAll(/(\d+): \(([^,]+),/g)].map((x) => [Number(x[1]), Number(x[2]) === 1] as [number, boolean]),
    );
    expect(tracks).toHaveLength(3);
    expect(tracks[0]).toEqual([
      [0, true],
      [9, true],
      [10, false],
      [29, false],
      [30, false],
    ]);
    expect(tracks[1]).toEqual([
      [0, false],
      [9, false],
      [10, true],
      [19, true],
      [20, false],
      [29, false],
      [30, false],
    ]);
    expect(tracks[2]).toEqual([
      [0, false],
      [19, false],
      [20, true],
      [29, true],
      [30, true],
    ]);
    // USD interpolates linearly between samples: with the hold keys a frame is full size or hidden at every code.
    const value = (track: [number, boolean][], c: number) => {
      const i = track.findIndex(([t]) => t >= c);
      if (track[i][0] === c) return track[i][1] ? 1 : 0;
      const [t0, v0] = track[i - 1];
      const [t1, v1] = track[i];
      return (v0 ? 1 : 0) + ((c - t0) / (t1 - t0)) * ((v1 ? 1 : 0) - (v0 ? 1 : 0));
    };
    for (let c = 0; c <= 30; c++) expect(tracks.map((t) => value(t, c)).filter((v) => v === 1).length).toBe(1);
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
    expect(parsed.meshes.filter((m) => m.path.startsWith('/Card/Model/Frame_'))).toHaveLength(20);
    const quad = parsed.meshes.find((m) => m.name === 'Quad')!;
    const xs = quad.points.filter((_, i) => i % 3 === 0);
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(0.96, 5);
  });
});
