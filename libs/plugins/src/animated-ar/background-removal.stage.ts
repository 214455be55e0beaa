import { OperationalError, type StageProvider } from '@app/pipeline';
import type { BackgroundRemoverPort } from '../background-removal';
import { classifyAlpha, type FrameSequence } from '../frames/frame-sequence';
import { animatedInput } from './animated-ar-input';
import type { MotionStageOutput } from './motion.stage';

export interface BackgroundRemovalOutput {
  sequence: FrameSequence;
  /** Background removed, here or before the motion. */
  removed: boolean;
  /** Frames the remover ran on: 1 when the still was cut out once before the motion, else one per frame. */
  framesProcessed?: number;
}

/**
 * remove_background: cuts the subject out of every frame (one ONNX session reused; see
 * background-removal/). Skipped when the request did not ask, or when the still was already cut out
 * before a motion model that keeps transparency.
 */
export function createBackgroundRemovalStage(remover: () => BackgroundRemoverPort): StageProvider<BackgroundRemovalOutput> {
  return {
    id: 'background-removal',
    async run(ctx) {
      const motion = ctx.outputs.motion as MotionStageOutput;
      if (!animatedInput(ctx.job.input).remove_background || motion.backgroundRemoved) {
        return { sequence: motion.sequence, removed: motion.backgroundRemoved, framesProcessed: motion.backgroundRemoved ? 1 : 0 };
      }
      const { width, height, frames } = motion.sequence;
      const r = remover();
      const out = [];
      for (let i = 0; i < frames.length; i++) {
        if (ctx.signal.aborted) throw new OperationalError('aborted', 'background-removal: interrupted');
        out.push({ rgba: await r.cutOut(frames[i].rgba, width, height), duration: frames[i].duration });
        ctx.progress((i + 1) / frames.length);
      }
      return { sequence: { width, height, frames: out, alpha: classifyAlpha(out) }, removed: true, framesProcessed: frames.length };
    },
  };
}
