import { estimateShift, estimateShiftField, planKeyframes, propagateMask, warpMask, type GreyThumb } from './mask-propagation';

/** A textured scene (value noise, deterministic) seen through a window at (ox, oy). */
function scene(ox: number, oy: number, width = 96, height = 54, seed = 1): GreyThumb {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const X = x - ox;
      const Y = y - oy;
      data[y * width + x] = (Math.sin(X * 0.31 * seed + Y * 0.17) * 60 + Math.cos(Y * 0.23 - X * 0.11 * seed) * 60 + 128) & 255;
    }
  }
  return { data, width, height };
}

/** A mask with a filled rectangle. */
function rect(width: number, height: number, x0: number, y0: number, w: number, h: number): Buffer {
  const m = Buffer.alloc(width * height);
  for (let y = Math.max(0, y0); y < Math.min(height, y0 + h); y++)
    m.fill(255, y * width + Math.max(0, x0), y * width + Math.min(width, x0 + w));
  return m;
}

function iou(a: Uint8Array, b: Uint8Array): number {
  let i = 0;
  let u = 0;
  for (let k = 0; k < a.length; k++) {
    const x = a[k] >= 128;
    const y = b[k] >= 128;
    if (x && y) i++;
    if (x || y) u++;
  }
  return u ? i / u : 1;
}

describe('estimateShift', () => {
  it('finds the camera motion between two views of one scene', () => {
    const s = estimateShift(scene(0, 0), scene(5, -3), 8);
    expect({ dx: s.dx, dy: s.dy }).toEqual({ dx: 5, dy: -3 });
    expect(s.error).toBeLessThan(1);
  });

  it('reports a large error for a different scene', () => {
    expect(estimateShift(scene(0, 0), scene(0, 0, 96, 54, 3), 8).error).toBeGreaterThan(20);
  });

  it('refuses thumbnails of different sizes', () => {
    expect(() => estimateShift(scene(0, 0), scene(0, 0, 64, 36), 4)).toThrow(/one size/);
  });
});

describe('planKeyframes', () => {
  it('puts a keyframe at least every maxGap frames and links in-between frames to both sides', () => {
    const thumbs = Array.from({ length: 10 }, (_, i) => scene(i, 0));
    const plan = planKeyframes(thumbs, { maxGap: 4, cutThreshold: 12, radius: 8 });
    expect(plan.flatMap((p, i) => (p.keyframe ? [i] : []))).toEqual([0, 4, 8]);
    const p = plan[2];
    expect(p.keyframe).toBe(false);
    if (p.keyframe) return;
    expect(p.before).toMatchObject({ index: 0, shift: { dx: 2, dy: 0 } });
    expect(p.after).toMatchObject({ index: 4, shift: { dx: -2, dy: 0 } });
  });

  it('a scene cut starts a keyframe and frames before it do not borrow its mask', () => {
    const thumbs = [scene(0, 0), scene(1, 0), scene(2, 0), scene(0, 0, 96, 54, 3), scene(1, 0, 96, 54, 3)];
    const plan = planKeyframes(thumbs, { maxGap: 8, cutThreshold: 12, radius: 8 });
    expect(plan.map((p) => p.keyframe)).toEqual([true, false, false, true, false]);
    const before = plan[2];
    if (before.keyframe) throw new Error('expected an in-between frame');
    expect(before.after).toBeUndefined();
  });

  it('maxGap 1 makes every frame a keyframe', () => {
    expect(
      planKeyframes([scene(0, 0), scene(1, 0), scene(2, 0)], { maxGap: 1, cutThreshold: 12, radius: 8 }).every((p) => p.keyframe),
    ).toBe(true);
    expect(() => planKeyframes([], { maxGap: 0, cutThreshold: 12, radius: 8 })).toThrow(RangeError);
  });
});

describe('warpMask and propagateMask', () => {
  it('a uniform field moves the mask by the shift times the scale, edges copied', () => {
    const m = rect(40, 20, 10, 5, 8, 6);
    const out = warpMask(m, 40, 20, { cols: 2, rows: 2, shifts: Array(4).fill({ dx: 1, dy: 1 }) }, 2);
    expect(out.equals(rect(40, 20, 12, 7, 8, 6))).toBe(true);
  });

  it('local blocks follow parallax: the left half moves, the right half stays', () => {
    const W = 96;
    const H = 54;
    const a = scene(0, 0, W, H);
    const b = { data: Uint8Array.from(a.data), width: W, height: H };
    const moved = scene(3, 0, W, H);
    for (let y = 0; y < H; y++) for (let x = 0; x < W / 2; x++) b.data[y * W + x] = moved.data[y * W + x];
    const field = estimateShiftField(a, b, { cols: 4, rows: 2 }, 4, { dx: 0, dy: 0, error: 0 });
    expect(field.shifts[0]).toEqual({ dx: 3, dy: 0 });
    expect(field.shifts[3]).toEqual({ dx: 0, dy: 0 });
  });

  it('a frame between two keyframes gets their masks moved and blended', () => {
    const W = 96;
    const H = 54;
    const thumbs = [scene(0, 0), scene(2, 1), scene(4, 2)];
    const plan = planKeyframes(thumbs, { maxGap: 2, cutThreshold: 12, radius: 8 });
    const keyMasks = new Map([
      [0, rect(W, H, 20, 10, 30, 20)],
      [2, rect(W, H, 24, 12, 30, 20)],
    ]);
    const p = plan[1];
    if (p.keyframe) throw new Error('expected an in-between frame');
    const mask = propagateMask(p, 1, keyMasks, thumbs, W, H);
    expect(iou(mask, rect(W, H, 22, 11, 30, 20))).toBeGreaterThan(0.97);
  });
});
