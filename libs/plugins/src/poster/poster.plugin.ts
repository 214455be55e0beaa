import { definePlugin, registerStage } from '@app/pipeline';
import { posterStage } from './poster.stage';

export const posterPlugin = definePlugin({
  name: 'poster',
  register: (container) => registerStage(container, posterStage),
});
