import type { RawFrame } from '../flipbook/pack-atlases';

/**
 * How the end of an animation joins its start (request field `loop`):
 * - `auto` (default): a clip that already loops (seam score <= {@link SEAM_TARGET}), or an authored loop
 *   (animated image), is kept as it is;
 *   otherwise the loop point is the frame most like the first within the last third, the clip is cut there
 *   and the frames after it are blended into the start; if the seam is still visible, the last frames
 *   dissolve into the first (as `crossfade`).
 * - `crossfade`: every frame kept (same count, same length); the last frames dissolve into the first.
 * - `pingpong`: forward, then backward (frames dropped evenly to stay within the frame and time caps).
 * - `cut`: as decoded, the last frame followed by the first.
 */
export type LoopMode = 'auto' | 'crossfade' | 'pingpong' | 'cut';
export const LOOP_MODES: readonly LoopMode[] = ['auto', 'crossfade', 'pingpong', 'cut'];
export const DEFAULT_LOOP_MODE: LoopMode = 'auto';

/** Seam score at or under which a loop counts as seamless: the wrap is at most 1.5 typical frame steps. */
export const SEAM_TARGET = 1.5;
/** Longest side of the grey thumbnails the score is measured on, px. */
export const SEAM_THUMB_PX = 32;
/** Floor of the median step (grey levels, 0..255), so a nearly still clip does not divide by ~0. */
const MIN_STEP = 0.5;

/** A grey thumbnail of a frame: alpha-weighted luma (composited over black), 0..255. */
export type Thumb = Float32Array;

/**
 * A small grey version of an RGBA frame for comparisons: box-averaged down to at most
 * {@link SEAM_THUMB_PX} on the longest side; each pixel is the Rec. 601 luma times alpha / 255.
 * Linear in the frame's pixels, so a blend of frames has the blend of their thumbnails.
 */
export function thumbnail(rgba: Buffer, width: number, height: number, side = SEAM_THUMB_PX): Thumb {
  const scale = Math.min(1, side / Math.max(width, height));
  const tw = Math.max(1, Math.round(width * scale));
  const th = Math.max(1, Math.round(height * scale));
  const sum = new Float32Array(tw * th);
  const count = new Float32Array(tw * th);
  for (let y = 0; y < height; y++) {
    const ty = Math.min(th - 1, Math.floor((y * th) / height));
    for (let x = 0; x < width; x++) {
      const tx = Math.min(tw - 1, Math.floor((x * tw) / width));
      const o = (y * width + x) * 4;
      const luma = 0.299 * rgba[o] + 0.587 * rgba[o + 1] + 0.114 * rgba[o + 2];
      sum[ty * tw + tx] += (luma * rgba[o + 3]) / 255;
      count[ty * tw + tx] += 1;
    }
  }
  for (let i = 0; i < sum.length; i++) sum[i] /= count[i] || 1;
  return sum;
}

/** Mean absolute difference of two thumbnails, grey levels (0..255). */
export function meanAbsDiff(a: Thumb, b: Thumb): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]);
  return a.length ? s / a.length : 0;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const v = [...values].sort((x, y) => x - y);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Seam score of a looping sequence, from the grey thumbnails of its frames in play order:
 *
 *   seam_score = MAD(last, first) / max(median over i of MAD(frame i, frame i+1), 0.5)
 *
 * where MAD is the mean absolute difference of two thumbnails ({@link thumbnail}, grey levels 0..255) and
 * the median runs over the n - 1 steps inside the clip (not the wrap). 1 means the jump from the last frame
 * back to the first is like a typical frame step; 0 a perfect loop; 10 a jump ten steps big. The 0.5
 * floor keeps a still or nearly still clip from dividing by ~0. Fewer than 2 frames: 0.
 */
export function seamScore(thumbs: readonly Thumb[]): number {
  const n = thumbs.length;
  if (n < 2) return 0;
  const steps: number[] = [];
  for (let i = 0; i + 1 < n; i++) steps.push(meanAbsDiff(thumbs[i], thumbs[i + 1]));
  return meanAbsDiff(thumbs[n - 1], thumbs[0]) / Math.max(median(steps), MIN_STEP);
}

