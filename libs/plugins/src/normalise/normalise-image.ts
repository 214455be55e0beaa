import sharp, { type Metadata } from 'sharp';
import { UserError } from '@app/pipeline';

export interface NormaliseOptions {
  /** Longest texture side the viewers take (Scene Viewer / Quick Look: 2048). */
  maxTexturePx: number;
  /** Decompression-bomb guard. */
  maxInputPixels: number;
  /** JPEG quality for opaque pictures. */
  jpegQuality?: number;
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

  try {
    const base = () =>
      sharp(input, { ...sharpOpts, pages: 1 })
        .rotate()
        .resize({ width: opts.maxTexturePx, height: opts.maxTexturePx, fit: 'inside', withoutEnlargement: true })
        .toColourspace('srgb');

    let alpha: NormalisedImage['alpha'] = 'opaque';
    if (meta.hasAlpha) {
      const { data, info } = await base().ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true });
      let soft = false;
      let any = false;
      for (let i = 0; i < info.width * info.height; i++) {
        const a = data[i];
        if (a !== 255) {
          any = true;
          if (a !== 0) {
            soft = true;
            break;
          }
        }
      }
      alpha = soft ? 'blend' : any ? 'mask' : 'opaque';
    }
    const out = alpha === 'opaque'
      ? await base().removeAlpha().jpeg({ quality: opts.jpegQuality ?? 90, mozjpeg: false, chromaSubsampling: '4:4:4' }).toBuffer({ resolveWithObject: true })
      : await base().ensureAlpha().png({ compressionLevel: 6, adaptiveFiltering: false }).toBuffer({ resolveWithObject: true });
    return {
      texture: out.data,
      mime: alpha === 'opaque' ? 'image/jpeg' : 'image/png',
      ext: alpha === 'opaque' ? 'jpg' : 'png',
      width: out.info.width,
      height: out.info.height,
      sourceWidth,
      sourceHeight,
      alpha,
    };
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw fail('invalid_image', `the image cannot be decoded (${(e as Error).message})`);
  }
}
