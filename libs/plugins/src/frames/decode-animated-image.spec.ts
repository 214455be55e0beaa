import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { OperationalError, UserError } from '@app/pipeline';
import { type DecodeAnimatedOptions, decodeAnimatedImage, isAnimatedImage, webpFrameCount } from './decode-animated-image';
import { pngChunk } from './apng';
import { DEFAULT_FRAME_LIMITS, type FrameLimits, classifyAlpha } from './frame-sequence';

type RGBA = [number, number, number, number];

const RED: RGBA = [255, 0, 0, 255];
const GREEN: RGBA = [0, 255, 0, 255];
const BLUE: RGBA = [0, 0, 255, 255];
const CLEAR: RGBA = [0, 0, 0, 0];

/** A width x height RGBA picture, each pixel coloured by `colour(x, y)`. */
function picture(width: number, height: number, colour: (x: number, y: number) => RGBA): Buffer {
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out.set(colour(x, y), (y * width + x) * 4);
  return out;
}

/** A big picture quickly: the left half one colour, the right half another. */
function halves(width: number, height: number, left: RGBA, right: RGBA): Buffer {
  const row = Buffer.alloc(width * 4);
  row.fill(Buffer.from(left), 0, (width / 2) * 4);
  row.fill(Buffer.from(right), (width / 2) * 4);
  return Buffer.concat(Array<Buffer>(height).fill(row));
}

const pixel = (rgba: Buffer, width: number, x: number, y: number): number[] => [
  ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4),
];

/** Frames stacked into one tall strip, the way sharp takes (and gives) animations. */
async function animation(format: 'gif' | 'webp', width: number, height: number, frames: Buffer[], delay: number[]): Promise<Buffer> {
  const strip = sharp(Buffer.concat(frames), { raw: { width, height: height * frames.length, channels: 4, pageHeight: height } });
  // Fast GIF settings: the test pictures have few colours (at most 16), and exact ones need no dithering.
  return format === 'gif'
    ? strip.gif({ delay, loop: 0, effort: 1, dither: 0, colours: 16 }).toBuffer()
    : strip.webp({ delay, loop: 0, lossless: true }).toBuffer();
}

/**
 * An animated WebP of `count` 2x2 red frames (each at its own spot) on a `canvas` x `canvas` canvas, written
 * chunk by chunk: a hostile file in a few KB, as sharp would need the whole canvas per frame to encode it.
 */
