import { definePlugin, registerStage } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { SERVICES } from '../services';
import { createPublishStage } from './publish.stage';

export const publishPlugin = definePlugin({
  name: 'publish',
  register: (container) => registerStage(container, createPublishStage(container.resolve<StoragePort>(SERVICES.storage))),
});
