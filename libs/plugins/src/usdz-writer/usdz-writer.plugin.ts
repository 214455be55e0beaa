import { definePlugin, registerStage } from '@app/pipeline';
import { usdzWriterStage } from './usdz-writer.stage';

export const usdzWriterPlugin = definePlugin({
  name: 'usdz-writer',
  register: (container) => registerStage(container, usdzWriterStage),
});
