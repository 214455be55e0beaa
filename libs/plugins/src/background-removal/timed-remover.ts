import type { MetricsPort } from '@app/pipeline';
import type { BackgroundRemoverPort } from './background-remover-pool';

/**
 * Times every model run (a cut-out or a keyframe's mask) into `background_removal_frame_seconds`. With a
 * worker pool the time includes the wait for a free worker: what a run costs the job, which is what an
 * operator sizes the pool by.
 */
export function timedRemover(remover: BackgroundRemoverPort, metrics: MetricsPort): BackgroundRemoverPort {
  const timed = async (run: () => Promise<Buffer>): Promise<Buffer> => {
    const started = performance.now();
    const out = await run();
    metrics.backgroundRemovalFrame((performance.now() - started) / 1000);
    return out;
  };
  return {
    cutOut: (rgba, width, height) => timed(() => remover.cutOut(rgba, width, height)),
    mask: (rgba, width, height) => timed(() => remover.mask(rgba, width, height)),
    // Not timed: no frame is cut out.
    warm: remover.warm && ((width, height) => remover.warm!(width, height)),
    close: () => remover.close(),
  };
}
