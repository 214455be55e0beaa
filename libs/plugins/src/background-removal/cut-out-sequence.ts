import sharp from 'sharp';
import { applyMask, inferenceShape } from './background-remover';
import { blendMasks, maskIou, maskThumbnail, subjectShift, translateMask, type GreyThumb } from './mask-propagation';

/** What cutting out a sequence needs of a remover: the subject mask of one frame, at an inference short side. */
export interface MaskSource {
  mask(rgba: Buffer, width: number, height: number, side?: number | 'source'): Promise<Buffer>;
}

/** Inference short sides: `full` gives the reference mask, `fast` is tried first (see {@link cutOutSequence}). */
export interface InferenceSides {
  full: number | 'source';
  fast: number | 'source';
}

export interface CutOutSequenceOptions {
  /**
   * The model runs first on every `keyframeGap`-th frame (and the last); a stretch between two model runs
   * whose masks, moved along the motion to the other end, do not agree with it is split at its middle and
   * the model runs there too, down to neighbouring frames. 1 runs the model on every frame. Default 6 (BG_REMOVAL_KEYFRAME_GAP).
   */
  keyframeGap?: number;
  /** How well (mask IoU, 0..1) two model runs must agree once moved onto each other to fill the frames between. Default 0.9. */
  agreement?: number;
  /**
   * Without it the remover's own inference size is used throughout. With it, the model runs at `full` on the
   * first frame and at `fast` too; when the two masks agree within `fastAgreement` IoU (and again on the
   * middle keyframe), every other run is at `fast`, else at `full`.
   */
  sides?: InferenceSides;
  /** Default 0.95. */
  fastAgreement?: number;
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
  /** The inference short side of the keyframes after the first: `fast` when it agreed with `full`. */
  side?: number | 'source';
  /** Model runs spent checking `fast` against `full` (not counted in `keyframes`). */
  checkRuns: number;
}

/** Thumbnail width for motion estimation: 4x smaller than 640, 8x smaller than 1280. */
const THUMB_WIDTH = 160;
/** How far the subject may move from one frame to the next, in thumbnail pixels (±20 px at 640). */
const SUBJECT_RADIUS = 5;
export const DEFAULT_KEYFRAME_GAP = 6;
export const DEFAULT_AGREEMENT = 0.9;
export const DEFAULT_FAST_AGREEMENT = 0.95;

const stop = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('background-removal: aborted');
};

/** Lets the event loop run between two frames' worth of JS (block matching, warps): each is a few ms. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Cuts the subject out of every frame of a sequence (video, animated image, motion clip) with the model run
 * on as few frames as the content allows. Keyframes are chosen by content change, checked with the model's
 * own masks: the model runs every `keyframeGap` frames; for each stretch between two runs, the first mask is
 * carried to the last along the local motion (block matching on 160-pixel greyscale thumbnails, frame to
 * frame) and the last back to the first; when both land within `agreement` IoU of the model's mask there,
 * the frames between get the two carried masks blended by distance; otherwise the model runs on the middle
 * frame and both halves are checked again. A pan, a subject walking across a still background or a turntable
 * needs few runs; a scene cut or a subject the model picks differently gets runs around it.
 *
 * The next model run is requested before the current stretch is checked, so with a worker pool the
 * inference of one keyframe overlaps the propagation of the stretch before it.
 *
 * @example
 * const { frames, keyframes } = await cutOutSequence(rgbaFrames, 640, 360, remover, { keyframeGap: 8 });
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
      out.push(applyMask(frames[i], await remover.mask(frames[i], width, height, opts.sides?.full)));
      opts.onProgress?.((i + 1) / n);
    }
    return { frames: out, keyframes: n, side: opts.sides?.full, checkRuns: 0 };
  }

  const runs = new Map<number, Promise<Buffer>>();
  let side = opts.sides?.full;
  const model = (i: number): Promise<Buffer> => {
    let run = runs.get(i);
    if (!run) {
      stop(opts.signal);
      run = remover.mask(frames[i], width, height, side);
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
  const thumbnails = Promise.all(frames.map((f) => thumbnail(f, width, height)));
  const checkRuns = await chooseSide();
  const thumbs = await thumbnails;
  const scale = width / thumbs[0].width;
  /**
   * The mask of keyframe `from` carried to each frame up to `to` (either direction) by the subject's own
   * motion, each frame measured against the keyframe (the last frame's shift as the guess).
   */
  const carry = async (mask: Buffer, from: number, to: number): Promise<Map<number, Buffer>> => {
    const out = new Map<number, Buffer>();
    const step = to > from ? 1 : -1;
    const t0 = thumbs[from];
    const small = maskThumbnail(mask, width, height, t0.width, t0.height);
    let shift = { dx: 0, dy: 0 };
    for (let t = from + step; t !== to + step; t += step) {
      await yieldToLoop();
      shift = subjectShift(t0, thumbs[t], small, shift, SUBJECT_RADIUS);
      out.set(t, translateMask(mask, width, height, shift.dx * scale, shift.dy * scale));
    }
    return out;
  };

  /**
   * Tries `fast` against `full` on the first frame, then on the middle keyframe; adopts it when both agree. Scenes
   * without a clear subject (a skyline) get another object picked at a smaller input, a product or a person
   * in front of a background the same one.
   */
  async function chooseSide(): Promise<number> {
    const sides = opts.sides;
    if (!sides) return 0;
    const [f, s] = [inferenceShape(width, height, sides.full), inferenceShape(width, height, sides.fast)];
    if (f.width * f.height <= s.width * s.height) return 0;
    let spent = 0;
    // The first frame and the middle keyframe: the last may hold a subject leaving the picture, a sliver
    // whose IoU says little.
    for (const i of [0, starts[starts.length >> 1]]) {
      const full = model(i);
      stop(opts.signal);
      spent++;
      if (maskIou(await remover.mask(frames[i], width, height, sides.fast), await full) < (opts.fastAgreement ?? DEFAULT_FAST_AGREEMENT))
        return spent;
    }
    side = sides.fast;
    return spent;
  }

  const masks: Buffer[] = new Array<Buffer>(n);
  let filled = 0;
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
      const fromA = await carry(ma, a, b);
      const fromB = await carry(mb, b, a);
      if (maskIou(fromA.get(b)!, mb) < agreement || maskIou(fromB.get(a)!, ma) < agreement) {
        const mid = (a + b) >> 1;
        void model(mid);
        todo.push([mid, b], [a, mid]);
        continue;
      }
      for (let t = a + 1; t < b; t++) masks[t] = blendMasks(fromA.get(t)!, fromB.get(t)!, (t - a) / (b - a));
    }
    filled = b + 1;
    opts.onProgress?.(filled / n);
  }
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) out.push(applyMask(frames[i], masks[i]));
  return { frames: out, keyframes: runs.size, side, checkRuns };
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
