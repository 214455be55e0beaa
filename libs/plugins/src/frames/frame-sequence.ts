/**
 * `FrameSequence` (decoded frames of an animated source, all the same size, RGBA, each with its display
 * time: what the flipbook writers are built from) and `AlphaMode` (none, 1-bit MASK or soft BLEND) are
 * part of the motion-model contract, defined in `@image-ar/plugin-sdk`.
 */
import type { AlphaMode } from '@image-ar/plugin-sdk';

export type { AlphaMode, FrameSequence } from '@image-ar/plugin-sdk';

/** Limits applied while decoding, so a sequence never exceeds the AR viewers' budgets (DESIGN §5). */
export interface FrameLimits {
  /** Longest side of an output frame, px. */
  maxSide: number;
  /** Most frames kept; longer sources are resampled (frames dropped evenly, durations merged). */
  maxFrames: number;
  /** Longest loop kept, seconds (Quick Look: 10 s). Longer sources are cut. */
  maxDurationS: number;
  /** Decoded bytes of all frames together (width x height x 4 x frames). Frames are shrunk to fit. */
  maxDecodedBytes: number;
}

export const DEFAULT_FRAME_LIMITS: FrameLimits = {
  maxSide: 1024,
  maxFrames: 96,
  maxDurationS: 10,
  maxDecodedBytes: 96 * 1024 * 1024,
};

/**
 * Output frame size for a source of `width` x `height` with `frameCount` frames: the aspect ratio kept,
 * the longest side at most `maxSide`, and all frames together within `maxDecodedBytes`.
 *
 * @example
 * fitFrameSize(1920, 1080, 48, DEFAULT_FRAME_LIMITS) // -> { width: 1024, height: 576 }
 */
export function fitFrameSize(width: number, height: number, frameCount: number, limits: FrameLimits): { width: number; height: number } {
  let scale = Math.min(1, limits.maxSide / Math.max(width, height));
  const bytes = width * height * 4 * Math.max(1, frameCount) * scale * scale;
  if (bytes > limits.maxDecodedBytes) scale *= Math.sqrt(limits.maxDecodedBytes / bytes);
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

/**
 * Keeps at most `maxFrames` frames and at most `maxDurationS` seconds: frames past the limit are cut,
 * and when there are still too many, frames are dropped evenly and their time given to the kept frame
 * before them, so the loop keeps its length.
 */
export function limitFrames<T extends { duration: number }>(frames: readonly T[], maxFrames: number, maxDurationS: number): T[] {
  const cut: T[] = [];
  let t = 0;
  for (const f of frames) {
    if (t + 1e-9 >= maxDurationS) break;
    const duration = Math.min(f.duration, maxDurationS - t);
    cut.push({ ...f, duration });
    t += duration;
  }
  if (cut.length <= maxFrames) return cut;
  const out: T[] = [];
  for (let i = 0; i < maxFrames; i++) {
    const from = Math.floor((i * cut.length) / maxFrames);
    const to = Math.floor(((i + 1) * cut.length) / maxFrames);
    const duration = cut.slice(from, to).reduce((s, f) => s + f.duration, 0);
    out.push({ ...cut[from], duration });
  }
  return out;
}

/**
 * Classifies the transparency of RGBA frames: `opaque` when every alpha is 255, `mask` when every alpha
 * is 0 or 255, `blend` otherwise.
 */
export function classifyAlpha(frames: readonly { rgba: Buffer }[]): AlphaMode {
  let mode: AlphaMode = 'opaque';
  for (const f of frames) {
    const b = f.rgba;
    for (let i = 3; i < b.length; i += 4) {
      const a = b[i];
      if (a === 255) continue;
      if (a !== 0) return 'blend';
      mode = 'mask';
    }
  }
  return mode;
}