async function tinyFramesWebp(canvas: number, count: number, delayMs: number): Promise<Buffer> {
  const u24 = (v: number) => Buffer.from([v & 255, (v >> 8) & 255, (v >> 16) & 255]);
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32LE(data.length, 4);
    return Buffer.concat([head, data, Buffer.alloc(data.length & 1)]);
  };
  const still = await sharp(
    picture(2, 2, () => RED),
    { raw: { width: 2, height: 2, channels: 4 } },
  )
    .webp({ lossless: true })
    .toBuffer();
  const bitstream = still.subarray(12); // its VP8L chunk
  const frames = Array.from({ length: count }, (_, i) => {
    const at = (i * 2) % (canvas * canvas);
    // ANMF: x/2, y/2, width-1, height-1, duration (24 bits each), then blend/dispose flags.
    const header = Buffer.concat([
      u24((at % canvas) / 2),
      u24(Math.floor(at / canvas / 2)),
      u24(1),
      u24(1),
      u24(delayMs),
      Buffer.from([0]),
    ]);
    return chunk('ANMF', Buffer.concat([header, bitstream]));
  });
  const vp8x = Buffer.concat([Buffer.from([0x12, 0, 0, 0]), u24(canvas - 1), u24(canvas - 1)]); // animation + alpha
  const body = Buffer.concat([Buffer.from('WEBP'), chunk('VP8X', vp8x), chunk('ANIM', Buffer.alloc(6)), ...frames]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

// --- APNG writer: just enough of the format to build test files chunk by chunk ---

/** zlib stream of scanlines (`bpp` bytes a pixel), each with filter byte 0 (none). */
function scanlines(pixels: Buffer, width: number, height: number, bpp = 4): Buffer {
  const row = width * bpp;
  const rows = Buffer.alloc(height * (1 + row));
  for (let y = 0; y < height; y++) pixels.copy(rows, y * (1 + row) + 1, y * row, (y + 1) * row);
  return deflateSync(rows);
}

interface ApngTestFrame {
  x?: number;
  y?: number;
  width: number;
  height: number;
  /** RGBA, or palette indices for a paletted file. */
  rgba: Buffer;
  /** [numerator, denominator] seconds. */
  delay?: [number, number];
  dispose?: 0 | 1 | 2;
  blend?: 0 | 1;
}

/**
 * An RGBA APNG (or paletted, with `palette`). The first frame is the default image unless `separateDefault`
 * is given: then that picture is the IDAT (shown by non-APNG viewers) and every frame goes to fdAT chunks.
 */
function apng(
  width: number,
  height: number,
  frames: ApngTestFrame[],
  opts: { separateDefault?: Buffer; numFrames?: number; palette?: RGBA[] } = {},
): Buffer {
  const u32 = (...values: number[]) =>
    Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));
  const { palette } = opts;
  const bpp = palette ? 1 : 4;
  const ihdr = Buffer.concat([u32(width, height), Buffer.from([8, palette ? 3 : 6, 0, 0, 0])]);
  const out = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('acTL', u32(opts.numFrames ?? frames.length, 0)),
  ];
  if (palette)
    out.push(pngChunk('PLTE', Buffer.from(palette.flatMap((c) => c.slice(0, 3)))), pngChunk('tRNS', Buffer.from(palette.map((c) => c[3]))));
  let sequence = 0;
  if (opts.separateDefault) out.push(pngChunk('IDAT', scanlines(opts.separateDefault, width, height, bpp)));
  frames.forEach((f, i) => {
    const [num, den] = f.delay ?? [1, 10];
    const fctl = Buffer.concat([
      u32(sequence++, f.width, f.height, f.x ?? 0, f.y ?? 0),
      Buffer.from([num >> 8, num & 255, den >> 8, den & 255, f.dispose ?? 0, f.blend ?? 0]),
    ]);
    out.push(pngChunk('fcTL', fctl));
    const data = scanlines(f.rgba, f.width, f.height, bpp);
    if (i === 0 && !opts.separateDefault) {
      // Split in two IDATs, as encoders do for big images: the decoder must join them.
      const half = data.length >> 1;
      out.push(pngChunk('IDAT', data.subarray(0, half)), pngChunk('IDAT', data.subarray(half)));
    } else {
      out.push(pngChunk('fdAT', Buffer.concat([u32(sequence++), data])));
    }
  });
  out.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(out);
}

async function failure(bytes: Buffer, limits: FrameLimits = DEFAULT_FRAME_LIMITS, options?: DecodeAnimatedOptions): Promise<UserError> {
  try {
    await decodeAnimatedImage(bytes, limits, options);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as Error).message).toMatch(/^frames: /);
    return e as UserError;
  }
  throw new Error('did not fail');
}

const seconds = (frames: { duration: number }[]) => frames.map((f) => Math.round(f.duration * 1000) / 1000);

