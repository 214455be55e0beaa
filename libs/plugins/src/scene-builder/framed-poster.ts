import sharp from 'sharp';
import type { Dimensions } from '../dimensions/dimensions';
import { type Poster, posterFromPixels, type RawPixels, sharpOfPixels } from '../normalise/normalise-image';
import { colorHex, type Presentation } from '../presentation/presentation';
import { woodGrainTexture } from './wood-texture';

const rgbOf = (hex: string): [number, number, number] =>
  [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

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
  if (!hasFrame(p)) return poster;
  // The picture: its pixels as normalise left them, decoded from the poster only when they are gone.
  const ch = poster.mime === 'image/png' ? 4 : 3;
  return drawFramed({ data: await posterPixels(poster), width: poster.width, height: poster.height, channels: ch }, poster, dims, p);
}

/** Whether the presentation puts a moulding around the picture (what {@link framedPoster} draws). */
const hasFrame = (p: Presentation) => p.frame.style === 'thin' || p.frame.style === 'classic' || p.frame.style === 'float';

/**
 * The poster of the part of a picture a `fit: crop` keeps, as the framed object looks from the front: the
 * poster's pixels cut to `uv` ([u0, v0, u1, v1] of the whole picture, from the top left), then framed like
 * {@link framedPoster}. The cut pixels are encoded once: framed, or as they are for an unframed picture or
 * a canvas wrap (same format and quality as the poster).
 *
 * @example
 * // The centre square of a 4:3 picture's poster, in an oak frame with a 2 in mat:
 * const poster = await croppedFramedPoster(img.poster, [0.125, 0, 0.875, 1], { width_inches: 20, height_inches: 20 }, presentation);
 */
export async function croppedFramedPoster(
  poster: Poster,
  uv: [number, number, number, number],
  dims: Dimensions,
  p: Presentation,
): Promise<Poster> {
  const ch = poster.mime === 'image/png' ? 4 : 3;
  const whole: RawPixels = { data: await posterPixels(poster), width: poster.width, height: poster.height, channels: ch };
  const cut = cropPixels(whole, uv);
  if (hasFrame(p)) return drawFramed(cut, poster, dims, p);
  return posterFromPixels(cut, Math.max(cut.width, cut.height), ch === 4);
}

/** The pixels of `p` inside `uv` (fractions of its size, rounded to whole pixels, at least 1 x 1), row by row. */
export function cropPixels(p: RawPixels, uv: [number, number, number, number]): RawPixels {
  const x0 = Math.min(p.width - 1, Math.max(0, Math.round(uv[0] * p.width)));
  const y0 = Math.min(p.height - 1, Math.max(0, Math.round(uv[1] * p.height)));
  const x1 = Math.max(x0 + 1, Math.min(p.width, Math.round(uv[2] * p.width)));
  const y1 = Math.max(y0 + 1, Math.min(p.height, Math.round(uv[3] * p.height)));
  if (x0 === 0 && y0 === 0 && x1 === p.width && y1 === p.height) return p;
  const ch = p.channels;
  const row = (x1 - x0) * ch;
  const data = Buffer.allocUnsafe(row * (y1 - y0));
  for (let y = y0; y < y1; y++) p.data.copy(data, (y - y0) * row, (y * p.width + x0) * ch, (y * p.width + x1) * ch);
  return { data, width: x1 - x0, height: y1 - y0, channels: ch };
}

