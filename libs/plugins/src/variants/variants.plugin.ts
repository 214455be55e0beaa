import { definePlugin, registerPipeline, registerStage, type PipelineDefinition } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { SERVICES } from '../services';
import { createVariantsStage } from './variants.stage';

/**
 * Rebuilds some variants of an existing showcase item from its stored texture: the input names the item's
 * GLB (`upload_key: 'models/<job>/model.glb'`, whose texture fetch reads back) and the `variants` to build.
 * The texture is the whole picture (an item with variants is never cropped), so its size is the source's.
 * Result: `{ variants: VariantBuild[], texture }`.
 */
export const SHOWCASE_VARIANTS_PIPELINE: PipelineDefinition = {
  id: 'showcase-variants',
  description: "Some variants (sizes, frames) of a showcase item rebuilt from the texture in the item's stored GLB",
  steps: [
    { stage: 'fetch', phase: 'downloading', weight: 1 },
    { stage: 'normalise', phase: 'converting', weight: 2 },
    { stage: 'variants', phase: 'converting', weight: 4 },
  ],
  resultFrom: 'variants',
};

export const variantsPlugin = definePlugin({
  name: 'variants',
  register: (container) => {
    registerStage(container, createVariantsStage(container.resolve<StoragePort>(SERVICES.storage)));
    registerPipeline(container, SHOWCASE_VARIANTS_PIPELINE);
  },
});
