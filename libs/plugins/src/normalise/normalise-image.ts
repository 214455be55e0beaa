import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { UserError } from '@app/pipeline';

export interface NormaliseOptions {
  /** Longest texture side the viewers take (Scene Viewer / Quick Look: 2048). */
  maxTexturePx: number;
  /** Decompression-bomb guard. */
  maxInputPixels: number;
  /** JPEG quality for opaque pictures. */
  jpegQuality?: number;
  /** Longest side of the poster (default 1024). */
  posterPx?: number;
}

/** A poster for `<img>` tags and embed pages: same format rules as the texture, smaller. */
export interface Poster {
  image: Buffer;
  mime: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  width: number;
  height: number;
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
}

const fail = (code: string, message: string) => new UserError(code, `normalise: ${message}`);

/**
 * Turns an untrusted picture into a viewer-ready texture: EXIF orientation applied, any colour space or
 * bit depth converted to 8-bit sRGB, alpha kept, first frame of an animation, downscaled only when a
 * side exceeds `maxTexturePx`; JPEG when opaque, PNG when it has transparency.
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

  type Encoded = { data: Buffer; info: OutputInfo };
  const result = (tex: Encoded, poster: Encoded, alpha: NormalisedImage['alpha']): NormalisedImage => {
    const png = alpha !== 'opaque';
    return {
      texture: tex.data,
      mime: png ? 'image/png' : 'image/jpeg',
      ext: png ? 'png' : 'jpg',
      width: tex.info.width,
      height: tex.info.height,
      sourceWidth,
      sourceHeight,
      alpha,
      poster: { image: poster.data, mime: png ? 'image/png' : 'image/jpeg', ext: png ? 'png' : 'jpg', width: poster.info.width, height: poster.info.height },
    };
  };

  try {
    const posterPx = opts.posterPx ?? 1024;
    const base = sharp(input, { ...sharpOpts, pages: 1 })
      .rotate()
      .resize({ width: opts.maxTexturePx, height: opts.maxTexturePx, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb');
    const posterOf = (p: Sharp) => p.clone().resize({ width: posterPx, height: posterPx, fit: 'inside', withoutEnlargement: true });
    // The texture keeps full chroma (it is looked at up close in AR); the poster uses the usual 4:2:0.
    const jpeg = (p: Sharp, quality: number, chromaSubsampling = '4:4:4') => p.jpeg({ quality, chromaSubsampling }).toBuffer({ resolveWithObject: true });

    // Texture and poster are cloned from one pipeline and encoded in parallel (the bench's floor is one
    // decode + resize + encode; this keeps us close to it).
    if (!meta.hasAlpha) {
      const opaque = base.removeAlpha();
      const [tex, poster] = await Promise.all([jpeg(opaque.clone(), opts.jpegQuality ?? 90), jpeg(posterOf(opaque), 85, '4:2:0')]);
      return result(tex, poster, 'opaque');
    }
    // With alpha: decode once to raw RGBA, classify the alpha from it, encode texture and poster from memory.
    const { data, info } = await base.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const fromRaw = () => sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } });
    const alpha = classifyAlpha(data, 4);
    if (alpha === 'opaque') {
      // An alpha channel with nothing transparent in it: a JPEG is smaller and renders the same.
      const [tex, poster] = await Promise.all([jpeg(fromRaw().removeAlpha(), opts.jpegQuality ?? 90), jpeg(posterOf(fromRaw().removeAlpha()), 85, '4:2:0')]);
      return result(tex, poster, 'opaque');
    }
    const [png, poster] = await Promise.all([
      fromRaw().png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer({ resolveWithObject: true }),
      posterOf(fromRaw()).png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true }),
    ]);
    return result(png, poster, alpha);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw fail('invalid_image', `the image cannot be decoded (${(e as Error).message})`);
  }
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
