import { definePlugin, registerPipeline, registerStage, type PipelineDefinition } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { SERVICES } from '../services';
import { createGalleryWallStage } from './gallery-wall.stage';

/**
 * A saved gallery wall: 2-12 showcase pictures, each read from its stored model's texture, built into one
 * wall-anchored GLB + USDZ + poster (docs/gallery-walls.md). The input is `{ showcase_id, wall }`
 * ({@link WallJobInput}); the result has a still image's shape plus `wall`.
 */
export const GALLERY_WALL_PIPELINE: PipelineDefinition = {
  id: 'gallery-wall',
  description: "Several showcase pictures hung together: one GLB and USDZ with each picture's own size, frame and place",
  steps: [{ stage: 'gallery-wall', phase: 'converting', weight: 1 }],
};

export const galleryWallPlugin = definePlugin({
  name: 'gallery-wall',
  register: (container) => {
    registerStage(container, createGalleryWallStage(container.resolve<StoragePort>(SERVICES.storage)));
    registerPipeline(container, GALLERY_WALL_PIPELINE);
  },
});
