/**
 * Masks for a video without running the model on every frame: local motion between consecutive frames
 * (block matching on small greyscale thumbnails: the camera's shift, then each block's own around it), and
 * masks moved along it frame by frame (see cut-out-sequence.ts for how keyframes are chosen).
 *
 * Pure functions over plain buffers: the caller makes the thumbnails (sharp) and runs the model.
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

/**
 * Intersection over union of two masks thresholded at 128 (1 when both are empty).
 *
 * @example
 * maskIou(propagated, modelMask); // 0.97
 */
export function maskIou(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError('background-removal: masks of different sizes');
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] >= 128;
    const y = b[i] >= 128;
    if (x && y) inter++;
    if (x || y) union++;
  }
  return union === 0 ? 1 : inter / union;
}

/**
 * `a` and `b` blended, `wB` (0..1) of `b`, written into `a` and returned.
 *
 * @example
 * blendMasks(fromBefore, fromAfter, 0.25); // nearer the keyframe before
 */
export function blendMasks(a: Buffer, b: Uint8Array, wB: number): Buffer {
  if (a.length !== b.length) throw new RangeError('background-removal: masks of different sizes');
  for (let i = 0; i < a.length; i++) a[i] = Math.round(a[i] * (1 - wB) + b[i] * wB);
  return a;
}

/**
 * The subject's own motion: the translation (dx, dy) in thumbnail pixels, within ±`radius` of `guess`, that
 * best maps the pixels of `a` under `mask` (a thumbnail-sized mask, >= 128 = subject) onto `b`, as the
 * mean absolute difference of a(p) and b(p + d). A subject walking across a still background moves its
 * own way, not the background's; measured against the keyframe each time (the guess being the last
 * frame's answer), so small errors do not add up along the way. `{ dx: 0, dy: 0 }` without a subject.
 *
 * @example
 * let d = { dx: 0, dy: 0 };
 * for (let t = k + 1; t <= end; t++) d = subjectShift(thumbs[k], thumbs[t], keyMaskThumb, d, 4);
 */
export function subjectShift(
  a: GreyThumb,
  b: GreyThumb,
  mask: Uint8Array,
  guess: { dx: number; dy: number },
  radius: number,
): { dx: number; dy: number } {
  const { width, height } = a;
  const points: number[] = [];
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (mask[y * width + x] >= 128) points.push(x, y);
  if (points.length === 0) return { dx: 0, dy: 0 };
  let best = { dx: guess.dx, dy: guess.dy, cost: Infinity };
  for (let dy = guess.dy - radius; dy <= guess.dy + radius; dy++) {
    for (let dx = guess.dx - radius; dx <= guess.dx + radius; dx++) {
      let sum = 0;
      let count = 0;
      for (let i = 0; i < points.length; i += 2) {
        const x = points[i] + dx;
        const y = points[i + 1] + dy;
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const d = b.data[y * width + x] - a.data[points[i + 1] * width + points[i]];
        sum += d < 0 ? -d : d;
        count++;
      }
      // Most of the subject must stay in view for a shift to count (a sliver matching proves nothing).
      if (count * 4 < points.length) continue;
      // A tie goes to the smaller move: flat subjects match anywhere.
      const cost = sum / count + 0.25 * Math.hypot(dx - guess.dx, dy - guess.dy);
      if (cost < best.cost) best = { dx, dy, cost };
    }
  }
  return { dx: best.dx, dy: best.dy };
}

/**
 * `mask` (width x height) moved by (dx, dy) pixels, rounded; the edge pixels fill what comes into view.
 *
 * @example
 * translateMask(mask, 640, 360, 16, 0); // the subject 16 px to the right
 */
export function translateMask(mask: Uint8Array, width: number, height: number, dx: number, dy: number): Buffer {
  const out = Buffer.allocUnsafe(width * height);
  const sx = Math.round(dx);
  const sy = Math.round(dy);
  for (let y = 0; y < height; y++) {
    const row = Math.min(height - 1, Math.max(0, y - sy)) * width;
    for (let x = 0; x < width; x++) out[y * width + x] = mask[row + Math.min(width - 1, Math.max(0, x - sx))];
  }
  return out;
}

/**
 * `mask` (width x height) sampled down to a `tw` x `th` thumbnail grid (nearest pixel).
 *
 * @example
 * const small = maskThumbnail(mask, 640, 360, 160, 90);
 */
export function maskThumbnail(mask: Uint8Array, width: number, height: number, tw: number, th: number): Uint8Array {
  const out = new Uint8Array(tw * th);
  for (let y = 0; y < th; y++) {
    const row = Math.min(height - 1, Math.floor(((y + 0.5) * height) / th)) * width;
    for (let x = 0; x < tw; x++) out[y * tw + x] = mask[row + Math.min(width - 1, Math.floor(((x + 0.5) * width) / tw))];
  }
  return out;
}

/** Chamfer weights (3-4 chamfer): within ~8% of the Euclidean distance, in thirds of a pixel. */
const CHAMFER_STRAIGHT = 3;
const CHAMFER_DIAGONAL = 4;

