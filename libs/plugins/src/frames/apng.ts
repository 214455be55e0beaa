import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { UserError } from '@app/pipeline';

/** Largest canvas decoded, in pixels (a decompression-bomb guard, as for still pictures). */
export const MAX_CANVAS_PIXELS = 100_000_000;

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Chunks before the image data that change how the pixels decode; each frame's PNG needs them too. */
const DECODING_CHUNKS = new Set(['PLTE', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP']);

const bad = (message: string) => new UserError('bad_animation', `frames: ${message}`);

/** How the canvas is left once a frame has been shown (APNG `dispose_op`). */
export type ApngDispose = 'none' | 'background' | 'previous';
/** How a frame is drawn onto the canvas (APNG `blend_op`). */
export type ApngBlend = 'source' | 'over';

/** One frame as stored in the file: its rectangle on the canvas, how it is drawn, and its compressed rows. */
export interface ApngFrame {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Seconds, as written (0 when the file says 0). */
  delay: number;
  dispose: ApngDispose;
  blend: ApngBlend;
  /** zlib stream of the frame's scanlines, split as in the file (IDAT data, or fdAT data without its sequence number). */
  data: Buffer[];
}

/** A parsed APNG: the canvas, its frames in display order, and what is needed to decode each frame. */
export interface Apng {
  width: number;
  height: number;
  /** 0 = loop forever. */
  numPlays: number;
  frames: ApngFrame[];
  /** IHDR chunk data (13 bytes). */
  ihdr: Buffer;
  /** PLTE, tRNS, colour chunks... found before the image data, copied into each frame's PNG. */
  decodingChunks: { type: string; data: Buffer }[];
}

export function isPng(bytes: Buffer): boolean {
  return bytes.length >= SIGNATURE.length && bytes.subarray(0, SIGNATURE.length).equals(SIGNATURE);
}

/** Walks a PNG's chunks, checking each one's bounds and CRC. Stops after IEND. */
function* chunks(bytes: Buffer): Generator<{ type: string; data: Buffer }> {
  let at = SIGNATURE.length;
  for (;;) {
    if (at + 12 > bytes.length) throw bad('the PNG is truncated');
    const length = bytes.readUInt32BE(at);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > bytes.length) throw bad('the PNG is truncated');
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(end - 4))
      throw bad(`the PNG's ${type} chunk is corrupt (CRC mismatch)`);
    yield { type, data: bytes.subarray(at + 8, at + 8 + length) };
    if (type === 'IEND') return;
    at = end;
  }
}

/**
 * Number of frames an APNG declares (its `acTL` chunk, which must precede the image data), or `null` when
 * the bytes are not an APNG. Reads only the header chunks, so it is cheap; malformed headers read as `null`.
 */
export function apngFrameCount(bytes: Buffer): number | null {
  if (!isPng(bytes)) return null;
  try {
    for (const { type, data } of chunks(bytes)) {
      if (type === 'IDAT' || type === 'IEND') return null;
      if (type === 'acTL' && data.length === 8) return data.readUInt32BE(0);
    }
  } catch {
    return null;
  }
  return null;
}

function readFctl(data: Buffer, canvasW: number, canvasH: number, index: number): ApngFrame {
  const width = data.readUInt32BE(4);
  const height = data.readUInt32BE(8);
  const x = data.readUInt32BE(12);
  const y = data.readUInt32BE(16);
  const delayNum = data.readUInt16BE(20);
  // A denominator of 0 means hundredths of a second (APNG spec).
  const delayDen = data.readUInt16BE(22) || 100;
  const dispose = (['none', 'background', 'previous'] as const)[data[24]];
  const blend = (['source', 'over'] as const)[data[25]];
  if (!dispose || !blend) throw bad(`frame ${index + 1} has an unknown dispose or blend operation`);
  if (width === 0 || height === 0 || x + width > canvasW || y + height > canvasH) {
    throw bad(`frame ${index + 1} (${width}x${height} at ${x},${y}) does not fit the ${canvasW}x${canvasH} canvas`);
  }
  return { x, y, width, height, delay: delayNum / delayDen, dispose, blend, data: [] };
}

/**
 * Parses an APNG's structure without decoding pixels: canvas, frames (rectangles, delays, dispose/blend
 * operations, compressed data) and the chunks each frame needs to decode. A default image that is not part
 * of the animation (no fcTL before IDAT) is left out, as APNG viewers do.
 *
 * @throws UserError `bad_animation` when the file is truncated, corrupt or inconsistent (frame count, sequence
 *   numbers, rectangles outside the canvas); `image_too_large` past {@link MAX_CANVAS_PIXELS}.
 */
