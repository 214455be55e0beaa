import type { AppConfig } from '@app/config';
import { definePlugin, registerStage } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { SERVICES } from '../services';
import { createFetchStage } from './fetch.stage';

export const fetchPlugin = definePlugin({
  name: 'fetch',
  register(container) {
    registerStage(
      container,
      createFetchStage(container.resolve<AppConfig>(SERVICES.config), container.resolve<StoragePort>(SERVICES.storage)),
    );
  },
});
