/**
 * Masks for a video without running the model on every frame: the model runs on keyframes, and the frames
 * between two keyframes get the keyframes' masks moved by the camera's motion (a global translation found by
 * block matching small greyscale thumbnails) and blended by distance. A frame whose content does not match
 * its keyframe after that motion (a scene cut, a subject entering) becomes a keyframe itself.
 *
 * Pure functions over plain buffers: the stage makes the thumbnails (sharp) and runs the model.
 */

/** A greyscale picture, one byte per pixel. */
export interface GreyThumb {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A global translation in thumbnail pixels and the mean absolute difference left after it (0..255). */
export interface Shift {
  dx: number;
  dy: number;
  error: number;
}

export interface KeyframePlanOptions {
  /** At most this many frames from one keyframe to the next (1: every frame is a keyframe). */
  maxGap: number;
  /** A frame whose motion-compensated difference from its keyframe is above this (0..255) becomes a keyframe. */
  cutThreshold: number;
  /** Largest shift searched, in thumbnail pixels. */
  radius: number;
}

export const DEFAULT_KEYFRAME_PLAN: KeyframePlanOptions = { maxGap: 4, cutThreshold: 12, radius: 8 };

/** A rectangle of a thumbnail: columns x0..x1 and rows y0..y1, ends excluded. */
interface Region {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * Mean absolute difference between `b` and `a` moved by (dx, dy), over the part of `region` (default: the
 * whole picture) that the moved `a` covers, sampled every `step` pixels. `Infinity` when that part is under
 * `minOverlap` of the region (a large shift matching a sliver proves nothing), or as soon as the sum shows
 * the mean cannot get under `bound`.
 */
function shiftedDifference(
  a: GreyThumb,
  b: GreyThumb,
  dx: number,
  dy: number,
  step: number,
  bound = Infinity,
  region?: Region,
  minOverlap = 0.25,
): number {
  const { width, height } = a;
  const r = region ?? { x0: 0, x1: width, y0: 0, y1: height };
  const x0 = Math.max(r.x0, dx);
  const x1 = Math.min(r.x1, width + dx);
  const y0 = Math.max(r.y0, dy);
  const y1 = Math.min(r.y1, height + dy);
  const overlap = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  if (overlap === 0 || overlap < minOverlap * (r.x1 - r.x0) * (r.y1 - r.y0)) return Infinity;
  let sum = 0;
  let count = 0;
  for (let y = y0; y < y1; y += step) {
    const rowB = y * width;
    const rowA = (y - dy) * width - dx;
    for (let x = x0; x < x1; x += step) {
      const d = b.data[rowB + x] - a.data[rowA + x];
      sum += d < 0 ? -d : d;
      count++;
    }
    // Early exit: this shift already cannot beat the best one found (the rows left can only add).
    if (sum > bound * (overlap / (step * step))) return Infinity;
  }
  return sum / count;
}

/**
 * The translation that best maps thumbnail `a` onto `b` (b(x, y) ≈ a(x - dx, y - dy)), searched
 * exhaustively within ±`radius` on every other pixel, then refined ±1 on every pixel.
 *
 * @example
 * const { dx, dy, error } = estimateShift(thumbA, thumbB, 8); // camera panned dx thumbnail pixels
 */
export function estimateShift(a: GreyThumb, b: GreyThumb, radius: number): Shift {
  if (a.width !== b.width || a.height !== b.height || a.data.length !== a.width * a.height || b.data.length !== b.width * b.height) {
    throw new RangeError('background-removal: thumbnails must be greyscale pictures of one size');
  }
  let best = { dx: 0, dy: 0, error: shiftedDifference(a, b, 0, 0, 2) };
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      if (dx === 0 && dy === 0) continue;
      const e = shiftedDifference(a, b, dx, dy, 2, best.error);
      if (e < best.error) best = { dx, dy, error: e };
    }
  }
  let refined = { dx: best.dx, dy: best.dy, error: shiftedDifference(a, b, best.dx, best.dy, 1) };
  for (let dy = best.dy - 1; dy <= best.dy + 1; dy++) {
    for (let dx = best.dx - 1; dx <= best.dx + 1; dx++) {
      if (dx === best.dx && dy === best.dy) continue;
      const e = shiftedDifference(a, b, dx, dy, 1, refined.error);
      if (e < refined.error) refined = { dx, dy, error: e };
    }
  }
  return refined;
}

