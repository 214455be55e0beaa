import type { AppConfig } from '@app/config';
import { definePlugin, registerPipeline, registerStage, resolveMetrics, type PipelineDefinition } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { BackgroundRemover, BackgroundRemoverPool, type BackgroundRemoverPort, timedRemover } from '../background-removal';
import { MotionCatalog, registerMotionProvider } from '../motion/motion-provider.port';
import { proceduralMotionProvider } from '../motion/procedural/procedural-motion.adapter';
import { onShutdown, SERVICES } from '../services';
import { createAnimatedSourceStage } from './animated-source.stage';
import { createBackgroundRemovalStage } from './background-removal.stage';
import { createFlipbookWriterStage } from './flipbook-writer.stage';
import { createFramesStage, frameLimits } from './frames.stage';
import { createMotionStage } from './motion.stage';
import { createPublishAnimatedStage } from './publish-animated.stage';

/** Image, animated image or video by https URL -> looping flipbook GLB + USDZ + poster. */
export const ANIMATED_AR_PIPELINE: PipelineDefinition = {
  id: 'animated-ar',
  description:
    'Animated AR: source frames (animated image, video, or a still animated by a motion model), optional background removal, flipbook GLB + USDZ',
  steps: [
    { stage: 'animated-source', phase: 'downloading', weight: 2 },
    { stage: 'frames', phase: 'converting', weight: 2 },
    { stage: 'motion', phase: 'converting', weight: 4 },
    { stage: 'background-removal', phase: 'converting', weight: 4 },
    { stage: 'flipbook-writer', phase: 'converting', weight: 2 },
    { stage: 'publish-animated', phase: 'uploading', weight: 1 },
  ],
};

function createRemover(config: AppConfig): BackgroundRemoverPort {
  const a = config.animated;
  const opts = { inferShortSide: a.bgRemovalInferPx, threads: a.bgRemovalThreads };
  return a.bgRemovalWorkers > 0 ? new BackgroundRemoverPool({ ...opts, workers: a.bgRemovalWorkers }) : new BackgroundRemover(opts);
}

/** Resolves the motion catalog on first use, so providers registered by later plugins are included. */
export const MOTION_CATALOG = 'motion.catalog';

export const animatedArPlugin = definePlugin({
  name: 'animated-ar',
  register(container) {
    const config = container.resolve<AppConfig>(SERVICES.config);
    const storage = container.resolve<StoragePort>(SERVICES.storage);
    let remover: BackgroundRemoverPort | undefined;
    // Created on the first cut-out: BG_REMOVAL_WORKERS worker processes, or inline on the event loop (0).
    const metrics = resolveMetrics(container);
    const getRemover = () => (remover ??= timedRemover(createRemover(config), metrics));
    onShutdown(container, async () => remover?.close());
    let catalog: MotionCatalog | undefined;
    const getCatalog = () => (catalog ??= MotionCatalog.fromContainer(container, config.animated.motionDefaultModel));
    container.register(MOTION_CATALOG, { useFactory: () => getCatalog() });
    registerMotionProvider(container, proceduralMotionProvider);
    // A failed warm-up is not the job's failure: the first frame creates the session again and reports it.
    const warmRemover = () =>
      void getRemover()
        .warm?.()
        .catch(() => undefined);
    registerStage(container, createAnimatedSourceStage(config, {}, warmRemover));
    registerStage(container, createFramesStage(config));
    registerStage(container, createMotionStage({ config, storage, catalog: getCatalog, remover: getRemover, metrics }));
    registerStage(container, createBackgroundRemovalStage(getRemover, config.animated.bgRemovalKeyframeGap));
    registerStage(container, createFlipbookWriterStage(frameLimits(config)));
    registerStage(container, createPublishAnimatedStage(storage));
    registerPipeline(container, ANIMATED_AR_PIPELINE);
  },
});
