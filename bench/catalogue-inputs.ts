/**
 * The catalogue bench's pictures and floors: varied 12-megapixel JPEGs (generated once, cached in the temp
 * directory), the same-output floor (plain sharp making what a showcase picture ships from one decode) and
 * the texture-only floor, each run over a list of pictures with a given concurrency.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { MAX_TEXTURE } from './still-inputs';

/** How many distinct pictures the catalogue cycles through. */
export const DISTINCT = 20;
const INPUT_DIR = join(tmpdir(), 'ar-bench-catalogue-inputs-v1');
const FIXTURES = ['photo-street.jpg', 'photo-bubbles.jpg'].map((f) => join(__dirname, '../../../shared/fixtures', f));

/** Picture `i`'s pixels before noise: a fixture photograph cropped differently, mirrored every other time, tinted, upscaled. */
async function basePixels(i: number): Promise<{ data: Buffer; W: number; H: number }> {
  const src = sharp(FIXTURES[i % FIXTURES.length]);
  const meta = await src.metadata();
  const portrait = i % 4 === 3;
  const [W, H] = portrait ? [3000, 4000] : [4000, 3000];
  // A crop of the fixture with the output's aspect, moved along with i.
  const cw = portrait ? Math.round((meta.height! * 3) / 4) : meta.width!;
  const ch = portrait ? meta.height! : Math.min(meta.height!, Math.round((meta.width! * 3) / 4));
  const left = Math.round(((meta.width! - cw) * ((i * 7) % 10)) / 9);
  const top = Math.round(((meta.height! - ch) * ((i * 3) % 10)) / 9);
  let img = sharp(FIXTURES[i % FIXTURES.length]).extract({ left, top, width: cw, height: ch });
  if (i % 2) img = img.flop();
  const data = await img
    .modulate({ hue: (i * 37) % 360, saturation: 0.8 + (i % 5) * 0.1, brightness: 0.9 + (i % 3) * 0.1 })
    .resize(W, H, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  return { data, W, H };
}

/**
 * Picture `i` (0..DISTINCT-1): {@link basePixels} (4000 x 3000, or 3000 x 4000 every fourth, a portrait)
 * with sensor-like noise on top, softened, saved as a camera would (JPEG quality 90, 4:2:0). Real
 * photographs at this size carry detail an upscale alone lacks.
 */
async function makePicture(i: number): Promise<Buffer> {
  const { data: base, W, H } = await basePixels(i);
  const noise = await sharp({
    create: { width: W, height: H, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 10 + (i % 4) * 3 } },
  })
    .raw()
    .toBuffer();
  for (let k = 0; k < base.length; k++) base[k] = Math.max(0, Math.min(255, base[k] + noise[k] - 128));
  return sharp(base, { raw: { width: W, height: H, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** `count` pictures made by `make`, kept in `dir` on the first run and read back from it afterwards. */
async function cachedPictures(dir: string, count: number, make: (i: number) => Promise<Buffer>): Promise<Buffer[]> {
  mkdirSync(dir, { recursive: true });
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const file = join(dir, `${i}.jpg`);
    if (!existsSync(file)) writeFileSync(file, await make(i));
    out.push(readFileSync(file));
  }
  return out;
}

/** The DISTINCT pictures, made on the first run and read back from the temp directory afterwards. */
export const cataloguePictures = (): Promise<Buffer[]> => cachedPictures(INPUT_DIR, DISTINCT, makePicture);

const GALLERY_DIR = join(tmpdir(), 'ar-bench-gallery-inputs-v1');
const GRAIN_SLACK = 1 << 20;
let grain: Buffer | undefined;

/**
 * Gallery picture `i` (any number of them, all distinct): {@link basePixels} with unsoftened grain
 * (gaussian, sigma 16) as a phone camera leaves in a dim room, JPEG quality 90 4:2:0: about 5 MB, as the
 * issue's gallery measurement used (issue 44 item 4). The grain is drawn once and read from an offset per
 * picture: drawing it is most of a picture's making.
 */
async function makeGalleryPicture(i: number): Promise<Buffer> {
  const { data: base, W, H } = await basePixels(i);
  grain ??= await sharp({
    create: {
      width: 4000,
      height: 3000 + Math.ceil(GRAIN_SLACK / 12000),
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 16 },
    },
  })
    .raw()
    .toBuffer();
  const off = (i * 7919 * 3) % GRAIN_SLACK;
  for (let k = 0; k < base.length; k++) base[k] = Math.max(0, Math.min(255, base[k] + grain[off + k] - 128));
  return sharp(base, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** `count` distinct gallery pictures ({@link makeGalleryPicture}), made on the first run and read back afterwards. */
export const galleryPictures = (count: number): Promise<Buffer[]> => cachedPictures(GALLERY_DIR, count, makeGalleryPicture);

/** Widths and settings of what a showcase picture ships besides its texture (libs/plugins thumbnails). */
const THUMBS = [
  ...[480, 720, 960].map((w) => ({ w, f: 'avif' as const })),
  ...[480, 720, 960].map((w) => ({ w, f: 'webp' as const })),
  { w: 1200, f: 'jpeg' as const },
];

/**
 * The same-output floor for one picture: decode once (resized to the texture size, as raw pixels), then
 * encode from those pixels, side by side, the texture (JPEG q90 4:4:4) and the seven thumbnails (AVIF q55
 * effort 0 and WebP q78 effort 4 at 480/720/960, JPEG q82 mozjpeg at 1200) at the picture's shape. What
 * the service adds to this is its own: the poster, the framed poster, the models, storage and bookkeeping.
 */
export async function sameOutputFloor(bytes: Buffer): Promise<number> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize({ width: MAX_TEXTURE, height: MAX_TEXTURE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } });
  let n = 0;
  await Promise.all([
    raw()
      .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
      .toBuffer()
      .then((b) => (n += b.length)),
    ...THUMBS.map(({ w, f }) => {
      const r = raw().resize({ width: w, height: Math.round((w * info.height) / info.width), fit: 'cover' });
      const enc =
        f === 'avif'
          ? r.avif({ quality: 55, effort: 0 })
          : f === 'webp'
            ? r.webp({ quality: 78, effort: 4 })
            : r.jpeg({ quality: 82, mozjpeg: true });
      return enc.toBuffer().then((b) => (n += b.length));
    }),
  ]);
  return n;
}

/** The texture-only floor for one picture: decode + resize to the texture size + encode, one pipeline. */
export async function textureFloor(bytes: Buffer): Promise<number> {
  const b = await sharp(bytes)
    .rotate()
    .resize({ width: MAX_TEXTURE, height: MAX_TEXTURE, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
    .toBuffer();
  return b.length;
}

/** Runs `work` over `count` pictures (cycling through `pictures`), `concurrency` at a time; wall ms in all. */
export async function runPool(
  pictures: Buffer[],
  count: number,
  concurrency: number,
  work: (b: Buffer) => Promise<unknown>,
): Promise<number> {
  const t = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        await work(pictures[i % pictures.length]);
      }
    }),
  );
  return performance.now() - t;
}
