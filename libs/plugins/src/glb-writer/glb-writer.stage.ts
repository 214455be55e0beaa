import type { StageProvider } from '@app/pipeline';
import type { Dimensions } from '../dimensions/dimensions';
import { checkFileBudget, type SceneOutput, sceneOf } from '../scene-builder/scene.stage';
import { writeSceneGlb } from './write-scene-glb';

export interface GlbOutput {
  glb: Buffer;
  dimensions: Dimensions;
  /** The scene the GLB was written from (publish reads the presentation and poster from it). */
  model: SceneOutput;
}

export const glbWriterStage: StageProvider<GlbOutput, { from?: string }> = {
  id: 'glb-writer',
  async run(ctx) {
    const model = await sceneOf(ctx, 'glb-writer');
    return { glb: checkFileBudget('glb-writer', await writeSceneGlb(model.scene)), dimensions: model.dimensions, model };
  },
};
