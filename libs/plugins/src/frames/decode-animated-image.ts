import sharp, { type Metadata } from 'sharp';
import { OperationalError, UserError } from '@app/pipeline';
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

/** Shortest frame delay played as written, ms. */
export const MIN_FRAME_DELAY_MS = 20;
/** What a shorter delay (0 included) plays as, ms. */
const SHORT_DELAY_PLAYS_MS = 100;

/**
 * Display time of a frame in seconds, the same rule for GIF, WebP and APNG. Browsers show GIF delays under
 * 20 ms (0 or 1 hundredth) as 100 ms, and so many GIFs rely on it that the file's value would play far too
 * fast. WebP and APNG get the same rule: 1 ms frames would otherwise pack 10,000 frames into the 10 s loop,
 * every one of them decoded; with it the loop holds at most 500.
 */
function displaySeconds(ms: number | undefined): number {
  if (ms === undefined || !(ms >= MIN_FRAME_DELAY_MS)) return SHORT_DELAY_PLAYS_MS / 1000;
  return ms / 1000;
}

/** Limits on an animated source itself, checked before any frame is decoded. */
export interface AnimatedSourceLimits {
  /** Most frames in the file. */
  maxSourceFrames: number;
  /** Most pixels decoded to reach the frames kept: canvas x frames composited, re-decoding included. */
  maxSourcePixels: number;
}

export const DEFAULT_SOURCE_LIMITS: AnimatedSourceLimits = { maxSourceFrames: 1000, maxSourcePixels: 4_000_000_000 };

export interface DecodeAnimatedOptions extends Partial<AnimatedSourceLimits> {
  /** Checked between frames and sharp calls: once aborted, decoding stops with OperationalError `aborted`. */
  signal?: AbortSignal;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new OperationalError('aborted', 'frames: interrupted while decoding the animation');
}

/** An animation as a canvas size, per-frame display times, and a way to render wanted frames as displayed. */
interface FrameSource {
  width: number;
  height: number;
  durations: number[];
  /** Pixels decoded to render `wanted`: an upper bound, each frame composited counted as a whole canvas. */
  decodedPixels(wanted: readonly number[]): number;
  /** Full-canvas RGBA of the frames at `wanted` (ascending indices), one per index, in order. A yielded buffer may be reused after. */
  render(wanted: readonly number[], signal?: AbortSignal): AsyncIterable<Buffer>;
}

function apngSource(bytes: Buffer): FrameSource {
  const apng = parseApng(bytes);
  return {
    width: apng.width,
    height: apng.height,
    durations: apng.frames.map((f) => displaySeconds(f.delay * 1000)),
    // One pass over the frames up to the last one wanted.
    decodedPixels: (wanted) => apng.width * apng.height * (wanted[wanted.length - 1] + 1),
    async *render(wanted, signal) {
      const want = new Set(wanted);
      let index = 0;
      for await (const rgba of renderApng(apng, wanted[wanted.length - 1] + 1)) {
        throwIfAborted(signal);
        if (want.has(index)) yield rgba;
        index++;
      }
    },
  };
}

/**
 * The sharp calls that render `wanted` (ascending): each starts at a wanted page and spans up to `batch`
 * pages, so pages between sparse wanted frames are not decoded to the output.
 */
