import type { StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { Dimensions } from '../dimensions/dimensions';
import { presentationResult } from '../scene-builder/scene.stage';
import { storeModelFiles, type StillImageResult } from '../publish/publish.stage';
import type { BackgroundRemovalOutput } from './background-removal.stage';
import type { FlipbookOutput } from './flipbook-writer.stage';
import type { SourceFrames, SourceKind } from './frames.stage';
import type { MotionStageOutput } from './motion.stage';

/** The job result of an animated AR conversion. URLs and credits are added when it is read. */
export interface AnimatedArResult {
  [k: string]: unknown;
  source_kind: SourceKind;
  /** Spec §2.7: the source was already animated, so no motion model ran (and its price is refunded). */
  ai_motion_skipped: boolean;
  motion: { video_model: string; motion_style: string } | null;
  background_removed: boolean;
  /**
   * How the background was removed: once on the still before a motion that keeps transparency, or on every
   * frame (animated sources, motion models that need an opaque picture). Null when not asked.
   */
  background_removal?: { path: 'once-before-motion' | 'keyframes' | 'per-frame'; frames_processed: number } | null;
  dimensions: Dimensions;
  frames: FlipbookOutput['frames'];
  /** The played loop: frames, mean fps, length, loop mode applied, seam score. Absent on results stored before it existed. */
  animation?: FlipbookOutput['animation'];
  files: StillImageResult['files'];
}

/** Stores the flipbook models and the poster under `models/<job id>/` (same keys on a replay). */
export function createPublishAnimatedStage(storage: StoragePort): StageProvider<AnimatedArResult> {
  return {
    id: 'publish-animated',
    async run(ctx) {
      const out = ctx.outputs['flipbook-writer'] as FlipbookOutput;
      const src = ctx.outputs.frames as SourceFrames;
      const motion = ctx.outputs.motion as MotionStageOutput;
      const bg = ctx.outputs['background-removal'] as BackgroundRemovalOutput;
      const files = await storeModelFiles(storage, 'publish-animated', ctx.job.id, out, ctx.progress);
      return {
        source_kind: src.kind,
        ai_motion_skipped: src.kind === 'animated-image',
        motion: motion.skipped ? null : { video_model: motion.model ?? '', motion_style: motion.style ?? '' },
        background_removed: bg.removed,
        background_removal: backgroundRemovalPath(bg, motion),
        dimensions: out.dimensions,
        frames: out.frames,
        animation: out.animation,
        files,
        ...presentationResult(out),
      };
    },
  };
}

/** The `background_removal` field of the result: which path cut the subject out, and on how many frames. */
export function backgroundRemovalPath(bg: BackgroundRemovalOutput, motion: MotionStageOutput): AnimatedArResult['background_removal'] {
  if (!bg.removed) return null;
  const once = motion.backgroundRemoved;
  const processed = bg.framesProcessed ?? (once ? 1 : bg.sequence.frames.length);
  const path = once ? 'once-before-motion' : processed < bg.sequence.frames.length ? 'keyframes' : 'per-frame';
  return { path, frames_processed: processed };
}