export function parseApng(bytes: Buffer): Apng {
  if (!isPng(bytes)) throw bad('the file is not a PNG');
  let ihdr: Buffer | undefined;
  let width = 0;
  let height = 0;
  let declared: { numFrames: number; numPlays: number } | undefined;
  const decodingChunks: Apng['decodingChunks'] = [];
  const frames: ApngFrame[] = [];
  // fcTL and fdAT share one sequence, 0, 1, 2... in file order; a gap means a lost or reordered chunk.
  let sequence = 0;
  const checkSequence = (data: Buffer) => {
    if (data.readUInt32BE(0) !== sequence++) throw bad('the APNG chunks are out of sequence');
  };
  let idat: 'before' | 'in' | 'after' = 'before';
  let defaultIsFrame = false;

  let first = true;
  for (const { type, data } of chunks(bytes)) {
    if (first !== (type === 'IHDR')) throw bad('the PNG does not start with its IHDR chunk');
    first = false;
    if (idat === 'in' && type !== 'IDAT') idat = 'after';
    switch (type) {
      case 'IHDR':
        if (data.length !== 13) throw bad('the PNG has a malformed IHDR chunk');
        ihdr = data;
        width = data.readUInt32BE(0);
        height = data.readUInt32BE(4);
        if (width === 0 || height === 0) throw bad('the PNG has no size');
        if (width * height > MAX_CANVAS_PIXELS) {
          throw new UserError('image_too_large', `frames: ${width}x${height} is over the ${MAX_CANVAS_PIXELS}-pixel limit`);
        }
        break;
      case 'acTL':
        if (data.length !== 8 || idat !== 'before' || declared) throw bad('the APNG has a misplaced or malformed acTL chunk');
        declared = { numFrames: data.readUInt32BE(0), numPlays: data.readUInt32BE(4) };
        if (declared.numFrames === 0) throw bad('the APNG declares no frames');
        break;
      case 'fcTL':
        if (!declared) throw bad('the APNG has a frame before its acTL chunk');
        if (data.length !== 26) throw bad(`frame ${frames.length + 1} has a malformed fcTL chunk`);
        checkSequence(data);
        if (frames.length >= declared.numFrames) throw bad(`the APNG has more frames than the ${declared.numFrames} it declares`);
        frames.push(readFctl(data, width, height, frames.length));
        if (idat === 'before') {
          // The default image is the first frame: it must cover the whole canvas (APNG spec).
          const f = frames[0];
          if (f.x !== 0 || f.y !== 0 || f.width !== width || f.height !== height) throw bad('the first frame does not cover the canvas');
          defaultIsFrame = true;
        }
        break;
      case 'IDAT':
        if (idat === 'after') throw bad('the PNG image data is not contiguous');
        if (frames.length > 1) throw bad('the PNG image data comes after animation frames');
        idat = 'in';
        if (defaultIsFrame) frames[0].data.push(data);
        break;
      case 'fdAT': {
        const frame = frames[frames.length - 1];
        if (idat === 'before' || !frame || (defaultIsFrame && frames.length === 1)) throw bad('the APNG has frame data without a frame');
        if (data.length <= 4) throw bad('the APNG has an empty fdAT chunk');
        checkSequence(data);
        frame.data.push(data.subarray(4));
        break;
      }
      default:
        if (idat === 'before' && DECODING_CHUNKS.has(type)) decodingChunks.push({ type, data });
    }
  }
  if (!ihdr) throw bad('the PNG has no IHDR chunk');
  if (!declared) throw bad('the PNG is not animated (no acTL chunk)');
  if (idat === 'before') throw bad('the PNG has no image data');
  if (frames.length !== declared.numFrames) throw bad(`the APNG declares ${declared.numFrames} frames but holds ${frames.length}`);
  const empty = frames.findIndex((f) => f.data.length === 0);
  if (empty >= 0) throw bad(`frame ${empty + 1} of the APNG has no image data`);
  return { width, height, numPlays: declared.numPlays, frames, ihdr, decodingChunks };
}

