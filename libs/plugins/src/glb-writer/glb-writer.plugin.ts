import { definePlugin, registerStage } from '@app/pipeline';
import { glbWriterStage } from './glb-writer.stage';

export const glbWriterPlugin = definePlugin({
  name: 'glb-writer',
  register: (container) => registerStage(container, glbWriterStage),
});
