import sharp from 'sharp';
import type { StageProvider } from '@app/pipeline';
import { parseDimensionRequest, resolveDimensions, type Dimensions } from '../dimensions/dimensions';
import { flipbookLayer } from '../flipbook/flipbook';
import { packAtlases } from '../flipbook/pack-atlases';
import { writeSceneGlb } from '../glb-writer/write-scene-glb';
import type { Presentation } from '../presentation/presentation';
import { checkFileBudget, pictureModel } from '../scene-builder/scene.stage';
import { writeSceneUsdz } from '../usdz-writer/write-scene-usdz';
import { classifyAlpha, DEFAULT_FRAME_LIMITS, type AlphaMode, type FrameLimits } from '../frames/frame-sequence';
import { DEFAULT_LOOP_MODE, makeLoop, type LoopMode } from '../frames/loop-seam';
import type { Poster } from '../normalise/normalise-image';
import { inputOf } from '../job-inputs/job-input-fields';
import type { AnimatedArJobInput } from '../job-inputs/animated-ar-job-input';
import type { BackgroundRemovalOutput } from './background-removal.stage';
import type { SourceFrames } from './frames.stage';
import type { MotionStageOutput } from './motion.stage';

export interface FlipbookOutput {
  glb: Buffer;
  usdz: Buffer;
  poster: Poster;
  dimensions: Dimensions;
  frames: { count: number; width: number; height: number; duration_s: number; atlases: number; alpha: AlphaMode };
  presentation: Presentation;
  outer_dimensions: { width_inches: number; height_inches: number; depth_inches: number };
  animation: AnimationInfo;
}

/**
 * The played loop as built: frame count, mean frame rate (frames / duration), loop length, the loop mode
 * applied (`cut` when `auto` found the clip already looping, or for procedural motion, which is exact) and
 * the seam score (frames/loop-seam.ts: MAD(last, first) / median MAD of consecutive frames; <= 1.5 seamless).
 */
export interface AnimationInfo {
  frames: number;
  fps: number;
  duration_s: number;
  loop: LoopMode;
  seam_score: number;
}

/**
 * Builds the looping flipbook GLB and USDZ (DESIGN §5) from the final frames, sized by the source's
 * displayed proportions (or the request's inches), and the poster from the first frame.
 */
export const createFlipbookWriterStage = (
  limits: Pick<FrameLimits, 'maxFrames' | 'maxDurationS'> = DEFAULT_FRAME_LIMITS,
): StageProvider<FlipbookOutput> => ({
  id: 'flipbook-writer',
  async run(ctx) {
    const src = ctx.outputs.frames as SourceFrames;
    const removed = (ctx.outputs['background-removal'] as BackgroundRemovalOutput).sequence;
    const motion = ctx.outputs.motion as MotionStageOutput | undefined;
    // The loop seam (request `loop`). Procedural motion is already an exact loop: scored, never blended. An
    // animated image is an authored loop: `auto` keeps it (crossfade / pingpong still apply when asked for).
    const input = inputOf<AnimatedArJobInput>(ctx.job);
    const looped = makeLoop(removed.frames, removed.width, removed.height, {
      mode: input.loop ?? DEFAULT_LOOP_MODE,
      periodic: src.kind === 'image' && motion?.model === 'procedural',
      authored: src.kind === 'animated-image',
      maxFrames: limits.maxFrames,
      maxDurationS: limits.maxDurationS,
    });
    // Blending 1-bit alpha makes soft edges: classified again.
    const blended = looped.applied === 'auto' || looped.applied === 'crossfade';
    const sequence = {
      ...removed,
      frames: looped.frames,
      alpha: blended && removed.alpha === 'mask' ? classifyAlpha(looped.frames) : removed.alpha,
    };
    const dimensions = resolveDimensions(parseDimensionRequest(input), src.sourceWidth, src.sourceHeight);
    const alpha = sequence.alpha;
    const { atlases, frames } = await packAtlases(sequence.frames, {
      width: sequence.width,
      height: sequence.height,
      alpha: alpha !== 'opaque',
    });
    ctx.progress(0.4);
    // The frame, mat and back stay still; only the picture's flipbook plays.
    const picturePoster = await posterOf(sequence.frames[0].rgba, sequence.width, sequence.height, alpha !== 'opaque');
    const { scene, presentation, outer_dimensions, poster } = await pictureModel(
      'flipbook-writer',
      input,
      dimensions,
      flipbookLayer({ atlases, frames, alpha }),
      picturePoster,
    );
    const glb = checkFileBudget('flipbook-writer', await writeSceneGlb(scene));
    ctx.progress(0.7);
    const usdz = checkFileBudget('flipbook-writer', writeSceneUsdz(scene, 'flipbook.usda'));
    ctx.progress(1);
    const duration = sequence.frames.reduce((s, f) => s + f.duration, 0);
    const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;
    return {
      glb,
      usdz,
      poster,
      dimensions,
      frames: {
        count: frames.length,
        width: sequence.width,
        height: sequence.height,
        duration_s: Math.round(duration * 1000) / 1000,
        atlases: atlases.length,
        alpha,
      },
      presentation,
      outer_dimensions,
      animation: {
        frames: frames.length,
        fps: duration > 0 ? round(frames.length / duration, 2) : 0,
        duration_s: round(duration, 3),
        loop: looped.applied,
        seam_score: round(looped.seamScore, 3),
      },
    };
  },
});

/** The flipbook writer with the default caps (ANIMATION_MAX_FRAMES 96, 10 s loop). */
export const flipbookWriterStage = createFlipbookWriterStage();

async function posterOf(rgba: Buffer, width: number, height: number, alpha: boolean): Promise<Poster> {
  const img = sharp(rgba, { raw: { width, height, channels: 4 } });
  const image = alpha ? await img.png().toBuffer() : await img.removeAlpha().jpeg({ quality: 88, mozjpeg: true }).toBuffer();
  return { image, mime: alpha ? 'image/png' : 'image/jpeg', ext: alpha ? 'png' : 'jpg', width, height };
}
