import type { AppConfig } from '@app/config';
import { definePlugin, registerPipeline, registerStage, type PipelineDefinition } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { BackgroundRemover } from '../background-removal';
import { MotionCatalog, registerMotionProvider } from '../motion/motion-provider.port';
import { proceduralMotionProvider } from '../motion/procedural/procedural-motion.adapter';
import { SERVICES } from '../services';
import { createAnimatedSourceStage } from './animated-source.stage';
import { createBackgroundRemovalStage } from './background-removal.stage';
import { flipbookWriterStage } from './flipbook-writer.stage';
import { createFramesStage } from './frames.stage';
import { createMotionStage } from './motion.stage';
import { createPublishAnimatedStage } from './publish-animated.stage';

/** Image, animated image or video by https URL -> looping flipbook GLB + USDZ + poster. */
export const ANIMATED_AR_PIPELINE: PipelineDefinition = {
  id: 'animated-ar',
  description: 'Animated AR: source frames (animated image, video, or a still animated by a motion model), optional background removal, flipbook GLB + USDZ',
  steps: [
    { stage: 'animated-source', phase: 'downloading', weight: 2 },
    { stage: 'frames', phase: 'converting', weight: 2 },
    { stage: 'motion', phase: 'converting', weight: 4 },
    { stage: 'background-removal', phase: 'converting', weight: 4 },
    { stage: 'flipbook-writer', phase: 'converting', weight: 2 },
    { stage: 'publish-animated', phase: 'uploading', weight: 1 },
  ],
};

/** Resolves the motion catalog on first use, so providers registered by later plugins are included. */
export const MOTION_CATALOG = 'motion.catalog';

export const animatedArPlugin = definePlugin({
  name: 'animated-ar',
  register(container) {
    const config = container.resolve<AppConfig>(SERVICES.config);
    const storage = container.resolve<StoragePort>(SERVICES.storage);
    let remover: BackgroundRemover | undefined;
    const getRemover = () => (remover ??= new BackgroundRemover({ inferShortSide: config.animated.bgRemovalInferPx, threads: config.animated.bgRemovalThreads }));
    let catalog: MotionCatalog | undefined;
    const getCatalog = () => (catalog ??= MotionCatalog.fromContainer(container, config.animated.motionDefaultModel));
    container.register(MOTION_CATALOG, { useFactory: () => getCatalog() });
    registerMotionProvider(container, proceduralMotionProvider);
    registerStage(container, createAnimatedSourceStage(config));
    registerStage(container, createFramesStage(config));
    registerStage(container, createMotionStage({ config, storage, catalog: getCatalog, remover: getRemover }));
    registerStage(container, createBackgroundRemovalStage(getRemover));
    registerStage(container, flipbookWriterStage);
    registerStage(container, createPublishAnimatedStage(storage));
    registerPipeline(container, ANIMATED_AR_PIPELINE);
  },
});