describe('decodeAnimatedImage: GIF', () => {
  it('decodes every frame with its colours and delays', async () => {
    const gif = await animation(
      'gif',
      8,
      6,
      [picture(8, 6, () => RED), picture(8, 6, () => GREEN), picture(8, 6, () => BLUE)],
      [100, 200, 300],
    );
    const seq = await decodeAnimatedImage(gif, DEFAULT_FRAME_LIMITS);
    expect([seq.width, seq.height, seq.frames.length, seq.alpha]).toEqual([8, 6, 3, 'opaque']);
    expect(seconds(seq.frames)).toEqual([0.1, 0.2, 0.3]);
    expect(seq.frames.map((f) => pixel(f.rgba, 8, 3, 2))).toEqual([RED, GREEN, BLUE]);
    expect(seq.frames.every((f) => f.rgba.length === 8 * 6 * 4)).toBe(true);
  });

  it('plays delays under 20 ms as 100 ms, as browsers do', async () => {
    const frames = [RED, GREEN, BLUE].map((c) => picture(4, 4, () => c));
    const seq = await decodeAnimatedImage(await animation('gif', 4, 4, frames, [0, 10, 20]), DEFAULT_FRAME_LIMITS);
    expect(seconds(seq.frames)).toEqual([0.1, 0.1, 0.02]);
  });

  it('reports 1-bit transparency as mask, and keeps it 1-bit when shrinking', async () => {
    const halfClear = picture(40, 20, (x) => (x < 20 ? CLEAR : BLUE));
    const gif = await animation('gif', 40, 20, [picture(40, 20, () => RED), halfClear], [100, 100]);
    const seq = await decodeAnimatedImage(gif, DEFAULT_FRAME_LIMITS);
    expect(seq.alpha).toBe('mask');
    expect(pixel(seq.frames[1].rgba, 40, 5, 5)[3]).toBe(0);
    expect(pixel(seq.frames[1].rgba, 40, 30, 5)).toEqual(BLUE);

    const small = await decodeAnimatedImage(gif, { ...DEFAULT_FRAME_LIMITS, maxSide: 15 });
    expect([small.width, small.height, small.alpha]).toEqual([15, 7, 'mask']);
    expect(classifyAlpha(small.frames)).toBe('mask');
  });

  it('decodes long animations in batches without mixing frames up', async () => {
    // 2000 x 1000 frames: 8 per batch, so 10 frames take two sharp calls. Only the left half changes, which
    // lets the GIF encoder leave the right half transparent ("unchanged") in later frames.
    const colour = (k: number): RGBA => [k * 25, 255 - k * 25, 0, 255];
    const frames = Array.from({ length: 10 }, (_, k) => halves(2000, 1000, colour(k), BLUE));
    const gif = await animation('gif', 2000, 1000, frames, Array(10).fill(100));
    const seq = await decodeAnimatedImage(gif, { ...DEFAULT_FRAME_LIMITS, maxSide: 2000 });
    expect(seq.frames).toHaveLength(10);
    seq.frames.forEach((f, k) => {
      // Quantised at low effort: within a step of the source colour.
      pixel(f.rgba, 2000, 10, 10).forEach((v, c) => expect(Math.abs(v - colour(k)[c])).toBeLessThanOrEqual(2));
      expect(pixel(f.rgba, 2000, 1990, 990)).toEqual(BLUE);
    });
  });
});

describe('decodeAnimatedImage: WebP', () => {
  it('decodes frames, delays (0 -> 100 ms) and soft alpha as blend', async () => {
    const webp = await animation('webp', 6, 4, [picture(6, 4, () => RED), picture(6, 4, () => [0, 255, 0, 128])], [0, 250]);
    const seq = await decodeAnimatedImage(webp, DEFAULT_FRAME_LIMITS);
    expect([seq.width, seq.height, seq.frames.length, seq.alpha]).toEqual([6, 4, 2, 'blend']);
    expect(seconds(seq.frames)).toEqual([0.1, 0.25]);
    expect(pixel(seq.frames[0].rgba, 6, 1, 1)).toEqual(RED);
    expect(pixel(seq.frames[1].rgba, 6, 1, 1)).toEqual([0, 255, 0, 128]);
  });
});

