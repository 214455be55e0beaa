import sharp from 'sharp';
import type { NormalisedImage } from '../normalise/normalise-image';

export interface Poster {
  image: Buffer;
  mime: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  width: number;
  height: number;
}

/** A poster for `<img>` and embed pages: at most `maxPx` on the long side, PNG when transparent. */
export async function makePoster(img: NormalisedImage, maxPx = 1024): Promise<Poster> {
  if (img.width <= maxPx && img.height <= maxPx) {
    return { image: img.texture, mime: img.mime, ext: img.ext, width: img.width, height: img.height };
  }
  const s = sharp(img.texture).resize({ width: maxPx, height: maxPx, fit: 'inside' });
  const out = img.alpha === 'opaque'
    ? await s.jpeg({ quality: 85 }).toBuffer({ resolveWithObject: true })
    : await s.png().toBuffer({ resolveWithObject: true });
  return { image: out.data, mime: img.mime, ext: img.ext, width: out.info.width, height: out.info.height };
}
