import { definePlugin, registerStage } from '@app/pipeline';
import { sceneStage } from './scene.stage';

export const scenePlugin = definePlugin({
  name: 'scene',
  register: (container) => registerStage(container, sceneStage),
});