/** One frame's place in the plan: a keyframe, or the keyframes before and after it with their shifts. */
export type FramePlan =
  { keyframe: true } | { keyframe: false; before: { index: number; shift: Shift }; after?: { index: number; shift: Shift } };

/**
 * Which frames the model runs on. Greedy from the first frame: a frame becomes a keyframe when it is
 * `maxGap` frames from the last keyframe, or when even the best translation leaves it more than
 * `cutThreshold` away from the last keyframe. Every other frame lists the keyframe before it and, when the
 * next keyframe shows the same scene (its own shift to this frame is under the threshold), the one after.
 *
 * @example
 * const plan = planKeyframes(thumbs, DEFAULT_KEYFRAME_PLAN);
 * const keyframes = plan.flatMap((p, i) => (p.keyframe ? [i] : []));
 */
export function planKeyframes(thumbs: GreyThumb[], opts: KeyframePlanOptions = DEFAULT_KEYFRAME_PLAN): FramePlan[] {
  if (!Number.isInteger(opts.maxGap) || opts.maxGap < 1)
    throw new RangeError(`background-removal: maxGap must be a positive integer, got ${opts.maxGap}`);
  const plan: FramePlan[] = [];
  let last = 0;
  for (let i = 0; i < thumbs.length; i++) {
    if (i === 0 || i - last >= opts.maxGap) {
      plan.push({ keyframe: true });
      last = i;
      continue;
    }
    const shift = estimateShift(thumbs[last], thumbs[i], opts.radius);
    if (shift.error > opts.cutThreshold) {
      plan.push({ keyframe: true });
      last = i;
    } else {
      plan.push({ keyframe: false, before: { index: last, shift } });
    }
  }
  let next = -1;
  for (let i = thumbs.length - 1; i >= 0; i--) {
    const p = plan[i];
    if (p.keyframe) {
      next = i;
      continue;
    }
    if (next < 0) continue;
    const shift = estimateShift(thumbs[next], thumbs[i], opts.radius);
    if (shift.error <= opts.cutThreshold) p.after = { index: next, shift };
  }
  return plan;
}

/** Per-block translations over a `cols` x `rows` grid of the thumbnail, row-major, one per block centre. */
export interface ShiftField {
  cols: number;
  rows: number;
  shifts: Array<{ dx: number; dy: number }>;
}

/** Extra cost per pixel of distance from the global shift: flat blocks (sky) match anywhere and keep the global one. */
const LOCAL_SHIFT_PENALTY = 0.75;

/**
 * Local motion: for each block of a `cols` x `rows` grid, the translation within ±`radius` of `global`
 * that best maps `a` onto `b` inside the block, penalised by its distance from `global` so that blocks
 * without texture follow the camera. Parallax (a near building moving faster than a far one) is what this
 * catches and a single translation does not.
 *
 * @example
 * const field = estimateShiftField(thumbA, thumbB, { cols: 4, rows: 4 }, 3, estimateShift(thumbA, thumbB, 8));
 */
export function estimateShiftField(
  a: GreyThumb,
  b: GreyThumb,
  grid: { cols: number; rows: number },
  radius: number,
  global: Shift,
): ShiftField {
  const { width, height } = a;
  const shifts: ShiftField['shifts'] = [];
  for (let r = 0; r < grid.rows; r++) {
    const y0 = Math.floor((r * height) / grid.rows);
    const y1 = Math.floor(((r + 1) * height) / grid.rows);
    for (let c = 0; c < grid.cols; c++) {
      const x0 = Math.floor((c * width) / grid.cols);
      const x1 = Math.floor(((c + 1) * width) / grid.cols);
      let best = { dx: global.dx, dy: global.dy, cost: Infinity };
      for (let dy = global.dy - radius; dy <= global.dy + radius; dy++) {
        for (let dx = global.dx - radius; dx <= global.dx + radius; dx++) {
          // A block half outside the moved picture is not judged on the rest.
          const cost =
            shiftedDifference(a, b, dx, dy, 1, Infinity, { x0, x1, y0, y1 }, 0.5) +
            LOCAL_SHIFT_PENALTY * Math.hypot(dx - global.dx, dy - global.dy);
          if (cost < best.cost) best = { dx, dy, cost };
        }
      }
      shifts.push({ dx: best.dx, dy: best.dy });
    }
  }
  return { cols: grid.cols, rows: grid.rows, shifts };
}

