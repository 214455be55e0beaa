import type { MetricsPort } from '@app/pipeline';
import type { BackgroundRemoverPort } from './background-remover-pool';

/**
 * Times every cut-out into `background_removal_frame_seconds`. With a worker pool the time includes the
 * wait for a free worker: what a frame costs the job, which is what an operator sizes the pool by.
 */
export function timedRemover(remover: BackgroundRemoverPort, metrics: MetricsPort): BackgroundRemoverPort {
  return {
    async cutOut(rgba, width, height) {
      const started = performance.now();
      const out = await remover.cutOut(rgba, width, height);
      metrics.backgroundRemovalFrame((performance.now() - started) / 1000);
      return out;
    },
    async mask(rgba, width, height) {
      const started = performance.now();
      const out = await remover.mask(rgba, width, height);
      metrics.backgroundRemovalFrame((performance.now() - started) / 1000);
      return out;
    },
    close: () => remover.close(),
  };
}
