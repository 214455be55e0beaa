import sharp from 'sharp';
import { applyMask } from './background-remover';
import {
  alignMasks,
  maskIou,
  maskThumbnail,
  morphMasks,
  type Offset,
  signedDistance,
  subjectShift,
  translateMask,
  type GreyThumb,
} from './mask-propagation';

/** What cutting out a sequence needs of a remover: the subject mask of one frame. */
export interface MaskSource {
  mask(rgba: Buffer, width: number, height: number): Promise<Buffer>;
}

export interface CutOutSequenceOptions {
  /**
   * The model runs first on every `keyframeGap`-th frame (and the last); a stretch between two model runs
   * whose carried masks do not agree (see {@link cutOutSequence}) is split at its middle and the model runs
   * there too, down to neighbouring frames. 1 runs the model on every frame. Default 6 (BG_REMOVAL_KEYFRAME_GAP).
   */
  keyframeGap?: number;
  /** How well (mask IoU, 0..1) the carried masks must agree to fill the frames between two runs. Default {@link DEFAULT_AGREEMENT}. */
  agreement?: number;
  /** Checked before each model run: an aborted signal stops with its reason. */
  signal?: AbortSignal;
  /** 0..1, as frames get their masks. */
  onProgress?: (fraction: number) => void;
}

export interface CutOutSequenceResult {
  /** The frames with alpha multiplied by their masks (new buffers), in order. */
  frames: Buffer[];
  /** Frames the model ran on. */
  keyframes: number;
}

/** Thumbnail width for motion estimation: 4x smaller than 640, 8x smaller than 1280. */
const THUMB_WIDTH = 160;
/** How far the subject may move from one frame to the next, in thumbnail pixels (±20 px at 640). */
const SUBJECT_RADIUS = 5;
/** Thumbnail pixels a frame: the most an outline may move for the constant-speed path (2 px a frame at 640). */
const SLOW_OUTLINE = 0.5;
export const DEFAULT_KEYFRAME_GAP = 6;
export const DEFAULT_AGREEMENT = 0.92;

const stop = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('background-removal: aborted');
};

/** Lets the event loop run between two frames' worth of JS (block matching, warps): each is a few ms. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Cuts the subject out of every frame of a sequence (video, animated image, motion clip) with the model run
 * on as few frames as the content allows. The model runs every `keyframeGap` frames; for each stretch
 * between two runs, the first mask is carried forward to every frame up to the last along the subject's own
 * motion (block matching of the mask's pixels on 160-pixel greyscale thumbnails, against the keyframe), and
 * the last mask backward to the first. The frames between get the two carried masks blended by distance
 * only when they agree everywhere: each carried mask within `agreement` IoU of the model's mask at the other
 * end, and the two carried masks within `agreement` of each other on every frame between. Otherwise the
 * model runs on the middle frame and both halves are checked again. So a subject entering or leaving the
 * picture (one carried mask has it, the other not), a scene cut or a shape that changes gets model runs
 * around it, and a pan, a subject crossing a still background or a slow turntable needs few.
 *
 * The next model run is requested before the current stretch is checked, so with a worker pool the
 * inference of one keyframe overlaps the propagation of the stretch before it.
 *
 * @example
 * const { frames, keyframes } = await cutOutSequence(rgbaFrames, 640, 360, remover, { keyframeGap: 6 });
 */