describe('decodeAnimatedImage: APNG', () => {
  const half: RGBA = [0, 0, 255, 128];
  const frames: ApngTestFrame[] = [
    { width: 4, height: 4, rgba: picture(4, 4, () => RED), delay: [1, 10] },
    // Blended over: half-transparent blue on red.
    { x: 1, y: 1, width: 2, height: 2, rgba: picture(2, 2, () => half), blend: 1, delay: [20, 0] },
    // Shown, then the canvas goes back to how it was before it.
    { x: 0, y: 0, width: 2, height: 1, rgba: picture(2, 1, () => GREEN), dispose: 2, delay: [0, 100] },
    // Copied with its alpha (blend source): clears one pixel, then that pixel is cleared again (dispose background).
    { x: 3, y: 3, width: 1, height: 1, rgba: picture(1, 1, () => CLEAR), dispose: 1, delay: [3, 10] },
  ];

  it('composites frames with blend and dispose operations, with their delays', async () => {
    const seq = await decodeAnimatedImage(apng(4, 4, frames), DEFAULT_FRAME_LIMITS);
    expect([seq.width, seq.height, seq.frames.length, seq.alpha]).toEqual([4, 4, 4, 'mask']);
    expect(seconds(seq.frames)).toEqual([0.1, 0.2, 0.1, 0.3]);
    const [f0, f1, f2, f3] = seq.frames.map((f) => (x: number, y: number) => pixel(f.rgba, 4, x, y));
    expect([f0(0, 0), f0(2, 2)]).toEqual([RED, RED]);
    // over: (255 * 127 / 255, 0, 255 * 128 / 255) with full alpha
    expect([f1(0, 0), f1(1, 1), f1(2, 2), f1(3, 3)]).toEqual([RED, [127, 0, 128, 255], [127, 0, 128, 255], RED]);
    expect([f2(0, 0), f2(1, 0), f2(2, 0), f2(1, 1)]).toEqual([GREEN, GREEN, RED, [127, 0, 128, 255]]);
    // The green strip is gone (dispose previous), the blended square stays, the cleared pixel shows.
    expect([f3(0, 0), f3(1, 0), f3(1, 1), f3(3, 3)]).toEqual([RED, RED, [127, 0, 128, 255], CLEAR]);
  });

  it('skips a default image that is not part of the animation, and treats a first "previous" as "background"', async () => {
    const magenta = picture(4, 4, () => [255, 0, 255, 255]);
    const bytes = apng(
      4,
      4,
      [
        { width: 4, height: 4, rgba: picture(4, 4, () => GREEN), dispose: 2 },
        { x: 2, y: 2, width: 2, height: 2, rgba: picture(2, 2, () => BLUE), blend: 1 },
      ],
      { separateDefault: magenta },
    );
    expect(await isAnimatedImage(bytes)).toBe(true);
    const seq = await decodeAnimatedImage(bytes, DEFAULT_FRAME_LIMITS);
    expect(seq.frames).toHaveLength(2);
    expect(pixel(seq.frames[0].rgba, 4, 0, 0)).toEqual(GREEN);
    expect([pixel(seq.frames[1].rgba, 4, 0, 0), pixel(seq.frames[1].rgba, 4, 3, 3)]).toEqual([CLEAR, BLUE]);
  });

  it('decodes paletted frames with the palette and its transparency', async () => {
    const palette: RGBA[] = [RED, GREEN, [0, 0, 255, 100]];
    const bytes = apng(
      2,
      2,
      [
        { width: 2, height: 2, rgba: Buffer.from([0, 0, 1, 1]) },
        { width: 2, height: 1, rgba: Buffer.from([2, 2]) },
      ],
      { palette },
    );
    const seq = await decodeAnimatedImage(bytes, DEFAULT_FRAME_LIMITS);
    expect(seq.alpha).toBe('blend');
    expect([pixel(seq.frames[0].rgba, 2, 0, 0), pixel(seq.frames[0].rgba, 2, 0, 1)]).toEqual([RED, GREEN]);
    expect([pixel(seq.frames[1].rgba, 2, 1, 0), pixel(seq.frames[1].rgba, 2, 1, 1)]).toEqual([[0, 0, 255, 100], GREEN]);
  });

  it('rejects truncated, corrupt and inconsistent files', async () => {
    const good = apng(4, 4, frames);
    expect((await failure(good.subarray(0, good.length - 30))).code).toBe('bad_animation');
    expect((await failure(good.subarray(0, good.length - 30))).message).toMatch(/truncated/);
    const corrupt = Buffer.from(good);
    corrupt[good.length - 20] ^= 0xff;
    expect((await failure(corrupt)).message).toMatch(/CRC/);
    expect((await failure(apng(4, 4, frames, { numFrames: 5 }))).message).toMatch(/declares 5 frames but holds 4/);
    const outside = apng(4, 4, [frames[0], { ...frames[1], x: 3 }]);
    expect((await failure(outside)).message).toMatch(/does not fit the 4x4 canvas/);
  });
});

