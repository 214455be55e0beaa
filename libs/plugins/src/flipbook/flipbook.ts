import type { PictureLayer } from '@app/scene';

/** One frame of a flipbook: where it sits in which atlas, and how long it shows. */
export interface FlipbookFrame {
  atlas: number;
  /** Rectangle in the atlas, normalised, origin top-left (glTF convention): [u0, v0, u1, v1]. */
  uv: [number, number, number, number];
  /** Seconds. */
  duration: number;
}

export interface FlipbookAtlas {
  image: Buffer;
  mime: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

/** Everything the GLB and USDZ flipbook writers need (DESIGN §5, flipbook animation). */
export interface FlipbookModelInput {
  atlases: FlipbookAtlas[];
  frames: FlipbookFrame[];
  alpha: 'opaque' | 'mask' | 'blend';
  /** Plane size in metres. */
  width: number;
  height: number;
}

export { HIDDEN_SCALE } from '@app/scene';
/** Longest loop Quick Look plays (Apple's budget). */
export const MAX_LOOP_SECONDS = 10;

/** Gap between stacked frame quads, in metres: a fraction of a millimetre in total. */
export function frameGap(frameCount: number): number {
  return Math.min(0.00005, 0.0005 / Math.max(1, frameCount));
}

/** Start time of each frame and the loop's total length, in seconds. */
export function frameTimes(frames: readonly FlipbookFrame[]): { starts: number[]; total: number } {
  const starts: number[] = [];
  let t = 0;
  for (const f of frames) {
    if (!(f.duration > 0)) throw new Error('flipbook: every frame needs a duration > 0');
    starts.push(t);
    t += f.duration;
  }
  if (t > MAX_LOOP_SECONDS + 1e-9) throw new Error(`flipbook: the loop lasts ${t.toFixed(2)} s; at most ${MAX_LOOP_SECONDS} s`);
  return { starts, total: t };
}

/** The flipbook as the picture layer of a scene (atlases become textures `atlas-<i>`). */
export function flipbookLayer(input: Pick<FlipbookModelInput, 'atlases' | 'frames' | 'alpha'>): PictureLayer {
  frameTimes(input.frames);
  return {
    kind: 'flipbook',
    atlases: input.atlases.map((a, i) => ({ id: `atlas-${i}`, image: a.image, mime: a.mime, width: a.width, height: a.height })),
    frames: input.frames.map((f) => ({ atlas: f.atlas, uv: f.uv, duration: f.duration })),
    alpha: input.alpha,
  };
}
