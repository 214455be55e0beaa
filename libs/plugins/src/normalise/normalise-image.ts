import sharp, { type Metadata, type Sharp } from 'sharp';
import { UserError } from '@app/pipeline';
import { centredCrop, type FitMode, type FitResult, planFit } from '../fit/fit';

export interface NormaliseOptions {
  /** Longest texture side the viewers take (Scene Viewer / Quick Look: 2048). */
  maxTexturePx: number;
  /** Decompression-bomb guard. */
  maxInputPixels: number;
  /** JPEG quality for opaque pictures. */
  jpegQuality?: number;
  /** Longest side of the poster (default 1024). */
  posterPx?: number;
  /**
   * The job gave an explicit real size: its aspect (width / height) and how the picture meets it. With
   * `crop`, a picture whose aspect differs by more than 1 % is cropped, centred, to `aspect` before the
   * texture and poster are made; `stretch` changes no pixel. Absent: nothing is decided or reported.
   */
  fit?: { mode: FitMode; aspect: number };
  /**
   * The input is a texture this service encoded (read back from a stored model, for an item's variants):
   * when its pixels come out unchanged (no rotation or resize) in the format normalise would choose (an
   * 8-bit sRGB JPEG with full chroma for an opaque picture, a PNG for one with transparency), its bytes are
   * kept as the texture instead of being encoded again. The poster is made from the decoded pixels as ever.
   */
  keepTexture?: boolean;
}

/** Decoded 8-bit sRGB pixels, row by row: RGB, or RGBA when the picture has transparency. */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** A poster for `<img>` tags and embed pages: same format rules as the texture, smaller. */
export interface Poster {
  image: Buffer;
  mime: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  width: number;
  height: number;
  /**
   * The pixels `image` was encoded from, while the job that made them runs: the framed poster and the
   * thumbnails start from them instead of decoding `image` again. Never stored; absent on posters read back.
   */
  pixels?: RawPixels;
}

export interface NormalisedImage {
  texture: Buffer;
  mime: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  /** Texture size in pixels. */
  width: number;
  height: number;
  /** Displayed size of the source (after EXIF rotation; one frame for animated images). */
  sourceWidth: number;
  sourceHeight: number;
  /** 'opaque', 'mask' (only fully on/off alpha) or 'blend' (soft alpha). */
  alpha: 'opaque' | 'mask' | 'blend';
  poster: Poster;
  /** What was done to meet an explicit size ({@link NormaliseOptions.fit}); absent without one. */
  fit?: FitResult;
}

const fail = (code: string, message: string) => new UserError(code, `normalise: ${message}`);

/**
 * Turns an untrusted picture into a viewer-ready texture: EXIF orientation applied, any colour space or
 * bit depth converted to 8-bit sRGB, alpha kept, first frame of an animation, downscaled only when a
 * side exceeds `maxTexturePx`; JPEG when opaque, PNG when it has transparency. With `opts.fit` (an
 * explicit real size), cropped centred to that size's aspect when asked to and the aspects differ by more
 * than 1 %, in the same decode.
 */
export async function normaliseImage(input: Buffer, opts: NormaliseOptions): Promise<NormalisedImage> {
  const sharpOpts = { limitInputPixels: opts.maxInputPixels, failOn: 'truncated' as const, sequentialRead: true };
  let meta: Metadata;
  try {
    // Reading the header only: safe without the pixel limit, and lets the error name the size.
    meta = await sharp(input, { ...sharpOpts, limitInputPixels: false }).metadata();
  } catch (e) {
    throw fail('invalid_image', `the file is not a readable image (${(e as Error).message})`);
  }
  if (!meta.width || !meta.height) throw fail('invalid_image', 'the image has no size');
  // For animations sharp reports the whole strip; one frame is pageHeight tall.
  const frameHeight = meta.pageHeight && meta.pages && meta.pages > 1 ? meta.pageHeight : meta.height;
  if (meta.width * frameHeight > opts.maxInputPixels) {
    throw fail('image_too_large', `${meta.width}x${frameHeight} is over the ${opts.maxInputPixels}-pixel limit`);
  }
  const rotated = (meta.orientation ?? 1) >= 5;
  const sourceWidth = rotated ? frameHeight : meta.width;
  const sourceHeight = rotated ? meta.width : frameHeight;

  const fit = opts.fit ? planFit(opts.fit.mode, sourceWidth, sourceHeight, opts.fit.aspect) : undefined;

  const png = (alpha: NormalisedImage['alpha']) => alpha !== 'opaque';
  const result = (
    tex: Buffer,
    size: { width: number; height: number },
    poster: Poster,
    alpha: NormalisedImage['alpha'],
  ): NormalisedImage => ({
    texture: tex,
    mime: png(alpha) ? 'image/png' : 'image/jpeg',
    ext: png(alpha) ? 'png' : 'jpg',
    width: size.width,
    height: size.height,
    sourceWidth,
    sourceHeight,
    alpha,
    poster,
    ...(fit ? { fit } : {}),
  });

  try {
    const posterPx = opts.posterPx ?? 1024;
    // One decode: the picture is decoded and resized to the texture size once, as raw pixels; the texture
    // and the poster are encoded from those, side by side, and the poster keeps its own pixels for the
    // framed poster and the thumbnails (measured: bench/catalogue.ts; a second decode of the source for
    // the poster cost more CPU than the texture's encode overlapping its decode saved).
    let base = sharp(input, { ...sharpOpts, pages: 1 })
      .rotate()
      .resize(
        fit?.applied === 'crop'
          ? // Cropped in the same decode: the centre at the asked aspect, at most maxTexturePx a side.
            coverSize(centredCrop(sourceWidth, sourceHeight, opts.fit!.aspect), opts.maxTexturePx)
          : { width: opts.maxTexturePx, height: opts.maxTexturePx, fit: 'inside', withoutEnlargement: true },
      )
      .toColourspace('srgb');
    base = meta.hasAlpha ? base.ensureAlpha() : base.removeAlpha();
    const { data, info } = await base.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3 && info.channels !== 4) throw new Error(`${info.channels} channels after conversion to sRGB`);
    const decoded: RawPixels = { data, width: info.width, height: info.height, channels: info.channels };
    const alpha = decoded.channels === 4 ? classifyAlpha(data, 4) : 'opaque';
    // An alpha channel with nothing transparent in it: a JPEG is smaller and renders the same.
    const pixels = alpha === 'opaque' && decoded.channels === 4 ? await dropAlpha(decoded) : decoded;
    const keep = opts.keepTexture === true && keepsTexture(meta, pixels, alpha);
    const [texture, poster] = await Promise.all([
      // The texture keeps full chroma (it is looked at up close in AR).
      keep
        ? input
        : encodePixels(
            pixels,
            png(alpha)
              ? { png: { compressionLevel: 6, adaptiveFiltering: false } }
              : { jpeg: { quality: opts.jpegQuality ?? 90, chromaSubsampling: '4:4:4' } },
          ),
      posterFromPixels(pixels, posterPx, png(alpha)),
    ]);
    return result(texture, pixels, poster, alpha);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw fail('invalid_image', `the image cannot be decoded (${(e as Error).message})`);
  }
}