describe('decodeAnimatedImage: limits', () => {
  it('keeps at most maxFrames frames, their durations adding up to the whole loop', async () => {
    const colours = [RED, GREEN, BLUE, [255, 255, 0, 255], [0, 255, 255, 255]] as RGBA[];
    const gif = await animation(
      'gif',
      4,
      4,
      colours.map((c) => picture(4, 4, () => c)),
      [100, 200, 300, 400, 500],
    );
    const seq = await decodeAnimatedImage(gif, { ...DEFAULT_FRAME_LIMITS, maxFrames: 2 });
    expect(seq.frames).toHaveLength(2);
    expect(seq.frames.reduce((s, f) => s + f.duration, 0)).toBeCloseTo(1.5);
    expect(seq.frames.map((f) => pixel(f.rgba, 4, 0, 0))).toEqual([RED, BLUE]);
  });

  it('shrinks frames to maxSide keeping the aspect ratio', async () => {
    const gif = await animation('gif', 40, 20, [picture(40, 20, () => RED), picture(40, 20, () => GREEN)], [100, 100]);
    const seq = await decodeAnimatedImage(gif, { ...DEFAULT_FRAME_LIMITS, maxSide: 10 });
    expect([seq.width, seq.height]).toEqual([10, 5]);
    expect(seq.frames.map((f) => f.rgba.length)).toEqual([200, 200]);
    expect(seq.frames.map((f) => pixel(f.rgba, 10, 4, 2))).toEqual([RED, GREEN]);
  });
});

