import sharp from 'sharp';
import type { Dimensions } from '../dimensions/dimensions';
import { type Poster, type RawPixels, sharpOfPixels } from '../normalise/normalise-image';
import { colorHex, type Presentation } from '../presentation/presentation';
import { woodGrainTexture } from './wood-texture';

const rgbOf = (hex: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

const woodPixels = new Map<string, Promise<{ data: Buffer; size: number }>>();
function woodRaw(hex: string): Promise<{ data: Buffer; size: number }> {
  let w = woodPixels.get(hex);
  if (!w) {
    w = woodGrainTexture(hex).then(async (t) => {
      const { data, info } = await sharp(t.image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data, size: info.width };
    });
    woodPixels.set(hex, w);
  }
  return w;
}

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
  const alpha = poster.mime === 'image/png';
  const ch = alpha ? 4 : 3;
  // Drawn into one raw buffer: libvips' composite of a few full-size layers cost ten times more.
  const out = Buffer.alloc(W * H * ch, 255);
  const frameHex = colorHex(frame.color);
  const wood = frame.color === 'oak' || frame.color === 'walnut' ? await woodRaw(frameHex) : undefined;
  const [fr, fg, fb] = rgbOf(frameHex);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // Only the moulding: the inside is painted over below.
      if (x === fw && y >= fw && y < H - fw) x = W - fw;
      const o = (y * W + x) * ch;
      if (wood) {
        // Grain runs along each side of the moulding.
        const along = y < fw || y >= H - fw ? x : y;
        const across = y < fw || y >= H - fw ? y : x;
        const w = ((across % wood.size) * wood.size + (along % wood.size)) * 3;
        out[o] = wood.data[w];
        out[o + 1] = wood.data[w + 1];
        out[o + 2] = wood.data[w + 2];
      } else {
        out[o] = fr;
        out[o + 1] = fg;
        out[o + 2] = fb;
      }
    }
  }
  const shade = Math.max(1, Math.round(fw * 0.25));
  const tint = (x0: number, y0: number, x1: number, y1: number, k: number, add: number) => {
    for (let y = Math.max(0, y0); y < Math.min(H, y1); y++) {
      for (let x = Math.max(0, x0); x < Math.min(W, x1); x++) {
        const o = (y * W + x) * ch;
        for (let c = 0; c < 3; c++) out[o + c] = Math.min(255, Math.round(out[o + c] * k + add));
      }
    }
  };
  // Light from the top left: a highlight on the moulding's outer top and left edges.
  tint(0, 0, W, shade, 0.8, 51);
  tint(0, shade, shade, H, 0.8, 51);
  // The mat (or float reveal), with the moulding's shadow falling on its top and left.
  const [mr, mg, mb] = rgbOf(colorHex(mat?.color ?? 'white'));
  const inner = fw + mw;
  for (let y = fw; y < H - fw; y++) {
    for (let x = fw; x < W - fw; x++) {
      if (x === inner && y >= inner && y < H - inner) x = W - inner;
      const o = (y * W + x) * ch;
      out[o] = mr;
      out[o + 1] = mg;
      out[o + 2] = mb;
    }
  }
  tint(fw, fw, W - fw, fw + shade, 0.65, 0);
  tint(fw, fw + shade, fw + shade, H - fw, 0.65, 0);
  // The picture: its pixels as normalise left them, decoded from the poster only when they are gone.
  const pic = await posterPixels(poster);
  const row = poster.width * ch;
  for (let y = 0; y < poster.height; y++) pic.copy(out, ((fw + mw + y) * W + fw + mw) * ch, y * row, (y + 1) * row);
  const pixels: RawPixels = { data: out, width: W, height: H, channels: ch };
  const img = sharpOfPixels(pixels);
  const image = alpha ? await img.png().toBuffer() : await img.jpeg({ quality: 86 }).toBuffer();
  return { image, mime: poster.mime, ext: poster.ext, width: W, height: H, pixels };
}

/** The poster's pixels (RGBA for a PNG poster, RGB otherwise): kept ones when they match, else decoded. */
async function posterPixels(poster: Poster): Promise<Buffer> {
  const ch = poster.mime === 'image/png' ? 4 : 3;
  const kept = poster.pixels;
  if (kept && kept.channels === ch && kept.width === poster.width && kept.height === poster.height) return kept.data;
  const decoded = sharp(poster.image).toColourspace('srgb');
  return (ch === 4 ? decoded.ensureAlpha() : decoded.removeAlpha()).raw().toBuffer();
}
