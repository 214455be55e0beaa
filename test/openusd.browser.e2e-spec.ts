import JSZip from 'jszip';
import sharp from 'sharp';
import { packAtlases } from '../libs/plugins/src/flipbook/pack-atlases';
import { writeFlipbookUsdz } from '../libs/plugins/src/flipbook/write-flipbook-usdz';
import { writeStoredZip } from '../libs/plugins/src/usdz-writer/stored-zip';
import { writeCardUsdz } from '../libs/plugins/src/usdz-writer/write-card-usdz';
import { type OpenUsd, openUsd, type UsdBounds, type UsdReport, usdAttribute, usdPrimBody } from './support/openusd';
import { quadrantPicture } from '@app/testing';

// OpenUSD itself (the WebAssembly build in three-usdz-loader, in headless Chromium) reads our real writer
// output: an independent check next to our own parser and tinyusdz (DESIGN §5). The checks hold whichever
// way the card is oriented (width along X; height along Y or Z, the card's thickness along the other).

let usd: OpenUsd;
beforeAll(async () => {
  usd = await openUsd();
}, 60_000);
afterAll(async () => {
  await usd?.close();
});

const extents = (b: UsdBounds | null) => (b ? b.max.map((v, i) => v - b.min[i]) : [0, 0, 0]);
const near = (a: number, b: number) => Math.abs(a - b) < 1e-4;

/** Width along X, height along Y or Z, and a thin third side: a card of width x height metres. */
function expectCardSize(bounds: UsdBounds | null, width: number, height: number) {
  expect(bounds).not.toBeNull();
  const [x, y, z] = extents(bounds);
  const [tall, thin] = Math.abs(y - height) < Math.abs(z - height) ? [y, z] : [z, y];
  expect({ x: near(x, width), height: near(tall, height), thin: thin < 0.005 }).toEqual({ x: true, height: true, thin: true });
}

/** Unzips a USDZ in order, lets `edit` change the entries, writes it back with our STORED-zip writer. */
async function rewrite(usdz: Buffer, edit: (entries: { name: string; data: Buffer }[]) => void): Promise<Buffer> {
  const zip = await JSZip.loadAsync(usdz);
  const entries = await Promise.all(
    Object.values(zip.files)
      .filter((f) => !f.dir)
      .map(async (f) => ({ name: f.name, data: await f.async('nodebuffer') })),
  );
  edit(entries);
  return writeStoredZip(entries);
}
const editLayer = (usdz: Buffer, change: (usda: string) => string) =>
  rewrite(usdz, (entries) => {
    entries[0].data = Buffer.from(change(entries[0].data.toString('utf8')));
  });

async function card(ext: 'png' | 'jpg', alpha: 'opaque' | 'mask' | 'blend', width: number, height: number) {
  const { png } = await quadrantPicture(64, 32, alpha !== 'opaque');
  const texture = ext === 'png' ? png : await sharp(png).jpeg().toBuffer();
  return writeCardUsdz({ texture, mime: ext === 'png' ? 'image/png' : 'image/jpeg', alpha, width, height });
}

const pictureMeshes = (r: UsdReport) => r.meshes.filter((m) => m.textures.length > 0);

