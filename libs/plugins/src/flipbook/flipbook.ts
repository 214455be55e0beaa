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

export { frameGap, frameTimes, HIDDEN_SCALE, MAX_LOOP_SECONDS } from '@app/scene';

/** The flipbook as the picture layer of a scene (atlases become textures `atlas-<i>`). */
export function flipbookLayer(input: Pick<FlipbookModelInput, 'atlases' | 'frames' | 'alpha'>): PictureLayer {
  return {
    kind: 'flipbook',
    atlases: input.atlases.map((a, i) => ({ id: `atlas-${i}`, image: a.image, mime: a.mime, width: a.width, height: a.height })),
    frames: input.frames.map((f) => ({ atlas: f.atlas, uv: f.uv, duration: f.duration })),
    alpha: input.alpha,
  };
}
