import { definePlugin, registerPipeline, type PipelineDefinition } from '@app/pipeline';

/** Still image by URL -> GLB + USDZ + poster. */
export const STILL_IMAGE_PIPELINE: PipelineDefinition = {
  id: 'still-image',
  description: 'Still image by URL into a GLB and a USDZ picture card, plus a poster (rendered by normalise)',
  steps: [
    { stage: 'fetch', phase: 'downloading', weight: 2 },
    { stage: 'normalise', phase: 'converting', weight: 3 },
    { stage: 'scene', phase: 'converting', weight: 1 },
    { stage: 'glb-writer', phase: 'converting', weight: 1 },
    { stage: 'usdz-writer', phase: 'converting', weight: 1 },
    { stage: 'publish', phase: 'uploading', weight: 1 },
  ],
};

export const stillImagePlugin = definePlugin({
  name: 'still-image',
  register: (container) => registerPipeline(container, STILL_IMAGE_PIPELINE),
});
