import type { AppConfig, HostedMotionProviderId, HostedProviderConfig } from '@app/config';
import { definePlugin } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import { registerMotionProvider } from '../motion-provider.port';
import { SERVICES } from '../../services';
import { falApi, FAL_DEFAULT_MODELS } from './fal.adapter';
import { createHostedMotionProvider, type HostedApi, type HostedModel, hostedModels } from './hosted-motion.adapter';
import { lumaApi, LUMA_DEFAULT_MODELS } from './luma.adapter';
import { replicateApi, REPLICATE_DEFAULT_MODELS } from './replicate.adapter';
import { runwayApi, RUNWAY_DEFAULT_MODELS } from './runway.adapter';
import { veoApi, VEO_DEFAULT_MODELS } from './veo.adapter';

interface HostedAdapter {
  api(config: HostedProviderConfig, app: AppConfig): HostedApi;
  defaults: readonly Omit<HostedModel, 'input'>[];
}

const ADAPTERS: Record<HostedMotionProviderId, HostedAdapter> = {
  replicate: { api: (c) => replicateApi(c), defaults: REPLICATE_DEFAULT_MODELS },
  runway: { api: (c, app) => runwayApi(c, app.motion.runwayApiVersion), defaults: RUNWAY_DEFAULT_MODELS },
  luma: { api: (c) => lumaApi(c), defaults: LUMA_DEFAULT_MODELS },
  fal: { api: (c) => falApi(c), defaults: FAL_DEFAULT_MODELS },
  veo: { api: (c) => veoApi(c), defaults: VEO_DEFAULT_MODELS },
};

/** A hosted provider as operators see it (options endpoint, startup log). */
export interface HostedProviderStatus {
  id: HostedMotionProviderId;
  enabled: boolean;
  /** Why it is off, e.g. `RUNWAYML_API_SECRET is not set`. */
  reason?: string;
  models: string[];
}

/** Which hosted providers are on: a provider is on when its key is set (config checks listed models). */
export function hostedProviderStatus(config: Pick<AppConfig, 'motion'>): HostedProviderStatus[] {
  return Object.values(config.motion.providers).map((p) => {
    const models = (p.models ?? ADAPTERS[p.id].defaults).map((m) => m.id);
    return p.apiKey ? { id: p.id, enabled: true, models } : { id: p.id, enabled: false, reason: `${p.keyEnv} is not set`, models: [] };
  });
}

/**
 * Registers one motion provider per hosted API whose key is configured: Replicate, Runway, Luma, fal
 * and Google Veo (docs/providers.md). Models come from CONFIG_FILE `motion.models`, else the adapter's
 * defaults.
 */
export const hostedMotionPlugin = definePlugin({
  name: 'hosted-motion',
  register(container) {
    const config = container.resolve<AppConfig>(SERVICES.config);
    const storage = container.resolve<StoragePort>(SERVICES.storage);
    for (const p of Object.values(config.motion.providers)) {
      if (!p.apiKey) continue;
      const adapter = ADAPTERS[p.id];
      const api = adapter.api(p, config);
      registerMotionProvider(
        container,
        createHostedMotionProvider(api, hostedModels(p.models, adapter.defaults, api.label), {
          storage,
          pollIntervalMs: config.motion.pollIntervalMs,
          requestTimeoutMs: config.motion.requestTimeoutMs,
          maxVideoBytes: config.animated.videoMaxBytes,
          allowPrivateNetworks: config.allowPrivateNetworks,
        }),
      );
    }
  },
});
