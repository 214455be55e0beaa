import type { AppConfig } from '@app/config';
import { definePlugin, registerStage } from '@app/pipeline';
import { SERVICES } from '../services';
import { createNormaliseStage } from './normalise.stage';

export const normalisePlugin = definePlugin({
  name: 'normalise',
  register(container) {
    registerStage(container, createNormaliseStage(container.resolve<AppConfig>(SERVICES.config)));
  },
});