/** One PNG chunk: length, type, data, CRC-32 of type + data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A standalone PNG holding one frame: the file's IHDR at the frame's size, its decoding chunks, the frame's data. */
export function framePng(apng: Apng, frame: ApngFrame): Buffer {
  const ihdr = Buffer.from(apng.ihdr);
  ihdr.writeUInt32BE(frame.width, 0);
  ihdr.writeUInt32BE(frame.height, 4);
  return Buffer.concat([
    SIGNATURE,
    pngChunk('IHDR', ihdr),
    ...apng.decodingChunks.map((c) => pngChunk(c.type, c.data)),
    ...frame.data.map((d) => pngChunk('IDAT', d)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Decodes one frame's own pixels (not composited) to 8-bit sRGB RGBA. */
async function decodeFrame(apng: Apng, frame: ApngFrame, index: number): Promise<Buffer> {
  try {
    const { data, info } = await sharp(framePng(apng, frame), { limitInputPixels: MAX_CANVAS_PIXELS, failOn: 'truncated' })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.width !== frame.width || info.height !== frame.height || info.channels !== 4)
      throw new Error(`decoded as ${info.width}x${info.height}x${info.channels}`);
    return data;
  } catch (e) {
    throw bad(`frame ${index + 1} of the APNG cannot be decoded (${(e as Error).message})`);
  }
}

/** Draws `src` (the frame's RGBA) into its rectangle of `canvas`, replacing (source) or alpha-compositing (over). */
function draw(canvas: Buffer, canvasW: number, frame: ApngFrame, src: Buffer): void {
  const rowBytes = frame.width * 4;
  for (let row = 0; row < frame.height; row++) {
    const s0 = row * rowBytes;
    const d0 = ((frame.y + row) * canvasW + frame.x) * 4;
    if (frame.blend === 'source') {
      src.copy(canvas, d0, s0, s0 + rowBytes);
      continue;
    }
    for (let s = s0, d = d0; s < s0 + rowBytes; s += 4, d += 4) {
      const sa = src[s + 3];
      if (sa === 0) continue;
      if (sa === 255) {
        src.copy(canvas, d, s, s + 4);
        continue;
      }
      // Straight (non-premultiplied) alpha "over", with weights scaled by 255 * 255 to stay in integers.
      const destWeight = canvas[d + 3] * (255 - sa);
      const outA = sa * 255 + destWeight;
      for (let c = 0; c < 3; c++) canvas[d + c] = Math.round((src[s + c] * sa * 255 + canvas[d + c] * destWeight) / outA);
      canvas[d + 3] = Math.round(outA / 255);
    }
  }
}

/** Copies the frame's rectangle out of the canvas (for dispose "previous"). */
function saveRect(canvas: Buffer, canvasW: number, frame: ApngFrame): Buffer {
  const rowBytes = frame.width * 4;
  const saved = Buffer.alloc(rowBytes * frame.height);
  for (let row = 0; row < frame.height; row++) {
    const d0 = ((frame.y + row) * canvasW + frame.x) * 4;
    canvas.copy(saved, row * rowBytes, d0, d0 + rowBytes);
  }
  return saved;
}

function clearRect(canvas: Buffer, canvasW: number, frame: ApngFrame): void {
  for (let row = 0; row < frame.height; row++) {
    const d0 = ((frame.y + row) * canvasW + frame.x) * 4;
    canvas.fill(0, d0, d0 + frame.width * 4);
  }
}

/**
 * Renders the first `count` frames as displayed: each frame decoded, drawn onto the canvas with its blend
 * operation, yielded, then disposed. Yields the live canvas (`width` x `height` RGBA): it changes once the
 * next frame is asked for, so copy it to keep it.
 */
export async function* renderApng(apng: Apng, count = apng.frames.length): AsyncGenerator<Buffer> {
  const canvas = Buffer.alloc(apng.width * apng.height * 4);
  for (let i = 0; i < Math.min(count, apng.frames.length); i++) {
    const frame = apng.frames[i];
    // There is nothing before the first frame to go back to: the spec says to treat it as "background".
    const dispose = i === 0 && frame.dispose === 'previous' ? 'background' : frame.dispose;
    const before = dispose === 'previous' ? saveRect(canvas, apng.width, frame) : undefined;
    draw(canvas, apng.width, frame, await decodeFrame(apng, frame, i));
    yield canvas;
    if (dispose === 'background') clearRect(canvas, apng.width, frame);
    else if (before) draw(canvas, apng.width, { ...frame, blend: 'source' }, before);
  }
}