/** An output frame as a weighted sum of input frames, with its display time. */
interface Mix {
  parts: { i: number; w: number }[];
  duration: number;
}

const identity = (frames: readonly { duration: number }[]): Mix[] => frames.map((f, i) => ({ parts: [{ i, w: 1 }], duration: f.duration }));

function mixThumbs(plan: readonly Mix[], thumbs: readonly Thumb[]): Thumb[] {
  return plan.map((m) => {
    if (m.parts.length === 1) return thumbs[m.parts[0].i];
    const out = new Float32Array(thumbs[0].length);
    for (const { i, w } of m.parts) for (let k = 0; k < out.length; k++) out[k] += w * thumbs[i][k];
    return out;
  });
}

function mixFrames(plan: readonly Mix[], frames: readonly RawFrame[]): RawFrame[] {
  return plan.map((m) => {
    if (m.parts.length === 1) return { rgba: frames[m.parts[0].i].rgba, duration: m.duration };
    const len = frames[m.parts[0].i].rgba.length;
    const acc = new Float32Array(len);
    for (const { i, w } of m.parts) {
      const b = frames[i].rgba;
      for (let k = 0; k < len; k++) acc[k] += w * b[k];
    }
    const rgba = Buffer.allocUnsafe(len);
    for (let k = 0; k < len; k++) rgba[k] = Math.min(255, Math.max(0, Math.round(acc[k])));
    return { rgba, duration: m.duration };
  });
}

/** Adds `b` to `a` with weight `wb` (a's parts scaled by 1 - wb). */
function blend(a: Mix, b: Mix, wb: number, duration: number): Mix {
  return { parts: [...a.parts.map((p) => ({ i: p.i, w: p.w * (1 - wb) })), ...b.parts.map((p) => ({ i: p.i, w: p.w * wb }))], duration };
}

/**
 * `crossfade` on a plan: the last `k` frames dissolve into the first (frame n-k+j gets (j+1)/(k+1) of the
 * first frame), so the wrap is 1/(k+1) of the original jump. The smallest k (2 .. n/2) that brings the
 * score to {@link SEAM_TARGET} or under is used, else the best one.
 */
function crossfadePlan(plan: Mix[], thumbs: readonly Thumb[]): Mix[] {
  const n = plan.length;
  if (n < 3) return plan;
  let best = plan;
  let bestScore = seamScore(mixThumbs(plan, thumbs));
  for (let k = 2; k <= Math.max(2, Math.floor(n / 2)); k++) {
    const out = plan.map((m, idx) => (idx < n - k ? m : blend(m, plan[0], (idx - (n - k) + 1) / (k + 1), m.duration)));
    const score = seamScore(mixThumbs(out, thumbs));
    if (score < bestScore - 1e-9) {
      best = out;
      bestScore = score;
    }
    if (score <= SEAM_TARGET) break;
  }
  return best;
}

/** Frames overlapped when the tail after the loop point is blended into the start. */
const MAX_OVERLAP = 6;

/**
 * `auto` on a plan: loop point L = the frame most like the first among the last third (L >= 2n/3);
 * frames 0..L-1 are kept and frames L.. (which continue from L-1 and start near frame 0) are laid over
 * the first frames, fading from the tail to the head, so the wrap L-1 -> 0 is an ordinary step.
 */
function loopPointPlan(plan: Mix[], thumbs: readonly Thumb[]): Mix[] {
  const n = plan.length;
  const t = mixThumbs(plan, thumbs);
  let loop = -1;
  let bestDiff = Infinity;
  for (let i = Math.max(2, Math.ceil((2 * n) / 3)); i < n; i++) {
    const d = meanAbsDiff(t[i], t[0]);
    if (d < bestDiff) {
      bestDiff = d;
      loop = i;
    }
  }
  if (loop < 0) return plan;
  const tail = plan.slice(loop, loop + Math.min(MAX_OVERLAP, Math.floor(loop / 2)));
  const head = plan.slice(0, loop);
  const k = tail.length;
  return head.map((m, j) => (j < k ? blend(tail[j], m, (j + 1) / (k + 1), m.duration) : m));
}

