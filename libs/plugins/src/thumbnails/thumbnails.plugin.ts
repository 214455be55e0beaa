import { definePlugin, registerPipeline, registerStage, type PipelineDefinition } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { SERVICES } from '../services';
import { STILL_IMAGE_PIPELINE } from '../still-image/still-image.plugin';
import { createThumbnailsStage } from './thumbnails.stage';

/**
 * A showcase picture: the still-image conversion with the item's variants (other sizes and frames, when the
 * input lists any) and the pages' thumbnails built before publish, from the same texture and poster pixels:
 * every CPU step of the job runs in one CPU slot, and publish (I/O) is last. The job's result is the publish
 * step's, the same as a still image's (plus `variants` when the input has the key); the thumbnails sit next to
 * the poster under `models/<job id>/`.
 */
export const SHOWCASE_PICTURE_PIPELINE: PipelineDefinition = {
  id: 'showcase-picture',
  description:
    'A showcase picture: the still-image conversion, its variants, AVIF/WebP thumbnails and a sharing JPEG of the poster, then publish',
  steps: STILL_IMAGE_PIPELINE.steps.flatMap((s) =>
    s.stage === 'publish'
      ? [
          { stage: 'variants', phase: 'converting' as const, weight: 1 },
          { stage: 'thumbnails', phase: 'converting' as const, weight: 1 },
          s,
        ]
      : [s],
  ),
  resultFrom: 'publish',
};

export const thumbnailsPlugin = definePlugin({
  name: 'thumbnails',
  register: (container) => {
    registerStage(container, createThumbnailsStage(container.resolve<StoragePort>(SERVICES.storage)));
    registerPipeline(container, SHOWCASE_PICTURE_PIPELINE);
  },
});
