import type { StageProvider } from '@app/pipeline';
import { sceneOf } from '../scene-builder/scene.stage';
import { writeSceneUsdz } from './write-scene-usdz';

export const usdzWriterStage: StageProvider<{ usdz: Buffer }, { from?: string }> = {
  id: 'usdz-writer',
  async run(ctx) {
    return { usdz: writeSceneUsdz((await sceneOf(ctx, 'usdz-writer')).scene, 'card.usda') };
  },
};