/**
 * `mask` (width x height, one byte per pixel) moved by a shift field given in thumbnail pixels of a
 * thumbnail `scale` times smaller: each pixel takes the bilinear blend of the four nearest block centres'
 * shifts and copies the source pixel it points at (the nearest edge pixel when it points outside, so a
 * subject cut by the frame's edge stays cut there).
 */
export function warpMask(mask: Uint8Array, width: number, height: number, field: ShiftField, scale: number): Buffer {
  const out = Buffer.allocUnsafe(width * height);
  const { cols, rows, shifts } = field;
  const blockW = width / cols;
  const blockH = height / rows;
  const rowDx = new Float64Array(cols);
  const rowDy = new Float64Array(cols);
  for (let y = 0; y < height; y++) {
    const gy = Math.min(rows - 1, Math.max(0, (y + 0.5) / blockH - 0.5));
    const r0 = Math.floor(gy);
    const r1 = Math.min(rows - 1, r0 + 1);
    const fy = gy - r0;
    for (let c = 0; c < cols; c++) {
      rowDx[c] = (shifts[r0 * cols + c].dx * (1 - fy) + shifts[r1 * cols + c].dx * fy) * scale;
      rowDy[c] = (shifts[r0 * cols + c].dy * (1 - fy) + shifts[r1 * cols + c].dy * fy) * scale;
    }
    for (let x = 0; x < width; x++) {
      const gx = Math.min(cols - 1, Math.max(0, (x + 0.5) / blockW - 0.5));
      const c0 = Math.floor(gx);
      const c1 = Math.min(cols - 1, c0 + 1);
      const fx = gx - c0;
      const dx = rowDx[c0] * (1 - fx) + rowDx[c1] * fx;
      const dy = rowDy[c0] * (1 - fx) + rowDy[c1] * fx;
      const sx = Math.min(width - 1, Math.max(0, Math.round(x - dx)));
      const sy = Math.min(height - 1, Math.max(0, Math.round(y - dy)));
      out[y * width + x] = mask[sy * width + sx];
    }
  }
  return out;
}

export interface PropagateOptions {
  /** Blocks of local motion; `{ cols: 1, rows: 1 }` moves the whole mask by the camera's shift. */
  grid: { cols: number; rows: number };
  /** How far a block may move from the camera's shift, in thumbnail pixels. */
  localRadius: number;
}

export const DEFAULT_PROPAGATION: PropagateOptions = { grid: { cols: 4, rows: 4 }, localRadius: 3 };

/**
 * The mask of a frame between keyframes: each keyframe's mask warped by the local motion from it to this
 * frame, blended by distance in frames (the nearer keyframe weighs more).
 *
 * @example
 * const mask = propagateMask(plan[i], i, keyMasks, thumbs, 1280, 720);
 */
export function propagateMask(
  p: Exclude<FramePlan, { keyframe: true }>,
  index: number,
  keyMasks: Map<number, Uint8Array>,
  thumbs: GreyThumb[],
  width: number,
  height: number,
  opts: PropagateOptions = DEFAULT_PROPAGATION,
): Buffer {
  const scale = width / thumbs[index].width;
  const moved = (k: { index: number; shift: Shift }): Buffer => {
    const mask = keyMasks.get(k.index);
    if (!mask) throw new Error(`background-removal: no mask for keyframe ${k.index}`);
    const field = estimateShiftField(thumbs[k.index], thumbs[index], opts.grid, opts.localRadius, k.shift);
    return warpMask(mask, width, height, field, scale);
  };
  const before = moved(p.before);
  if (!p.after) return before;
  const after = moved(p.after);
  const wAfter = (index - p.before.index) / (p.after.index - p.before.index);
  for (let i = 0; i < before.length; i++) before[i] = Math.round(before[i] * (1 - wAfter) + after[i] * wAfter);
  return before;
}