export async function cutOutSequence(
  frames: Buffer[],
  width: number,
  height: number,
  remover: MaskSource,
  opts: CutOutSequenceOptions = {},
): Promise<CutOutSequenceResult> {
  const gap = opts.keyframeGap ?? DEFAULT_KEYFRAME_GAP;
  const agreement = opts.agreement ?? DEFAULT_AGREEMENT;
  if (!Number.isInteger(gap) || gap < 1) throw new RangeError(`background-removal: keyframeGap must be a positive integer, got ${gap}`);
  if (!(agreement >= 0 && agreement <= 1)) throw new RangeError(`background-removal: agreement must be in 0..1, got ${agreement}`);
  const n = frames.length;
  if (gap === 1 || n < 3) {
    const out: Buffer[] = [];
    for (let i = 0; i < n; i++) {
      stop(opts.signal);
      out.push(applyMask(frames[i], await remover.mask(frames[i], width, height)));
      opts.onProgress?.((i + 1) / n);
    }
    return { frames: out, keyframes: n };
  }

  const runs = new Map<number, Promise<Buffer>>();
  const model = (i: number): Promise<Buffer> => {
    let run = runs.get(i);
    if (!run) {
      stop(opts.signal);
      run = remover.mask(frames[i], width, height);
      // Requested ahead: a failure is reported where it is awaited, not as an unhandled rejection.
      run.catch(() => undefined);
      runs.set(i, run);
    }
    return run;
  };
  const starts: number[] = [];
  for (let i = 0; i < n - 1; i += gap) starts.push(i);
  // Stretches left to check, the next on top; the first run starts while the thumbnails are made.
  const todo: Array<[number, number]> = starts.map((a, k) => [a, starts[k + 1] ?? n - 1] as [number, number]).reverse();
  void model(0);
  const thumbs = await Promise.all(frames.map((f) => thumbnail(f, width, height)));
  const tw = thumbs[0].width;
  const th = thumbs[0].height;
  const scale = width / tw;
  /**
   * The offsets (full-frame pixels) of keyframe `from`'s subject at each frame up to `to` (either
   * direction), tracked by the subject's own texture, each frame measured against the keyframe (the last
   * frame's shift as the guess), so small errors do not add up along the way.
   */
  const track = async (small: Uint8Array, from: number, to: number): Promise<Map<number, Offset>> => {
    const out = new Map<number, Offset>();
    const step = to > from ? 1 : -1;
    let shift = { dx: 0, dy: 0 };
    for (let t = from + step; t !== to + step; t += step) {
      await yieldToLoop();
      shift = subjectShift(thumbs[from], thumbs[t], small, shift, SUBJECT_RADIUS);
      out.set(t, { dx: shift.dx * scale, dy: shift.dy * scale });
    }
    return out;
  };
  /** Both carried masks within `agreement` of the model's at the other end, and of each other on every frame between. */
  const agrees = (a: number, b: number, ma: Buffer, mb: Buffer, fromA: Map<number, Offset>, fromB: Map<number, Offset>): boolean => {
    const moved = (m: Buffer, o: Offset) => translateMask(m, width, height, o.dx, o.dy);
    if (maskIou(moved(ma, fromA.get(b)!), mb) < agreement || maskIou(moved(mb, fromB.get(a)!), ma) < agreement) return false;
    for (let t = a + 1; t < b; t++) if (maskIou(moved(ma, fromA.get(t)!), moved(mb, fromB.get(t)!)) < agreement) return false;
    return true;
  };
  /**
   * How the frames between keyframes `a` and `b` get their masks, or undefined when no way agrees: the
   * subject tracked by its texture from both ends (a pan, a subject crossing the picture, changing speed), or
   * else its outline moving at constant speed from one mask to the other (a turntable, whose label moves but
   * whose outline does not). Two empty masks: nothing between.
   */
  const plan = async (
    a: number,
    b: number,
    ma: Buffer,
    mb: Buffer,
  ): Promise<{ fromA: Map<number, Offset>; fromB: Map<number, Offset> } | undefined> => {
    const sa = maskThumbnail(ma, width, height, tw, th);
    const sb = maskThumbnail(mb, width, height, tw, th);
    const tracked = { fromA: await track(sa, a, b), fromB: await track(sb, b, a) };
    if (agrees(a, b, ma, mb, tracked.fromA, tracked.fromB)) return tracked;
    const off = alignMasks(sa, sb, tw, th, scale);
    // Only a slow outline: the constant-speed path is checked at its ends alone (its masks agree between by
    // construction), so a fast subject whose speed changes is left to the model.
    if (!off || Math.hypot(off.dx, off.dy) > SLOW_OUTLINE * scale * (b - a)) return undefined;
    const linear = { fromA: new Map<number, Offset>(), fromB: new Map<number, Offset>() };
    for (let t = a; t <= b; t++) {
      const f = (t - a) / (b - a);
      linear.fromA.set(t, { dx: off.dx * f, dy: off.dy * f });
      linear.fromB.set(t, { dx: -off.dx * (1 - f), dy: -off.dy * (1 - f) });
    }
    return agrees(a, b, ma, mb, linear.fromA, linear.fromB) ? linear : undefined;
  };

  const masks: Buffer[] = new Array<Buffer>(n);
  while (todo.length) {
    const [a, b] = todo.pop()!;
    const next = todo.at(-1);
    void model(b);
    if (next) void model(next[1]);
    const [ma, mb] = [await model(a), await model(b)];
    stop(opts.signal);
    masks[a] = ma;
    masks[b] = mb;
    if (b - a >= 2) {
      const way = await plan(a, b, ma, mb);
      if (!way) {
        const mid = (a + b) >> 1;
        void model(mid);
        todo.push([mid, b], [a, mid]);
        continue;
      }
      const [da, db] = [signedDistance(ma, width, height), signedDistance(mb, width, height)];
      for (let t = a + 1; t < b; t++) {
        await yieldToLoop();
        masks[t] = morphMasks(da, way.fromA.get(t)!, db, way.fromB.get(t)!, (t - a) / (b - a), width, height);
      }
    }
    opts.onProgress?.((b + 1) / n);
  }
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) out.push(applyMask(frames[i], masks[i]));
  return { frames: out, keyframes: runs.size };
}

async function thumbnail(rgba: Buffer, width: number, height: number): Promise<GreyThumb> {
  const w = Math.min(width, THUMB_WIDTH);
  const h = Math.max(1, Math.round((w * height) / width));
  const data = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .resize(w, h, { fit: 'fill' })
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { data, width: w, height: h };
}
