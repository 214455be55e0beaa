import sharp from 'sharp';
import { close, quadrantPicture, QUADRANTS, readGlb, readUsdz, samplePixel, usdaMesh } from '@app/testing';
import { METERS_PER_INCH, parseDimensionRequest, resolveDimensions, toMeters } from '../dimensions/dimensions';
import { writeCardGlb } from '../glb-writer/write-card-glb';
import { normaliseImage } from '../normalise/normalise-image';
import { writeCardUsdz } from '../usdz-writer/write-card-usdz';

const LIMITS = { maxTexturePx: 2048, maxInputPixels: 100_000_000 };
type Corner = 'tl' | 'tr' | 'bl' | 'br';

/** Which vertex is which corner of the card, seen from the front (+Z): min/max x and y. */
function corners(points: number[][]): Record<Corner, number> {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const find = (x: number, y: number) => points.findIndex((p) => p[0] === x && p[1] === y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { tl: find(minX, maxY), tr: find(maxX, maxY), bl: find(minX, minY), br: find(maxX, minY) };
}

/** Sample a quarter of the way from a corner's UV towards the centre: inside that quadrant. */
const inward = (u: number) => u * 0.75 + 0.5 * 0.25;

type Colours = Record<Corner, readonly number[]>;

async function checkGlb(glb: Buffer, wantW: number, wantH: number, colours: Colours = QUADRANTS) {
  const doc = await readGlb(glb);
  const prim = doc.getRoot().listMeshes()[0].listPrimitives()[0];
  const pos = prim.getAttribute('POSITION')!;
  const uv = prim.getAttribute('TEXCOORD_0')!;
  const points = Array.from({ length: pos.getCount() }, (_, i) => pos.getElement(i, []) as number[]);
  const texture = Buffer.from(prim.getMaterial()!.getBaseColorTexture()!.getImage()!);
  const c = corners(points);
  for (const k of Object.keys(c) as Corner[]) {
    const [u, v] = uv.getElement(c[k], []) as number[];
    // glTF: v = 0 is the top row of the image.
    expect(close(await samplePixel(texture, inward(u), inward(v)), colours[k])).toBe(true);
  }
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  expect(Math.abs((Math.max(...xs) - Math.min(...xs)) / METERS_PER_INCH - wantW)).toBeLessThan(0.01);
  expect(Math.abs((Math.max(...ys) - Math.min(...ys)) / METERS_PER_INCH - wantH)).toBeLessThan(0.01);
}

async function checkUsdz(usdz: Buffer, wantW: number, wantH: number, colours: Colours = QUADRANTS) {
  const { files, usda } = await readUsdz(usdz);
  const texPath = /asset inputs:file = @([^@]+)@/.exec(usda)![1];
  const texture = files.get(texPath)!;
  const { points, st } = usdaMesh(usda, 'Front');
  const c = corners(points);
  for (const k of Object.keys(c) as Corner[]) {
    const [s, t] = st![c[k]];
    // USD: t = 0 is the bottom row of the image.
    expect(close(await samplePixel(texture, inward(s), inward(1 - t)), colours[k])).toBe(true);
  }
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  expect(Math.abs((Math.max(...xs) - Math.min(...xs)) / METERS_PER_INCH - wantW)).toBeLessThan(0.01);
  expect(Math.abs((Math.max(...ys) - Math.min(...ys)) / METERS_PER_INCH - wantH)).toBeLessThan(0.01);
}

async function convert(input: Buffer, params: Record<string, unknown>) {
  const img = await normaliseImage(input, LIMITS);
  const dims = resolveDimensions(parseDimensionRequest(params), img.sourceWidth, img.sourceHeight);
  const m = toMeters(dims);
  const card = { texture: img.texture, mime: img.mime, alpha: img.alpha, width: m.width, height: m.height };
  return { img, dims, glb: await writeCardGlb(card), usdz: writeCardUsdz(card) };
}

describe('fidelity: the picture comes back upright, unmirrored, with its colours, at the requested size', () => {
  it.each([
    ['PNG, default size', {}, 24 * 1.5, 24],
    ['explicit inches', { width_inches: 30.5, height_inches: 12.25 }, 30.5, 12.25],
    ['aspect ratio', { aspect_ratio: '2:3' }, 24, 36],
  ])('%s', async (_name, params, w, h) => {
    const { png } = await quadrantPicture(300, 200);
    const { glb, usdz, dims } = await convert(png, params);
    expect(dims).toEqual({ width_inches: w, height_inches: h });
    await checkGlb(glb, w, h);
    await checkUsdz(usdz, w, h);
  });

  it('applies EXIF orientation (JPEG stored sideways, tagged orientation 6)', async () => {
    const { png } = await quadrantPicture(300, 200);
    // Store the pixels rotated 90° counter-clockwise; orientation 6 tells viewers to turn them back.
    const sideways = await sharp(png).rotate(270).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(sideways).metadata()).width).toBe(200);
    const { glb, usdz, img } = await convert(sideways, {});
    expect([img.sourceWidth, img.sourceHeight]).toEqual([300, 200]);
    await checkGlb(glb, 36, 24);
    await checkUsdz(usdz, 36, 24);
  });

  it('converts a 16-bit PNG to 8-bit sRGB with its colours', async () => {
    const { png } = await quadrantPicture(120, 120);
    const deep = await sharp(png).toColourspace('rgb16').png().toBuffer();
    expect((await sharp(deep).metadata()).depth).toBe('ushort');
    const { glb, usdz, img } = await convert(deep, {});
    expect((await sharp(img.texture).metadata()).depth).toBe('uchar');
    await checkGlb(glb, 24, 24);
    await checkUsdz(usdz, 24, 24);
  });

  it('converts a CMYK JPEG (with its ICC profile) to the same sRGB colours a colour-managed decode gives', async () => {
    const { png } = await quadrantPicture(120, 120);
    const cmyk = await sharp(png).withIccProfile('cmyk').jpeg({ quality: 95 }).toBuffer();
    const meta = await sharp(cmyk).metadata();
    expect(meta.space).toBe('cmyk');
    // Saturated RGB primaries are outside the CMYK gamut: the reference is libvips' managed decode.
    const reference = await sharp(cmyk).toColourspace('srgb').png().toBuffer();
    const expected = {
      tl: await samplePixel(reference, 0.25, 0.25),
      tr: await samplePixel(reference, 0.75, 0.25),
      bl: await samplePixel(reference, 0.25, 0.75),
      br: await samplePixel(reference, 0.75, 0.75),
    };
    expect(close(expected.tl, QUADRANTS.tl, 60)).toBe(true);
    const { glb, usdz, img } = await convert(cmyk, {});
    const tm = await sharp(img.texture).metadata();
    expect([tm.space, tm.channels, tm.depth]).toEqual(['srgb', 3, 'uchar']);
    await checkGlb(glb, 24, 24, expected);
    await checkUsdz(usdz, 24, 24, expected);
  });
});
