import sharp from 'sharp';
import type { RawFrame } from '@image-ar/plugin-sdk';
import type { FlipbookAtlas, FlipbookFrame } from './flipbook';

/** One RGBA frame and its display time, seconds (the motion-model contract's frame, `@image-ar/plugin-sdk`). */
export type { RawFrame } from '@image-ar/plugin-sdk';

export interface PackOptions {
  width: number;
  height: number;
  /** Longest atlas side (viewer limit). */
  maxAtlasPx?: number;
  /** Keep transparency (PNG atlases) or not (JPEG). */
  alpha: boolean;
}

/**
 * JPEG settings of opaque atlases, chosen by measurement (bench/animated-ar.ts, `atlas_encoding`): libjpeg
 * with mozjpeg's quantisation table (3) at the same quality, without mozjpeg's trellis quantisation and
 * progressive scans, encodes a 2048 px atlas 7-11x faster than `mozjpeg: true`, for files 15-26% larger.
 * Decoded, it is closer to the lossless atlas than mozjpeg's on every atlas measured; against mozjpeg's it
 * scores SSIM >= 0.98 on video and rendered frames, less (0.93) on dithered GIF frames, whose noise
 * trellis quantisation smooths away. Trellis alone (SSIM 0.999) is only 2x faster than mozjpeg.
 */
export const ATLAS_JPEG = { quality: 88, quantisationTable: 3, mozjpeg: false } as const;
/** PNG settings of atlases with transparency. */
export const ATLAS_PNG = { compressionLevel: 6 } as const;

/**
 * Packs equal-sized frames into as few atlases as fit (a grid, each side <= 2048 px by default), so the
 * flipbook needs few textures and materials. Opaque frames go to JPEG atlases, others to PNG. Each atlas
 * is laid out by copying pixel rows (cheaper than sharp's composite of many overlays) and the atlases
 * are encoded concurrently: each sharp pipeline runs on its own libuv worker thread, whatever
 * `sharp.concurrency()` (1 on glibc without jemalloc) allows inside one pipeline.
 *
 * @example
 * const { atlases, frames } = await packAtlases(decoded, { width: 480, height: 270, alpha: false });
 */
export async function packAtlases(
  raw: readonly RawFrame[],
  opts: PackOptions,
): Promise<{ atlases: FlipbookAtlas[]; frames: FlipbookFrame[] }> {
  const max = opts.maxAtlasPx ?? 2048;
  const { width: w, height: h } = opts;
  if (w > max || h > max) throw new Error(`flipbook: frames of ${w}x${h} do not fit a ${max} px atlas`);
  const cols = Math.floor(max / w);
  const rowsMax = Math.floor(max / h);
  const perAtlas = cols * rowsMax;
  const frameBytes = w * h * 4;
  const jobs: Promise<FlipbookAtlas>[] = [];
  const frames: FlipbookFrame[] = [];
  for (let start = 0; start < raw.length; start += perAtlas) {
    const batch = raw.slice(start, start + perAtlas);
    const c = Math.min(cols, batch.length);
    const r = Math.ceil(batch.length / c);
    const W = c * w;
    const H = r * h;
    // Zero-filled: cells left over stay transparent black, as the JPEG's flatten makes them black.
    const pixels = Buffer.alloc(W * H * 4);
    const index = jobs.length;
    batch.forEach((f, k) => {
      if (f.rgba.length < frameBytes) throw new Error(`flipbook: frame ${start + k} has ${f.rgba.length} bytes, expected ${frameBytes}`);
      const x = (k % c) * w;
      const y = Math.floor(k / c) * h;
      for (let row = 0; row < h; row++) f.rgba.copy(pixels, ((y + row) * W + x) * 4, row * w * 4, (row + 1) * w * 4);
      frames.push({ atlas: index, uv: [x / W, y / H, (x + w) / W, (y + h) / H], duration: f.duration });
    });
    jobs.push(encodeAtlas(pixels, W, H, opts.alpha));
  }
  return { atlases: await Promise.all(jobs), frames };
}

async function encodeAtlas(pixels: Buffer, width: number, height: number, alpha: boolean): Promise<FlipbookAtlas> {
  const img = sharp(pixels, { raw: { width, height, channels: 4 } });
  const image = alpha ? await img.png(ATLAS_PNG).toBuffer() : await img.flatten({ background: '#000' }).jpeg(ATLAS_JPEG).toBuffer();
  return { image, mime: alpha ? 'image/png' : 'image/jpeg', width, height };
}