/**
 * `pingpong` on a plan: 0..n-1 then n-2..1. When that exceeds `maxFrames` frames or `maxDurationS`
 * seconds, forward frames are dropped evenly first (each kept frame keeps its own time: the motion plays
 * faster but all of it is seen).
 */
function pingpongPlan(plan: Mix[], maxFrames: number, maxDurationS: number): Mix[] {
  const bounce = (fw: Mix[]) => [...fw, ...fw.slice(1, -1).reverse()];
  const total = (p: Mix[]) => p.reduce((s, m) => s + m.duration, 0);
  let fw = plan;
  for (let keep = plan.length; keep >= 2; keep--) {
    fw = Array.from({ length: keep }, (_, i) => plan[Math.round((i * (plan.length - 1)) / Math.max(1, keep - 1))]);
    const out = bounce(fw);
    if (out.length <= maxFrames && total(out) <= maxDurationS + 1e-9) return out;
  }
  return bounce(fw);
}

export interface LoopOptions {
  /** Requested mode. */
  mode: LoopMode;
  /** The frames are already an exact loop (procedural motion): never blended, scored only. */
  periodic?: boolean;
  /**
   * The frames are an authored loop (an animated GIF / APNG / WebP plays them in this order, endlessly, in
   * any browser): `auto` keeps them as they are. `crossfade` and `pingpong` still apply when asked for.
   */
  authored?: boolean;
  /** Caps for `pingpong` (ANIMATION_MAX_FRAMES and the 10 s loop). */
  maxFrames: number;
  maxDurationS: number;
}

export interface LoopResult {
  frames: RawFrame[];
  /** The mode actually applied (`cut` for `auto` on a clip that already loops, and on periodic frames unless `pingpong`). */
  applied: LoopMode;
  /** Seam score of the frames as they came (`cut`). */
  seamScoreBefore: number;
  /** Seam score of the returned frames. */
  seamScore: number;
}

/**
 * Makes `frames` (RGBA, `width` x `height`, in play order) loop as `mode` asks. Pure: the input is not
 * changed; unblended frames share their buffers with it.
 *
 * @example
 * makeLoop(sequence.frames, sequence.width, sequence.height, { mode: 'auto', maxFrames: 96, maxDurationS: 10 })
 */
export function makeLoop(frames: readonly RawFrame[], width: number, height: number, opts: LoopOptions): LoopResult {
  const thumbs = frames.map((f) => thumbnail(f.rgba, width, height));
  const before = seamScore(thumbs);
  const done = (plan: Mix[] | null, applied: LoopMode): LoopResult => {
    if (!plan) return { frames: [...frames], applied, seamScoreBefore: before, seamScore: before };
    return { frames: mixFrames(plan, frames), applied, seamScoreBefore: before, seamScore: seamScore(mixThumbs(plan, thumbs)) };
  };
  const base = identity(frames);
  if (opts.mode === 'pingpong' && frames.length >= 3) return done(pingpongPlan(base, opts.maxFrames, opts.maxDurationS), 'pingpong');
  if (opts.mode === 'cut' || opts.mode === 'pingpong' || opts.periodic || frames.length < 4) return done(null, 'cut');
  if (opts.mode === 'crossfade') return done(crossfadePlan(base, thumbs), 'crossfade');
  // auto
  if (before <= SEAM_TARGET || opts.authored) return done(null, 'cut');
  let plan = loopPointPlan(base, thumbs);
  if (seamScore(mixThumbs(plan, thumbs)) > SEAM_TARGET) plan = crossfadePlan(plan, thumbs);
  const after = seamScore(mixThumbs(plan, thumbs));
  return after < before ? done(plan, 'auto') : done(null, 'cut');
}