function planCalls(wanted: readonly number[], batch: number): { page: number; count: number }[] {
  const last = wanted[wanted.length - 1];
  const calls: { page: number; count: number }[] = [];
  for (let i = 0; i < wanted.length;) {
    const page = wanted[i];
    const count = Math.min(batch, last + 1 - page);
    calls.push({ page, count });
    while (i < wanted.length && wanted[i] < page + count) i++;
  }
  return calls;
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
function sharpSource(bytes: Buffer, meta: Metadata): FrameSource {
  const pages = meta.pages ?? 1;
  const width = meta.width ?? 0;
  const height = (pages > 1 ? meta.pageHeight : meta.height) ?? 0;
  if (width * height > MAX_CANVAS_PIXELS) throw fail('image_too_large', `${width}x${height} is over the ${MAX_CANVAS_PIXELS}-pixel limit`);
  const frameBytes = width * height * 4;
  // Every sharp call composites pages 0..N-1 again to reach page N (libvips starts each load at the first
  // frame: measured on 2000x2000 frames, page 199 alone takes 90x page 0), so consecutive pages are read
  // in batches (a few calls for a long animation) rather than one call per wanted frame.
  const batch = Math.max(1, Math.floor(BATCH_PIXELS / (width * height)));
  return {
    width,
    height,
    durations: Array.from({ length: pages }, (_, i) => displaySeconds(meta.delay?.[i])),
    decodedPixels: (wanted) => planCalls(wanted, batch).reduce((sum, c) => sum + (c.page + c.count) * width * height, 0),
    async *render(wanted, signal) {
      let next = 0;
      // The CPU-heavy part: the signal is checked before each call (a running call cannot be interrupted).
      for (const { page, count } of planCalls(wanted, batch)) {
        throwIfAborted(signal);
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

/**
 * Number of frames (ANMF chunks) of a WebP, read from its RIFF chunks: `undefined` when the bytes are not a
 * RIFF WebP, 0 for a still one. A truncated file gives the frames found before the cut.
 */
export function webpFrameCount(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const end = Math.min(bytes.length, 8 + bytes.readUInt32LE(4));
  let frames = 0;
  for (let at = 12; at + 8 <= end;) {
    if (bytes.toString('latin1', at, at + 4) === 'ANMF') frames++;
    const size = bytes.readUInt32LE(at + 4);
    // Chunks are padded to an even size.
    at += 8 + size + (size & 1);
  }
  return frames;
}

function checkFrameCount(frames: number, limits: AnimatedSourceLimits): void {
  if (frames > limits.maxSourceFrames) {
    throw fail(
      'animation_too_many_frames',
      `the animation has ${frames} frames; at most ${limits.maxSourceFrames} are accepted (send a video for longer clips)`,
    );
  }
}

async function openSource(bytes: Buffer, limits: AnimatedSourceLimits): Promise<FrameSource | undefined> {
  const format = sniff(bytes);
  if (format === 'png') {
    const frames = apngFrameCount(bytes) ?? 0;
    if (frames <= 1) return undefined;
    checkFrameCount(frames, limits);
    return apngSource(bytes);
  }
  if (!format) return undefined;
  // libvips reads a WebP's frame table in time quadratic in its length (30,000 frames: 1 s, 100,000: 24 s),
  // so the count is checked on the file's own chunks before libvips sees it.
  if (format === 'webp') checkFrameCount(webpFrameCount(bytes) ?? 0, limits);
  const meta = await readMetadata(bytes);
  if ((meta.pages ?? 1) <= 1) return undefined;
  checkFrameCount(meta.pages ?? 1, limits);
  return sharpSource(bytes, meta);
}

/**
 * True when the bytes are an animated GIF, animated WebP or APNG with more than one frame. Reads headers
 * only; anything unreadable is reported as not animated (the still-image path then explains the problem).
 * A WebP is judged by its chunks alone (libvips' header read is slow for a long animation).
 */
export async function isAnimatedImage(bytes: Buffer): Promise<boolean> {
  const format = sniff(bytes);
  if (format === 'png') return (apngFrameCount(bytes) ?? 0) > 1;
  if (format === 'webp') return (webpFrameCount(bytes) ?? 0) > 1;
  if (!format) return false;
  try {
    return ((await sharp(bytes, { animated: true, limitInputPixels: false }).metadata()).pages ?? 1) > 1;
  } catch {
    return false;
  }
}

const stripUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

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
 * Bounded before any frame is decoded: delays under {@link MIN_FRAME_DELAY_MS} play as 100 ms (so a 10 s
 * loop holds at most 500 frames), the file's frame count is capped (`maxSourceFrames`), and so are the
 * pixels decoded to reach the frames kept (`maxSourcePixels`). `signal` stops the work between frames.
 *
 * @throws UserError `not_animated` for anything but a GIF/WebP/APNG of two or more frames, `bad_animation`
 *   for a corrupt or truncated file, `image_too_large` past 100 million pixels per frame,
 *   `animation_too_many_frames` past `maxSourceFrames`, `animation_too_large` past `maxSourcePixels`;
 *   OperationalError `aborted` once `signal` is aborted.
 * @example
 * const seq = await decodeAnimatedImage(gifBytes, DEFAULT_FRAME_LIMITS); // { width, height, frames, alpha }
 */
export async function decodeAnimatedImage(bytes: Buffer, limits: FrameLimits, options: DecodeAnimatedOptions = {}): Promise<FrameSequence> {
  const { signal, ...given } = options;
  const sourceLimits: AnimatedSourceLimits = { ...DEFAULT_SOURCE_LIMITS, ...stripUndefined(given) };
  const source = await openSource(bytes, sourceLimits);
  if (!source) throw fail('not_animated', 'the image is not an animated GIF, WebP or PNG');
  const kept = limitFrames(
    source.durations.map((duration, index) => ({ index, duration })),
    limits.maxFrames,
    limits.maxDurationS,
  );
  if (kept.length === 0) throw fail('bad_animation', 'no frame is left within the frame limits');
  const wanted = kept.map((f) => f.index);
  const pixels = source.decodedPixels(wanted);
  if (pixels > sourceLimits.maxSourcePixels) {
    const reached = wanted[wanted.length - 1] + 1;
    throw fail(
      'animation_too_large',
      `the animation is too large to decode: reaching the ${kept.length} frames kept (of its first ${reached}) on its ${source.width}x${source.height} canvas means decoding ${pixels} pixels, over the ${sourceLimits.maxSourcePixels}-pixel limit (use a smaller canvas or fewer frames, or send a video)`,
    );
  }
  const size = fitFrameSize(source.width, source.height, kept.length, limits);

  const frames: RawFrame[] = [];
  let alpha: AlphaMode = 'opaque';
  for await (const rgba of source.render(wanted, signal)) {
    throwIfAborted(signal);
    if (alpha !== 'blend') alpha = widerAlpha(alpha, classifyAlpha([{ rgba }]));
    frames.push({ rgba: await resize(rgba, source, size), duration: kept[frames.length].duration });
  }
  if (alpha === 'mask') frames.forEach((f) => snapAlpha(f.rgba));
  return { ...size, frames, alpha };
}
