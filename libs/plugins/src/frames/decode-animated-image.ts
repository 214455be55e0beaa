import sharp, { type Metadata } from 'sharp';
import { UserError } from '@app/pipeline';
import type { RawFrame } from '../flipbook/pack-atlases';
import { MAX_CANVAS_PIXELS, apngFrameCount, isPng, parseApng, renderApng } from './apng';
import { type AlphaMode, type FrameLimits, type FrameSequence, classifyAlpha, fitFrameSize, limitFrames } from './frame-sequence';

/** Pixels decoded per sharp call for GIF/WebP, so a long animation never sits in memory whole at source size. */
const BATCH_PIXELS = 16_000_000;

const fail = (code: string, message: string) => new UserError(code, `frames: ${message}`);

type Format = 'gif' | 'webp' | 'png';

/** Recognises the three animated formats by their magic bytes (the only ones read here). */
function sniff(bytes: Buffer): Format | undefined {
  if (isPng(bytes)) return 'png';
  const head = bytes.toString('latin1', 0, 6);
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (bytes.length >= 12 && head.startsWith('RIFF') && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/**
 * Display time of a frame in seconds. Browsers show GIF delays under 20 ms (0 or 1 hundredth) as 100 ms,
 * and so many GIFs rely on it that the file's value would play far too fast; a delay of 0 in WebP or APNG
 * gets the same 100 ms rather than an instant frame.
 */
function displaySeconds(ms: number | undefined, format: Format): number {
  if (ms === undefined || ms <= 0 || (format === 'gif' && ms < 20)) return 0.1;
  return ms / 1000;
}

/** An animation as a canvas size, per-frame display times, and a way to render wanted frames as displayed. */
interface FrameSource {
  width: number;
  height: number;
  durations: number[];
  /** Full-canvas RGBA of the frames at `wanted` (ascending indices), one per index, in order. A yielded buffer may be reused after. */
  render(wanted: readonly number[]): AsyncIterable<Buffer>;
}

function apngSource(bytes: Buffer): FrameSource {
  const apng = parseApng(bytes);
  return {
    width: apng.width,
    height: apng.height,
    durations: apng.frames.map((f) => displaySeconds(f.delay * 1000, 'png')),
    async *render(wanted) {
      const want = new Set(wanted);
      let index = 0;
      for await (const rgba of renderApng(apng, wanted[wanted.length - 1] + 1)) {
        if (want.has(index)) yield rgba;
        index++;
      }
    },
  };
}

async function readMetadata(bytes: Buffer): Promise<Metadata> {
  try {
    // The header only: no pixel limit needed here, and the size check below can then name the size.
    return await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
  } catch (e) {
    throw fail('bad_animation', `the animation cannot be read (${(e as Error).message})`);
  }
}

/** GIF and animated WebP: sharp (libvips) composites their frames as displayed. */
async function sharpSource(bytes: Buffer, format: Format, meta: Metadata): Promise<FrameSource> {
  const pages = meta.pages ?? 1;
  const width = meta.width ?? 0;
  const height = (pages > 1 ? meta.pageHeight : meta.height) ?? 0;
  if (width * height > MAX_CANVAS_PIXELS) throw fail('image_too_large', `${width}x${height} is over the ${MAX_CANVAS_PIXELS}-pixel limit`);
  const frameBytes = width * height * 4;
  // Decoding page N makes libvips composite pages 0..N-1 anyway, so consecutive pages are read in batches
  // (a few calls for a long animation) rather than one call per wanted frame.
  const batch = Math.max(1, Math.floor(BATCH_PIXELS / (width * height)));
  return {
    width,
    height,
    durations: Array.from({ length: pages }, (_, i) => displaySeconds(meta.delay?.[i], format)),
    async *render(wanted) {
      const last = wanted[wanted.length - 1];
      let next = 0;
      for (let page = 0; page <= last; page += batch) {
        const count = Math.min(batch, last + 1 - page);
        if (wanted[next] >= page + count) continue;
        let data: Buffer;
        try {
          data = await sharp(bytes, { page, pages: count, limitInputPixels: MAX_CANVAS_PIXELS, failOn: 'truncated' })
            .toColourspace('srgb')
            .ensureAlpha()
            .raw({ depth: 'uchar' })
            .toBuffer();
        } catch (e) {
          throw fail('bad_animation', `the animation cannot be decoded (${(e as Error).message})`);
        }
        if (data.length !== frameBytes * count) throw fail('bad_animation', `the animation decoded to an unexpected size`);
        for (; next < wanted.length && wanted[next] < page + count; next++) {
          const at = (wanted[next] - page) * frameBytes;
          yield data.subarray(at, at + frameBytes);
        }
      }
    },
  };
}

async function openSource(bytes: Buffer): Promise<FrameSource | undefined> {
  const format = sniff(bytes);
  if (format === 'png') return (apngFrameCount(bytes) ?? 0) > 1 ? apngSource(bytes) : undefined;
  if (!format) return undefined;
  const meta = await readMetadata(bytes);
  return (meta.pages ?? 1) > 1 ? sharpSource(bytes, format, meta) : undefined;
}

/**
 * True when the bytes are an animated GIF, animated WebP or APNG with more than one frame. Reads headers
 * only; anything unreadable is reported as not animated (the still-image path then explains the problem).
 */
export async function isAnimatedImage(bytes: Buffer): Promise<boolean> {
  const format = sniff(bytes);
  if (format === 'png') return (apngFrameCount(bytes) ?? 0) > 1;
  if (!format) return false;
  try {
    return ((await sharp(bytes, { animated: true, limitInputPixels: false }).metadata()).pages ?? 1) > 1;
  } catch {
    return false;
  }
}

const ALPHA_ORDER: readonly AlphaMode[] = ['opaque', 'mask', 'blend'];
const widerAlpha = (a: AlphaMode, b: AlphaMode): AlphaMode => (ALPHA_ORDER.indexOf(a) >= ALPHA_ORDER.indexOf(b) ? a : b);

async function resize(rgba: Buffer, from: { width: number; height: number }, to: { width: number; height: number }): Promise<Buffer> {
  // The source buffer may be reused by the renderer: the output must be a copy either way.
  if (from.width === to.width && from.height === to.height) return Buffer.from(rgba);
  return sharp(rgba, { raw: { width: from.width, height: from.height, channels: 4 } })
    .resize(to.width, to.height, { fit: 'fill' })
    .raw()
    .toBuffer();
}

/** Resampling softens 1-bit edges; a mask stays a mask (what the renderer alpha-tests), cut at half. */
function snapAlpha(rgba: Buffer): void {
  for (let i = 3; i < rgba.length; i += 4) rgba[i] = rgba[i] >= 128 ? 255 : 0;
}

/**
 * Decodes every frame of an animated GIF, WebP or APNG as displayed (full canvas, disposal and blending
 * applied) with its display time, then applies `limits`: frames cut and resampled by {@link limitFrames},
 * the size chosen by {@link fitFrameSize} for the frames kept, each resized to exactly that size. Only the
 * frames kept are resized, and nothing past the last kept frame is decoded.
 *
 * The alpha mode is classified on the frames at source size, so a GIF's 1-bit transparency stays `mask`
 * after resampling (the resized alpha is snapped to 0/255 to match).
 *
 * @throws UserError `not_animated` for anything but a GIF/WebP/APNG of two or more frames, `bad_animation`
 *   for a corrupt or truncated file, `image_too_large` past 100 million pixels per frame.
 * @example
 * const seq = await decodeAnimatedImage(gifBytes, DEFAULT_FRAME_LIMITS); // { width, height, frames, alpha }
 */
export async function decodeAnimatedImage(bytes: Buffer, limits: FrameLimits): Promise<FrameSequence> {
  const source = await openSource(bytes);
  if (!source) throw fail('not_animated', 'the image is not an animated GIF, WebP or PNG');
  const kept = limitFrames(
    source.durations.map((duration, index) => ({ index, duration })),
    limits.maxFrames,
    limits.maxDurationS,
  );
  if (kept.length === 0) throw fail('bad_animation', 'no frame is left within the frame limits');
  const size = fitFrameSize(source.width, source.height, kept.length, limits);

  const frames: RawFrame[] = [];
  let alpha: AlphaMode = 'opaque';
  for await (const rgba of source.render(kept.map((f) => f.index))) {
    if (alpha !== 'blend') alpha = widerAlpha(alpha, classifyAlpha([{ rgba }]));
    frames.push({ rgba: await resize(rgba, source, size), duration: kept[frames.length].duration });
  }
  if (alpha === 'mask') frames.forEach((f) => snapAlpha(f.rgba));
  return { ...size, frames, alpha };
}
