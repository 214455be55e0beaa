import { OperationalError, type StageProvider } from '@app/pipeline';
import { type BackgroundRemoverPort, cutOutSequence } from '../background-removal';
import { classifyAlpha, type FrameSequence } from '../frames/frame-sequence';
import { inputOf } from '../job-inputs/job-input-fields';
import type { AnimatedArJobInput } from '../job-inputs/animated-ar-job-input';
import type { MotionStageOutput } from './motion.stage';

export interface BackgroundRemovalOutput {
  sequence: FrameSequence;
  /** Background removed, here or before the motion. */
  removed: boolean;
  /** Frames the model ran on: 1 when the still was cut out once before the motion, else the keyframes. */
  framesProcessed?: number;
}

/**
 * remove_background: cuts the subject out of every frame, running the model on keyframes at most
 * `keyframeGap` frames apart and moving their masks with the measured motion in between (see
 * background-removal/cut-out-sequence.ts; 1 = the model on every frame). Skipped when the request did not
 * ask, or when the still was already cut out before a motion model that keeps transparency.
 */
export function createBackgroundRemovalStage(
  remover: () => BackgroundRemoverPort,
  keyframeGap = 6,
): StageProvider<BackgroundRemovalOutput> {
  return {
    id: 'background-removal',
    async run(ctx) {
      const motion = ctx.outputs.motion as MotionStageOutput;
      if (!inputOf<AnimatedArJobInput>(ctx.job).remove_background || motion.backgroundRemoved) {
        return { sequence: motion.sequence, removed: motion.backgroundRemoved, framesProcessed: motion.backgroundRemoved ? 1 : 0 };
      }
      const { width, height, frames } = motion.sequence;
      const cut = await cutOutSequence(
        frames.map((f) => f.rgba),
        width,
        height,
        remover(),
        { keyframeGap, signal: ctx.signal, onProgress: (f) => ctx.progress(f) },
      ).catch((e: unknown) => {
        throw ctx.signal.aborted ? new OperationalError('aborted', 'background-removal: interrupted') : e;
      });
      const out = cut.frames.map((rgba, i) => ({ rgba, duration: frames[i].duration }));
      return { sequence: { width, height, frames: out, alpha: classifyAlpha(out) }, removed: true, framesProcessed: cut.keyframes };
    },
  };
}