/** The framed poster around `picture` (RGBA when `like` is a PNG poster, RGB otherwise), encoded like `like`. */
async function drawFramed(picture: RawPixels, like: Pick<Poster, 'mime' | 'ext'>, dims: Dimensions, p: Presentation): Promise<Poster> {
  const { frame, mat } = p;
  const ppi = picture.width / dims.width_inches;
  const fw = Math.max(2, Math.round(frame.width_inches * ppi));
  const mw = Math.round((mat?.width_inches ?? 0) * ppi);
  const W = picture.width + 2 * (fw + mw);
  const H = picture.height + 2 * (fw + mw);
  const alpha = like.mime === 'image/png';
  const ch = alpha ? 4 : 3;
  // Drawn into one raw buffer: libvips' composite of a few full-size layers cost ten times more.
  const out = Buffer.alloc(W * H * ch, 255);
  const frameHex = colorHex(frame.color);
  const wood = frame.color === 'oak' || frame.color === 'walnut' ? await woodRaw(frameHex) : undefined;
  /** Paints a rectangle one colour: its first row by pixel, the others copied from it. */
  const fillRect = (x0: number, y0: number, x1: number, y1: number, [r, g, b]: [number, number, number]) => {
    if (x1 <= x0 || y1 <= y0) return;
    const first = (y0 * W + x0) * ch;
    for (let x = x0, o = first; x < x1; x++, o += ch) {
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
    }
    for (let y = y0 + 1; y < y1; y++) out.copy(out, (y * W + x0) * ch, first, first + (x1 - x0) * ch);
  };
  if (wood) {
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        // Only the moulding: the inside is painted over below.
        if (x === fw && y >= fw && y < H - fw) x = W - fw;
        const o = (y * W + x) * ch;
        // Grain runs along each side of the moulding.
        const along = y < fw || y >= H - fw ? x : y;
        const across = y < fw || y >= H - fw ? y : x;
        const w = ((across % wood.size) * wood.size + (along % wood.size)) * 3;
        out[o] = wood.data[w];
        out[o + 1] = wood.data[w + 1];
        out[o + 2] = wood.data[w + 2];
      }
    }
  } else {
    const rgb = rgbOf(frameHex);
    fillRect(0, 0, W, fw, rgb);
    fillRect(0, H - fw, W, H, rgb);
    fillRect(0, fw, fw, H - fw, rgb);
    fillRect(W - fw, fw, W, H - fw, rgb);
  }
  const shade = Math.max(1, Math.round(fw * 0.25));
  const tint = (x0: number, y0: number, x1: number, y1: number, k: number, add: number) => {
    const lut = new Uint8Array(256);
    for (let v = 0; v < 256; v++) lut[v] = Math.min(255, Math.round(v * k + add));
    const [ya, yb, xa, xb] = [Math.max(0, y0), Math.min(H, y1), Math.max(0, x0), Math.min(W, x1)];
    for (let y = ya; y < yb; y++) {
      for (let x = xa, o = (y * W + xa) * ch; x < xb; x++, o += ch) {
        out[o] = lut[out[o]];
        out[o + 1] = lut[out[o + 1]];
        out[o + 2] = lut[out[o + 2]];
      }
    }
  };
  // Light from the top left: a highlight on the moulding's outer top and left edges.
  tint(0, 0, W, shade, 0.8, 51);
  tint(0, shade, shade, H, 0.8, 51);
  // The mat (or float reveal), with the moulding's shadow falling on its top and left.
  const matRgb = rgbOf(colorHex(mat?.color ?? 'white'));
  const inner = fw + mw;
  fillRect(fw, fw, W - fw, inner, matRgb);
  fillRect(fw, H - inner, W - fw, H - fw, matRgb);
  fillRect(fw, inner, inner, H - inner, matRgb);
  fillRect(W - inner, inner, W - fw, H - inner, matRgb);
  tint(fw, fw, W - fw, fw + shade, 0.65, 0);
  tint(fw, fw + shade, fw + shade, H - fw, 0.65, 0);
  const pic = picture.data;
  const row = picture.width * ch;
  for (let y = 0; y < picture.height; y++) pic.copy(out, ((fw + mw + y) * W + fw + mw) * ch, y * row, (y + 1) * row);
  const pixels: RawPixels = { data: out, width: W, height: H, channels: ch };
  const img = sharpOfPixels(pixels);
  const image = alpha ? await img.png().toBuffer() : await img.jpeg({ quality: 86 }).toBuffer();
  return { image, mime: like.mime, ext: like.ext, width: W, height: H, pixels };
}

/** The poster's pixels (RGBA for a PNG poster, RGB otherwise): kept ones when they match, else decoded. */
async function posterPixels(poster: Poster): Promise<Buffer> {
  const ch = poster.mime === 'image/png' ? 4 : 3;
  const kept = poster.pixels;
  if (kept && kept.channels === ch && kept.width === poster.width && kept.height === poster.height) return kept.data;
  const decoded = sharp(poster.image).toColourspace('srgb');
  return (ch === 4 ? decoded.ensureAlpha() : decoded.removeAlpha()).raw().toBuffer();
}
