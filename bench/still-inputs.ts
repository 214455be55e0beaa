/** The still benches' inputs and floor, so both measure the same picture against the same floor. */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';

/** Longest side of the texture the service makes (and the floor resizes to). */
export const MAX_TEXTURE = 2048;

/** A 12-megapixel JPEG (4000 x 3000) of blurred noise, so the codecs do real work (a flat picture compresses to nothing). */
export function photo12mp(): Promise<Buffer> {
  return sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: { r: 120, g: 140, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .blur(1.2)
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The floor: sharp decoding, resizing to the texture size and encoding the same picture; ms. */
export async function stillFloor(bytes: Buffer, format: 'jpeg' | 'png'): Promise<number> {
  const t = performance.now();
  const s = sharp(bytes).resize({ width: MAX_TEXTURE, height: MAX_TEXTURE, fit: 'inside', withoutEnlargement: true });
  await (
    format === 'jpeg' ? s.jpeg({ quality: 90, chromaSubsampling: '4:4:4' }) : s.png({ compressionLevel: 6, adaptiveFiltering: false })
  ).toBuffer();
  return performance.now() - t;
}