/** Distance (in thirds of a pixel) from each pixel where `inside(i)` to the nearest pixel where it is not; 0 elsewhere. */
function chamfer(width: number, height: number, inside: (i: number) => boolean): Float32Array {
  const far = 3 * (width + height);
  const d = new Float32Array(width * height);
  for (let i = 0; i < d.length; i++) d[i] = inside(i) ? far : 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (d[i] === 0) continue;
      let v = d[i];
      // The frame's edge is not a boundary: a subject cut by the edge keeps its depth there.
      if (x > 0) v = Math.min(v, d[i - 1] + CHAMFER_STRAIGHT);
      if (y > 0) {
        v = Math.min(v, d[i - width] + CHAMFER_STRAIGHT);
        if (x > 0) v = Math.min(v, d[i - width - 1] + CHAMFER_DIAGONAL);
        if (x < width - 1) v = Math.min(v, d[i - width + 1] + CHAMFER_DIAGONAL);
      }
      d[i] = v;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (d[i] === 0) continue;
      let v = d[i];
      if (x < width - 1) v = Math.min(v, d[i + 1] + CHAMFER_STRAIGHT);
      if (y < height - 1) {
        v = Math.min(v, d[i + width] + CHAMFER_STRAIGHT);
        if (x < width - 1) v = Math.min(v, d[i + width + 1] + CHAMFER_DIAGONAL);
        if (x > 0) v = Math.min(v, d[i + width - 1] + CHAMFER_DIAGONAL);
      }
      d[i] = v;
    }
  }
  return d;
}

/**
 * The signed distance of each pixel to the mask's outline (mask at 128), in pixels: positive inside
 * (distance to the nearest background pixel), negative outside, never 0 (a pixel beside the outline is
 * ±1). Interpolating two of these and keeping > 0 morphs one shape into the other (a turning product's
 * outline widening, a person's arm moving) where blending the masks would only cross-fade them. A mask
 * without any subject (or all subject) has no outline: every pixel gets ∓(width + height).
 *
 * @example
 * const sd = signedDistance(mask, 640, 360); // sd[i] > 0 where mask[i] >= 128
 */
export function signedDistance(mask: Uint8Array, width: number, height: number): Float32Array {
  if (mask.length !== width * height) throw new RangeError('background-removal: the mask does not fit the frame');
  const inside = chamfer(width, height, (i) => mask[i] >= 128);
  const outside = chamfer(width, height, (i) => mask[i] < 128);
  const out = new Float32Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = (inside[i] - outside[i]) / CHAMFER_STRAIGHT;
  return out;
}

/** A translation in full-frame pixels. */
export interface Offset {
  dx: number;
  dy: number;
}

/**
 * The mask of a frame between two keyframes: the keyframes' signed distances (see {@link signedDistance}),
 * each moved by its offset to this frame (edge values fill what comes into view), interpolated with `wB`
 * (0..1) of the second, as an alpha mask with a ~4-pixel soft edge centred on the interpolated outline
 * (128 where the interpolated distance is 0).
 *
 * @example
 * const mask = morphMasks(sdA, { dx: 12, dy: 0 }, sdB, { dx: -4, dy: 0 }, 0.75, 640, 360);
 */
export function morphMasks(
  a: Float32Array,
  offA: Offset,
  b: Float32Array,
  offB: Offset,
  wB: number,
  width: number,
  height: number,
): Buffer {
  const out = Buffer.allocUnsafe(width * height);
  const ax = Math.round(offA.dx);
  const ay = Math.round(offA.dy);
  const bx = Math.round(offB.dx);
  const by = Math.round(offB.dy);
  const wA = 1 - wB;
  for (let y = 0; y < height; y++) {
    const rowA = Math.min(height - 1, Math.max(0, y - ay)) * width;
    const rowB = Math.min(height - 1, Math.max(0, y - by)) * width;
    for (let x = 0; x < width; x++) {
      const d = wA * a[rowA + Math.min(width - 1, Math.max(0, x - ax))] + wB * b[rowB + Math.min(width - 1, Math.max(0, x - bx))];
      const v = 128 + d * 64;
      out[y * width + x] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  }
  return out;
}

/**
 * The translation (full-frame pixels) that best lays mask `a` onto mask `b`: the difference of their
 * centroids, refined within ±`radius` thumbnail pixels by the IoU of their thumbnails (`tw` x `th`, as
 * {@link maskThumbnail} makes them). Undefined when either mask is empty. Between two keyframes a subject's
 * outline moves this much; its texture (a turning label) may move otherwise.
 *
 * @example
 * const off = alignMasks(thumbA, thumbB, 160, 90, 4, 4); // { dx: 48, dy: 0 } at 640 wide
 */
export function alignMasks(a: Uint8Array, b: Uint8Array, tw: number, th: number, scale: number, radius = 4): Offset | undefined {
  const centroid = (m: Uint8Array) => {
    let n = 0;
    let sx = 0;
    let sy = 0;
    for (let y = 0; y < th; y++) {
      for (let x = 0; x < tw; x++) {
        if (m[y * tw + x] < 128) continue;
        n++;
        sx += x;
        sy += y;
      }
    }
    return n ? { x: sx / n, y: sy / n } : undefined;
  };
  const ca = centroid(a);
  const cb = centroid(b);
  if (!ca || !cb) return undefined;
  const gx = Math.round(cb.x - ca.x);
  const gy = Math.round(cb.y - ca.y);
  let best = { dx: gx, dy: gy, iou: -1 };
  for (let dy = gy - radius; dy <= gy + radius; dy++) {
    for (let dx = gx - radius; dx <= gx + radius; dx++) {
      let inter = 0;
      let union = 0;
      for (let y = 0; y < th; y++) {
        const sy = y - dy;
        for (let x = 0; x < tw; x++) {
          const sx = x - dx;
          const inA = sx >= 0 && sy >= 0 && sx < tw && sy < th && a[sy * tw + sx] >= 128;
          const inB = b[y * tw + x] >= 128;
          if (inA && inB) inter++;
          if (inA || inB) union++;
        }
      }
      const v = union ? inter / union : 0;
      if (v > best.iou) best = { dx, dy, iou: v };
    }
  }
  return { dx: best.dx * scale, dy: best.dy * scale };
}