/**
 * The resize that crops a picture to `region`'s size, centred: `region` scaled down (never up) to at most
 * `maxPx` a side, filled by the picture with `cover` (scaled to cover it, the overflow cut off evenly).
 */
function coverSize(region: { width: number; height: number }, maxPx: number) {
  const scale = Math.min(1, maxPx / Math.max(region.width, region.height));
  return {
    width: Math.max(1, Math.round(region.width * scale)),
    height: Math.max(1, Math.round(region.height * scale)),
    fit: 'cover' as const,
    position: 'centre',
  };
}

/** Whether `input` (with header `meta`) already is the texture normalise would encode from `pixels`. */
function keepsTexture(meta: Metadata, pixels: RawPixels, alpha: NormalisedImage['alpha']): boolean {
  if ((meta.orientation ?? 1) !== 1 || meta.width !== pixels.width || meta.height !== pixels.height) return false;
  if ((meta.pages ?? 1) > 1 || meta.depth !== 'uchar' || meta.space !== 'srgb') return false;
  return alpha === 'opaque' ? meta.format === 'jpeg' && meta.chromaSubsampling === '4:4:4' : meta.format === 'png';
}

/** A sharp pipeline reading `p`. */
export const sharpOfPixels = (p: RawPixels): Sharp => sharp(p.data, { raw: { width: p.width, height: p.height, channels: p.channels } });

type Encoding =
  { jpeg: { quality: number; chromaSubsampling: string } } | { png: { compressionLevel: number; adaptiveFiltering?: boolean } };

function encodePixels(p: RawPixels, enc: Encoding): Promise<Buffer> {
  const img = sharpOfPixels(p);
  return ('jpeg' in enc ? img.jpeg(enc.jpeg) : img.png(enc.png)).toBuffer();
}

async function dropAlpha(p: RawPixels): Promise<RawPixels> {
  const data = await sharpOfPixels(p).removeAlpha().raw().toBuffer();
  return { data, width: p.width, height: p.height, channels: 3 };
}

/**
 * The poster of a picture from its texture's pixels: at most `posterPx` on the longer side, JPEG (4:2:0,
 * the usual for `<img>`) or PNG like the texture, with its own pixels kept.
 */
export async function posterFromPixels(pixels: RawPixels, posterPx: number, png: boolean): Promise<Poster> {
  const scale = Math.min(1, posterPx / Math.max(pixels.width, pixels.height));
  let small = pixels;
  if (scale < 1) {
    const { data, info } = await sharpOfPixels(pixels)
      .resize({ width: posterPx, height: posterPx, fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    small = { data, width: info.width, height: info.height, channels: pixels.channels };
  }
  const image = await encodePixels(small, png ? { png: { compressionLevel: 6 } } : { jpeg: { quality: 85, chromaSubsampling: '4:2:0' } });
  return {
    image,
    mime: png ? 'image/png' : 'image/jpeg',
    ext: png ? 'png' : 'jpg',
    width: small.width,
    height: small.height,
    pixels: small,
  };
}

/** 'opaque' when every alpha is 255, 'mask' when all are 0 or 255, 'blend' otherwise. */
function classifyAlpha(pixels: Buffer, channels: number): NormalisedImage['alpha'] {
  let any = false;
  for (let i = channels - 1; i < pixels.length; i += channels) {
    const a = pixels[i];
    if (a !== 255) {
      if (a !== 0) return 'blend';
      any = true;
    }
  }
  return any ? 'mask' : 'opaque';
}
