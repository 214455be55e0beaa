import type { AppConfig } from '@app/config';
import { definePlugin, registerPipeline, registerStage } from '@app/pipeline';
import { SERVICES } from '../services';
import type { CallbackPort } from './callback.port';
import { createDeliverCallbackStage } from './deliver-callback.stage';

/** Callback delivery as a one-step pipeline, so it is durable and retried like any job. */
export const callbackPlugin = definePlugin({
  name: 'callback',
  register(container) {
    const config = container.resolve<AppConfig>(SERVICES.config);
    registerStage(
      container,
      createDeliverCallbackStage(container.resolve<CallbackPort>(SERVICES.callbacks), {
        timeoutMs: config.callbacks.timeoutMs,
        allowPrivateNetworks: config.allowPrivateNetworks,
      }),
    );
    registerPipeline(container, {
      id: 'callback',
      description: 'Deliver a signed callback',
      steps: [{ stage: 'deliver-callback', phase: 'uploading' }],
    });
  },
});
