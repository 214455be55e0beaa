import { cutOutSequence, type MaskSource } from './cut-out-sequence';

const W = 160;
const H = 90;

/** A textured background panning right 2 px per frame with a bright square subject moving with it. */
function frame(t: number): { rgba: Buffer; truth: Buffer } {
  const rgba = Buffer.alloc(W * H * 4);
  const truth = Buffer.alloc(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const X = x - 2 * t;
      const v = (Math.sin(X * 0.3 + y * 0.2) * 50 + Math.cos(y * 0.25 - X * 0.13) * 50 + 110) & 255;
      const inside = X >= 40 && X < 80 && y >= 20 && y < 60;
      const o = (y * W + x) * 4;
      rgba[o] = inside ? 250 : v;
      rgba[o + 1] = inside ? 240 : v;
      rgba[o + 2] = inside ? 20 : v;
      rgba[o + 3] = 255;
      truth[y * W + x] = inside ? 255 : 0;
    }
  }
  return { rgba, truth };
}

/** A still textured background with a yellow, striped rectangle at (x, y), its stripes moved `scroll` px. */
function squareAt(x0: number, y0: number, w: number, h: number, scroll = 0): { rgba: Buffer; truth: Buffer } {
  const rgba = Buffer.alloc(W * H * 4);
  const truth = Buffer.alloc(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = (Math.sin(x * 0.3 + y * 0.2) * 50 + Math.cos(y * 0.25 - x * 0.13) * 50 + 110) & 255;
      const inside = x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;
      const o = (y * W + x) * 4;
      rgba[o] = inside ? 250 : v;
      rgba[o + 1] = inside ? 200 + (((x + scroll) >> 2) % 2) * 40 : v;
      rgba[o + 2] = inside ? 20 : v;
      rgba[o + 3] = 255;
      truth[y * W + x] = inside ? 255 : 0;
    }
  }
  return { rgba, truth };
}

/** A "model" that knows where the yellow subject is: the true mask, counted. */
class YellowMask implements MaskSource {
  calls = 0;
  async mask(rgba: Buffer, width: number, height: number): Promise<Buffer> {
    this.calls++;
    const m = Buffer.alloc(width * height);
    for (let i = 0; i < m.length; i++) m[i] = rgba[i * 4] > 200 && rgba[i * 4 + 2] < 60 ? 255 : 0;
    return m;
  }
}

function alphaIou(rgba: Buffer, truth: Buffer): number {
  let i = 0;
  let u = 0;
  for (let k = 0; k < truth.length; k++) {
    const x = rgba[k * 4 + 3] >= 128;
    const y = truth[k] >= 128;
    if (x && y) i++;
    if (x || y) u++;
  }
  return u ? i / u : 1;
}

describe('cutOutSequence', () => {
  const frames = Array.from({ length: 13 }, (_, t) => frame(t));

  it('runs the model on keyframes only and every frame gets a mask that follows the motion', async () => {
    const model = new YellowMask();
    const progress: number[] = [];
    const out = await cutOutSequence(
      frames.map((f) => f.rgba),
      W,
      H,
      model,
      { keyframeGap: 6, onProgress: (p) => progress.push(p) },
    );
    expect(out.keyframes).toBe(3); // 0, 6, 12
    expect(model.calls).toBe(3);
    expect(out.frames).toHaveLength(13);
    for (let t = 0; t < 13; t++) expect(alphaIou(out.frames[t], frames[t].truth)).toBeGreaterThan(0.95);
    // RGB kept, only alpha changed.
    expect(out.frames[3].subarray(0, 3).equals(frames[3].rgba.subarray(0, 3))).toBe(true);
    expect(progress.at(-1)).toBe(1);
  });

  it('a subject leaving the picture: the model runs where the carried masks disagree, every frame keeps its mask', async () => {
    // The yellow square moves 12 px a frame on a still background and is gone after frame 9.
    const leaving = Array.from({ length: 13 }, (_, t) => squareAt(40 + 12 * t, 20, 40, 40));
    const model = new YellowMask();
    const out = await cutOutSequence(
      leaving.map((f) => f.rgba),
      W,
      H,
      model,
      { keyframeGap: 6 },
    );
    expect(out.keyframes).toBeLessThan(13);
    expect(out.keyframes).toBeGreaterThan(3); // the gap's 0, 6, 12 alone would carry the square past the edge
    for (let t = 0; t < 13; t++) expect(alphaIou(out.frames[t], leaving[t].truth)).toBeGreaterThan(0.9);
  });

  it('a subject whose outline changes while its texture moves (a turntable): the outline is morphed between runs', async () => {
    // Width 40 -> 48 px over 8 frames, its stripes scrolling 3 px a frame: tracking the texture moves the mask
    // sideways; the outline's own motion (none) does not.
    const turning = Array.from({ length: 9 }, (_, t) => squareAt(60 - (t >> 1), 25, 40 + t, 40, 3 * t));
    const model = new YellowMask();
    const out = await cutOutSequence(
      turning.map((f) => f.rgba),
      W,
      H,
      model,
      // 40 -> 44 px in 4 frames: the end masks agree at 0.91 IoU.
      { keyframeGap: 4, agreement: 0.9 },
    );
    expect(out.keyframes).toBe(3); // 0, 4, 8
    for (let t = 0; t < 9; t++) expect(alphaIou(out.frames[t], turning[t].truth)).toBeGreaterThan(0.95);
  });

  it('keyframeGap 1: the model on every frame', async () => {
    const model = new YellowMask();
    const out = await cutOutSequence(
      frames.slice(0, 4).map((f) => f.rgba),
      W,
      H,
      model,
      { keyframeGap: 1 },
    );
    expect(model.calls).toBe(4);
    expect(out.keyframes).toBe(4);
  });

  it('stops when the signal is aborted', async () => {
    const ac = new AbortController();
    const model = new YellowMask();
    const slow: MaskSource = { mask: async (rgba, w, h) => (ac.abort(new Error('cancelled by test')), model.mask(rgba, w, h)) };
    await expect(
      cutOutSequence(
        frames.map((f) => f.rgba),
        W,
        H,
        slow,
        { keyframeGap: 2, signal: ac.signal },
      ),
    ).rejects.toThrow('cancelled by test');
    expect(model.calls).toBe(1);
  });

  it('refuses a bad gap', async () => {
    await expect(cutOutSequence([], W, H, new YellowMask(), { keyframeGap: 0 })).rejects.toThrow(RangeError);
  });
});
