import sharp from 'sharp';
import type { FlipbookAtlas, FlipbookFrame } from './flipbook';

export interface RawFrame {
  /** RGBA pixels, width x height x 4. */
  rgba: Buffer;
  /** Seconds. */
  duration: number;
}

export interface PackOptions {
  width: number;
  height: number;
  /** Longest atlas side (viewer limit). */
  maxAtlasPx?: number;
  /** Keep transparency (PNG atlases) or not (JPEG). */
  alpha: boolean;
}

/**
 * Packs equal-sized frames into as few atlases as fit (a grid, each side <= 2048 px by default), so the
 * flipbook needs few textures and materials. Opaque frames go to JPEG atlases, others to PNG.
 *
 * @example
 * const { atlases, frames } = await packAtlases(decoded, { width: 480, height: 270, alpha: false });
 */
export async function packAtlases(raw: readonly RawFrame[], opts: PackOptions): Promise<{ atlases: FlipbookAtlas[]; frames: FlipbookFrame[] }> {
  const max = opts.maxAtlasPx ?? 2048;
  if (opts.width > max || opts.height > max) throw new Error(`flipbook: frames of ${opts.width}x${opts.height} do not fit a ${max} px atlas`);
  const cols = Math.floor(max / opts.width);
  const rowsMax = Math.floor(max / opts.height);
  const perAtlas = cols * rowsMax;
  const atlases: FlipbookAtlas[] = [];
  const frames: FlipbookFrame[] = [];
  for (let start = 0; start < raw.length; start += perAtlas) {
    const batch = raw.slice(start, start + perAtlas);
    const c = Math.min(cols, batch.length);
    const r = Math.ceil(batch.length / c);
    const W = c * opts.width;
    const H = r * opts.height;
    const img = sharp({ create: { width: W, height: H, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).composite(
      batch.map((f, k) => ({ input: f.rgba, raw: { width: opts.width, height: opts.height, channels: 4 as const }, left: (k % c) * opts.width, top: Math.floor(k / c) * opts.height })),
    );
    const image = opts.alpha ? await img.png({ compressionLevel: 6 }).toBuffer() : await img.flatten({ background: '#000' }).jpeg({ quality: 88, mozjpeg: true }).toBuffer();
    const index = atlases.length;
    atlases.push({ image, mime: opts.alpha ? 'image/png' : 'image/jpeg', width: W, height: H });
    batch.forEach((f, k) => {
      const x = (k % c) * opts.width;
      const y = Math.floor(k / c) * opts.height;
      frames.push({ atlas: index, uv: [x / W, y / H, (x + opts.width) / W, (y + opts.height) / H], duration: f.duration });
    });
  }
  return { atlases, frames };
}
