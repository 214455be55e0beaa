import sharp from 'sharp';
import type { Dimensions } from '../dimensions/dimensions';
import type { Poster } from '../normalise/normalise-image';
import { colorHex, type Presentation } from '../presentation/presentation';
import { woodGrainTexture } from './wood-texture';

/**
 * The poster as the framed object looks from the front: moulding (wood grain for oak and walnut, a
 * light bevel for every frame), mat or float reveal, then the picture, at the same pixels per inch as
 * the picture's poster. Unframed pictures and canvas wraps keep their poster as it is.
 *
 * @example
 * const poster = await framedPoster(img.poster, { width_inches: 24, height_inches: 36 }, presentation);
 */
export async function framedPoster(poster: Poster, dims: Dimensions, p: Presentation): Promise<Poster> {
  const { frame, mat } = p;
  if (frame.style !== 'thin' && frame.style !== 'classic' && frame.style !== 'float') return poster;
  const ppi = poster.width / dims.width_inches;
  const fw = Math.max(2, Math.round(frame.width_inches * ppi));
  const mw = Math.round((mat?.width_inches ?? 0) * ppi);
  const W = poster.width + 2 * (fw + mw);
  const H = poster.height + 2 * (fw + mw);
  const frameHex = colorHex(frame.color);
  const wood = frame.color === 'oak' || frame.color === 'walnut' ? [{ input: (await woodGrainTexture(frameHex)).image, tile: true, left: 0, top: 0 }] : [];
  const shade = Math.max(1, Math.round(fw * 0.25));
  // Light from the top left: a highlight on the moulding's outer top/left, a shadow inside its opening.
  const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <rect x="0" y="0" width="${W}" height="${H}" fill="none" stroke="rgba(255,255,255,0.22)" stroke-width="${shade}"/>
  <rect x="${fw}" y="${fw}" width="${W - 2 * fw}" height="${H - 2 * fw}" fill="${colorHex(mat?.color ?? 'white')}"/>
  <rect x="${fw}" y="${fw}" width="${W - 2 * fw}" height="${H - 2 * fw}" fill="none" stroke="rgba(0,0,0,0.35)" stroke-width="${shade}"/>
  ${mw > 0 ? `<rect x="${fw + mw - 1}" y="${fw + mw - 1}" width="${poster.width + 2}" height="${poster.height + 2}" fill="none" stroke="rgba(0,0,0,0.18)" stroke-width="2"/>` : ''}
</svg>`);
  // sharp keeps only the last composite() call: every layer goes into one.
  const framed = sharp({ create: { width: W, height: H, channels: 3, background: frameHex } }).composite([
    ...wood,
    { input: svg, left: 0, top: 0 },
    { input: poster.image, left: fw + mw, top: fw + mw },
  ]);
  // Composite keeps one pipeline: flatten to the poster's own format.
  const flat = sharp(await framed.png().toBuffer());
  const image = poster.mime === 'image/png' ? await flat.png().toBuffer() : await flat.jpeg({ quality: 86, mozjpeg: true }).toBuffer();
  return { image, mime: poster.mime, ext: poster.ext, width: W, height: H };
}
