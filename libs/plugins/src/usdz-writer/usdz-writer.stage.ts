import type { StageProvider } from '@app/pipeline';
import { checkFileBudget, sceneOf } from '../scene-builder/scene.stage';
import { writeSceneUsdz } from './write-scene-usdz';

export const usdzWriterStage: StageProvider<{ usdz: Buffer }, { from?: string }> = {
  id: 'usdz-writer',
  async run(ctx) {
    return { usdz: checkFileBudget('usdz-writer', writeSceneUsdz((await sceneOf(ctx, 'usdz-writer')).scene, 'card.usda')) };
  },
};
