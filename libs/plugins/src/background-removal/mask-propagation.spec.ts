import {
  alignMasks,
  blendMasks,
  estimateShift,
  estimateShiftField,
  maskIou,
  maskThumbnail,
  morphMasks,
  signedDistance,
  subjectShift,
  translateMask,
  warpMask,
  type GreyThumb,
} from './mask-propagation';

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

describe('warpMask, subjectShift, translateMask, maskIou, blendMasks', () => {
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

  it('subjectShift follows a subject moving across a still background, measured against the keyframe', () => {
    const W = 96;
    const H = 54;
    const bg = scene(0, 0, W, H);
    /** The background with a bright, textured 20x20 subject whose left edge is at x. */
    const withSubject = (x: number): GreyThumb => {
      const data = Uint8Array.from(bg.data);
      for (let y = 17; y < 37; y++) for (let i = 0; i < 20; i++) data[y * W + x + i] = 200 + ((i * 7 + y * 3) % 40);
      return { data, width: W, height: H };
    };
    const key = rect(W, H, 30, 17, 20, 20);
    // Two frames on: 4 then 8 pixels, the first answer the guess for the second.
    const d1 = subjectShift(withSubject(30), withSubject(34), key, { dx: 0, dy: 0 }, 5);
    expect(d1).toEqual({ dx: 4, dy: 0 });
    const d2 = subjectShift(withSubject(30), withSubject(38), key, d1, 5);
    expect(d2).toEqual({ dx: 8, dy: 0 });
    // The keyframe's mask, at 4x the thumbnail, moved by the shift: where the subject is.
    const big = translateMask(rect(W * 4, H * 4, 120, 68, 80, 80), W * 4, H * 4, d2.dx * 4, d2.dy * 4);
    expect(iou(big, rect(W * 4, H * 4, 152, 68, 80, 80))).toBe(1);
    expect(Buffer.from(maskThumbnail(big, W * 4, H * 4, W, H)).equals(rect(W, H, 38, 17, 20, 20))).toBe(true);
    // No subject in the mask: no motion.
    expect(subjectShift(bg, bg, new Uint8Array(W * H), { dx: 3, dy: 1 }, 5)).toEqual({ dx: 0, dy: 0 });
  });

  it('maskIou thresholds at 128 and is 1 for two empty masks; blendMasks weighs the second by wB', () => {
    expect(maskIou(rect(10, 10, 0, 0, 5, 10), rect(10, 10, 0, 0, 10, 10))).toBe(0.5);
    expect(maskIou(Buffer.alloc(4), Buffer.alloc(4))).toBe(1);
    expect(() => maskIou(Buffer.alloc(4), Buffer.alloc(5))).toThrow(RangeError);
    expect([...blendMasks(Buffer.from([0, 255, 100]), Buffer.from([255, 255, 0]), 0.25)]).toEqual([64, 255, 75]);
  });
});

describe('signedDistance, morphMasks, alignMasks', () => {
  it('signedDistance is the distance to the outline, positive inside, ±1 beside it; the frame edge is no outline', () => {
    const m = rect(20, 10, 5, 0, 8, 10); // columns 5..12, all rows (cut by the top and bottom edges)
    const d = signedDistance(m, 20, 10);
    expect(d[5 * 20 + 5]).toBe(1);
    expect(d[5 * 20 + 4]).toBe(-1);
    expect(d[5 * 20 + 8]).toBe(4);
    expect(d[5 * 20 + 0]).toBe(-5);
    expect(d[0 * 20 + 8]).toBe(4); // at the top edge, as deep as in the middle
    for (let i = 0; i < m.length; i++) expect(d[i] > 0).toBe(m[i] >= 128);
    expect(() => signedDistance(m, 19, 10)).toThrow(RangeError);
  });

  it('morphMasks with wB 0 or 1 gives either mask back; halfway, a shape of the width between', () => {
    const W = 64;
    const H = 20;
    const narrow = rect(W, H, 28, 4, 8, 12);
    const wide = rect(W, H, 20, 4, 24, 12);
    const [dn, dw] = [signedDistance(narrow, W, H), signedDistance(wide, W, H)];
    const zero = { dx: 0, dy: 0 };
    expect(iou(morphMasks(dn, zero, dw, zero, 0, W, H), narrow)).toBe(1);
    expect(iou(morphMasks(dn, zero, dw, zero, 1, W, H), wide)).toBe(1);
    // Blending the masks would give the narrow one (or the wide one) halfway; morphing, 16 px wide.
    expect(iou(morphMasks(dn, zero, dw, zero, 0.5, W, H), rect(W, H, 24, 4, 16, 12))).toBeGreaterThan(0.85);
    // Each moved by its offset first: the same shape 6 px to the right.
    expect(iou(morphMasks(dn, { dx: 6, dy: 0 }, dn, { dx: 6, dy: 0 }, 0.5, W, H), rect(W, H, 34, 4, 8, 12))).toBe(1);
  });

  it('alignMasks finds how far the outline moved, in frame pixels; undefined without a subject', () => {
    const a = rect(96, 54, 10, 20, 20, 14);
    const b = rect(96, 54, 41, 17, 20, 14);
    expect(alignMasks(a, b, 96, 54, 4)).toEqual({ dx: 124, dy: -12 });
    expect(alignMasks(a, new Uint8Array(96 * 54), 96, 54, 4)).toBeUndefined();
  });
});