describe('decodeAnimatedImage: bounded work', () => {
  it('plays delays under 20 ms as 100 ms in every format', async () => {
    const colours = [RED, GREEN, BLUE, RED, GREEN, BLUE].map((c) => picture(4, 4, () => c));
    const webp = await decodeAnimatedImage(await animation('webp', 4, 4, colours, [1, 10, 19, 20, 0, 40]), DEFAULT_FRAME_LIMITS);
    expect(seconds(webp.frames)).toEqual([0.1, 0.1, 0.1, 0.02, 0.1, 0.04]);
    const png = apng(4, 4, [
      { width: 4, height: 4, rgba: colours[0], delay: [1, 1000] },
      { width: 4, height: 4, rgba: colours[1], delay: [19, 1000] },
      { width: 4, height: 4, rgba: colours[2], delay: [2, 100] },
    ]);
    expect(seconds((await decodeAnimatedImage(png, DEFAULT_FRAME_LIMITS)).frames)).toEqual([0.1, 0.1, 0.02]);
  });

  it('keeps only the first 100 of many 1 ms frames for a 10 s loop, so no more are decoded', async () => {
    const seq = await decodeAnimatedImage(await tinyFramesWebp(16, 600, 1), { ...DEFAULT_FRAME_LIMITS, maxFrames: 300 });
    expect(seq.frames).toHaveLength(100);
    expect(seq.frames.reduce((t, f) => t + f.duration, 0)).toBeCloseTo(10);
  });

  it('refuses a big canvas of many 1 ms frames from its header, before decoding any frame', async () => {
    // 2000x2000 x 600 frames of 1 ms: decoding the 100 frames of its 10 s loop would take seconds.
    const webp = await tinyFramesWebp(2000, 600, 1);
    const aborted = AbortSignal.abort();
    const started = Date.now();
    // An aborted signal fails at the first frame decoded (OperationalError): a UserError shows nothing was.
    const err = await failure(webp, DEFAULT_FRAME_LIMITS, { maxSourcePixels: 100_000_000, signal: aborted });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.code).toBe('animation_too_large');
    expect(err.message).toMatch(
      /96 frames kept \(of its first \d+\) on its 2000x2000 canvas means decoding \d+ pixels, over the 100000000-pixel limit/,
    );
    // The default budget refuses it too: every batch of frames is composited again from the first frame.
    expect((await failure(webp)).code).toBe('animation_too_large');
  });

  it('refuses a file of too many frames before libvips reads its frame table', async () => {
    // libvips reads a WebP's frame table in quadratic time: 60,000 frames would take seconds.
    const many = await tinyFramesWebp(16, 60_000, 100);
    expect(webpFrameCount(many)).toBe(60_000);
    const started = Date.now();
    expect(await isAnimatedImage(many)).toBe(true);
    const err = await failure(many);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.code).toBe('animation_too_many_frames');
    expect(err.message).toBe('frames: the animation has 60000 frames; at most 1000 are accepted (send a video for longer clips)');
    const gif = await animation(
      'gif',
      4,
      4,
      [RED, GREEN, BLUE].map((c) => picture(4, 4, () => c)),
      [100, 100, 100],
    );
    expect((await failure(gif, DEFAULT_FRAME_LIMITS, { maxSourceFrames: 2 })).message).toMatch(/has 3 frames; at most 2/);
    expect(
      (
        await failure(
          apng(4, 4, [
            { width: 4, height: 4, rgba: picture(4, 4, () => RED) },
            { width: 4, height: 4, rgba: picture(4, 4, () => GREEN) },
            { width: 4, height: 4, rgba: picture(4, 4, () => BLUE) },
          ]),
          DEFAULT_FRAME_LIMITS,
          { maxSourceFrames: 2 },
        )
      ).code,
    ).toBe('animation_too_many_frames');
  });

  it('counts APNG frames against the pixel budget too', async () => {
    const frames = [RED, GREEN, BLUE].map((c) => ({ width: 4, height: 4, rgba: picture(4, 4, () => c) }));
    expect((await failure(apng(4, 4, frames), DEFAULT_FRAME_LIMITS, { maxSourcePixels: 47 })).code).toBe('animation_too_large');
    expect((await decodeAnimatedImage(apng(4, 4, frames), DEFAULT_FRAME_LIMITS, { maxSourcePixels: 48 })).frames).toHaveLength(3);
  });

  it('stops decoding once its signal is aborted', async () => {
    const frames = [RED, GREEN, BLUE].map((c) => picture(4, 4, () => c));
    for (const bytes of [
      await animation('webp', 4, 4, frames, [100, 100, 100]),
      apng(
        4,
        4,
        frames.map((rgba) => ({ width: 4, height: 4, rgba })),
      ),
    ]) {
      const err = await decodeAnimatedImage(bytes, DEFAULT_FRAME_LIMITS, { signal: AbortSignal.abort() }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OperationalError);
      expect((err as OperationalError).code).toBe('aborted');
    }
  });
});

describe('isAnimatedImage', () => {
  it('is true for APNG, animated GIF and animated WebP', async () => {
    const frames = [picture(4, 4, () => RED), picture(4, 4, () => GREEN)];
    expect(
      await isAnimatedImage(
        apng(4, 4, [
          { width: 4, height: 4, rgba: frames[0] },
          { width: 4, height: 4, rgba: frames[1] },
        ]),
      ),
    ).toBe(true);
    expect(await isAnimatedImage(await animation('gif', 4, 4, frames, [100, 100]))).toBe(true);
    expect(await isAnimatedImage(await animation('webp', 4, 4, frames, [100, 100]))).toBe(true);
  });

  it('is false for still pictures, and decoding them says not_animated', async () => {
    const still = sharp(
      picture(4, 4, () => RED),
      { raw: { width: 4, height: 4, channels: 4 } },
    );
    const png = await still.clone().png().toBuffer();
    const jpeg = await still.clone().jpeg().toBuffer();
    const gif = await still.clone().gif().toBuffer();
    const oneFrameApng = apng(4, 4, [{ width: 4, height: 4, rgba: picture(4, 4, () => RED) }]);
    for (const bytes of [png, jpeg, gif, oneFrameApng, Buffer.from('not an image')]) {
      expect(await isAnimatedImage(bytes)).toBe(false);
      expect((await failure(bytes)).code).toBe('not_animated');
    }
  });
});