describe('OpenUSD reads our picture card', () => {
  it.each([
    ['png', 'blend', '0.9 x 0.45 m', 0.9, 0.45],
    ['jpg', 'opaque', '16 x 24 in', 16 * 0.0254, 24 * 0.0254],
    ['png', 'mask', '24 x 24 in', 0.6096, 0.6096],
  ] as const)('%s / %s card, %s: opens without errors, bounds are its size in metres', async (ext, alpha, _label, width, height) => {
    const report = await usd.load(await card(ext, alpha, width, height), 'card.usdz');

    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expectCardSize(report.bounds, width, height);
    // Every mesh is bound to a material (else errors); the picture's texture resolved inside the package and decoded.
    expect(report.meshCount).toBeGreaterThanOrEqual(2);
    const [front] = pictureMeshes(report);
    expect(front).toMatchObject({ hasUv: true });
    expect(front.transparent).toBe(alpha !== 'opaque');

    // The flattened stage, as OpenUSD composed it.
    expect(report.layer).toMatch(/^#usda 1\.0/);
    expect(report.layer).toContain('defaultPrim = "Card"');
    expect(report.layer).toContain('metersPerUnit = 1');
    expect(report.layer).toContain('upAxis = "Y"');
    expect(usdAttribute(report, front.path, 'material:binding')).toBe(`<${front.material}>`);
    expect(usdPrimBody(report.layer, front.material!)).toContain('uniform token info:id = "UsdPreviewSurface"');
    expect(usdAttribute(report, front.material!, 'inputs:file')).toMatch(new RegExp(`\\[textures/[\\w-]+\\.${ext}\\]@$`));
    expect(usdAttribute(report, front.material!, 'inputs:sourceColorSpace')).toBe('"sRGB"');
  });
});

describe('OpenUSD reads our flipbook', () => {
  it('opens without errors; frame k is the only full-size frame during its time codes', async () => {
    const W = 80;
    const H = 45;
    const n = 6;
    const raw = await Promise.all(
      Array.from({ length: n }, async (_, i) => ({
        rgba: await sharp({ create: { width: W, height: H, channels: 4, background: { r: 40 * i, g: 200 - 30 * i, b: 90, alpha: 1 } } })
          .raw()
          .toBuffer(),
        duration: 0.1,
      })),
    );
    const packed = await packAtlases(raw, { width: W, height: H, alpha: false, maxAtlasPx: 128 });
    expect(packed.atlases.length).toBeGreaterThan(1); // several atlases, so several materials
    const width = 0.96;
    const height = 0.54;
    const times = [0, 5, 9, 10, 25, 59, 60];
    const report = await usd.load(writeFlipbookUsdz({ ...packed, alpha: 'opaque', width, height }), 'flipbook.usdz', { times });

    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.stage).toEqual({ startTimeCode: 0, endTimeCode: 60, timeCodesPerSecond: 100 });
    expectCardSize(report.bounds, width, height);
    const frames = pictureMeshes(report)
      .map((m) => m.path)
      .sort();
    expect(frames).toHaveLength(n);
    expect(new Set(pictureMeshes(report).map((m) => m.material)).size).toBe(packed.atlases.length);

    const frameAt = (t: number) => Math.min(n - 1, Math.floor(t / 10));
    for (const at of report.boundsAt) {
      const full = frames.filter((p) => near(extents(at.meshes[p])[0], width));
      expect({ time: at.time, full }).toEqual({ time: at.time, full: [frames[frameAt(at.time)]] });
      for (const p of frames) if (p !== full[0]) expect(extents(at.meshes[p])[0]).toBeLessThan(width * 2e-4);
    }
  });
});

describe('negative controls: the harness reports broken files', () => {
  let good: Buffer;
  beforeAll(async () => {
    good = await card('png', 'blend', 0.9, 0.45);
  });

  it('a USDA syntax error', async () => {
    const report = await usd.load(await editLayer(good, (usda) => usda.replace('metersPerUnit = 1', 'metersPerUnit = = 1')), 'syntax.usdz');
    expect(report.ok).toBe(false);
    expect(report.errors.join('\n')).toMatch(/syntax error/);
    expect(report.layer).toBe('');
  });

  it('material bindings to a missing prim (OpenUSD itself is silent: the meshes fall back to no material)', async () => {
    const report = await usd.load(
      await editLayer(good, (usda) => usda.replace(/(rel material:binding = )<[^>]+>/g, '$1</Card/NoSuchMaterial>')),
      'binding.usdz',
    );
    expect(report.ok).toBe(false);
    expect(report.errors.length).toBe(report.meshCount);
    for (const e of report.errors) expect(e).toMatch(/^mesh \/Card\/.+ has no bound material/);
  });

  it('a texture missing from the package', async () => {
    const broken = await rewrite(good, (entries) => entries.forEach((e) => (e.name = e.name.replace(/^textures\//, 'moved/'))));
    const report = await usd.load(broken, 'texture.usdz');
    expect(report.ok).toBe(false);
    expect(report.errors.join('\n')).toMatch(/texture: textures\/[\w-]+\.png: Unknown file/);
  });

  it('bytes that are not a USDZ', async () => {
    const report = await usd.load(Buffer.from('not a zip'), 'junk.usdz');
    expect(report.ok).toBe(false);
    expect(report.errors.join('\n')).toContain('Failed to open layer');
  });

  it('recovers when OpenUSD aborts (stage handed to the driver without the pre-check)', async () => {
    const report = await usd.load(Buffer.from('not a zip'), 'abort.usdz', { probe: false });
    expect(report.ok).toBe(false);
    expect(report.errors.join('\n')).toMatch(/abort/i);
    const next = await usd.load(good, 'after-abort.usdz');
    expect(next.errors).toEqual([]);
  });
});
