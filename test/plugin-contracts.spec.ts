import { join } from 'node:path';
import type { Plugin } from '@image-ar/plugin-sdk';
import {
  createMemoryStorage,
  describeMotionProviderContract,
  describePricingPolicyContract,
  describeStorageContract,
  motionProvidersFromPlugin,
} from '@image-ar/plugin-sdk/testing';
import { loadPricingPolicy } from '../libs/runtime/src/pricing-loader';

/**
 * The example plugins under examples/ (plain CommonJS packages, loaded by path like CONFIG_FILE loads them)
 * pass the contract kits of @image-ar/plugin-sdk, exactly as their authors would run them. The storage
 * example runs the storage kit in libs/storage/src/storage.contract.spec.ts (it needs a WebDAV server), with
 * the built-in backends; the built-in motion model and pricing policies run the kits next to their code.
 */
const EXAMPLES = join(__dirname, '../examples');

// examples/motion-tilt: a plugin module ({ name, defaults, register }) registering a motion provider.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tilt = require(join(EXAMPLES, 'motion-tilt')) as Plugin<object>;
describeMotionProviderContract(async () => (await motionProvidersFromPlugin(tilt, { degrees: 5, displayName: 'Gentle tilt' }))[0], {
  name: 'examples/motion-tilt',
  plugin: tilt,
  invalidPluginOptions: [{ degrees: 0 }, { degrees: 20 }, { modelId: 'gentle' }],
});

// examples/pricing-model-tiers: createPricingPolicy(options), loaded the way CONFIG_FILE pricing.policy loads it.
const modelTiers = (options: Record<string, unknown>) =>
  loadPricingPolicy({ pricing: { policy: join(EXAMPLES, 'pricing-model-tiers'), options } });
describePricingPolicyContract(modelTiers, {
  name: 'examples/pricing-model-tiers (defaults)',
  videoModels: ['procedural', 'tilt:gentle', 'veo:3'],
});
describePricingPolicyContract(modelTiers, {
  name: 'examples/pricing-model-tiers (per-model prices)',
  options: { ai_motion: { default: 12.5, 'tilt:*': 3, procedural: 4, 'runway:gen4_turbo': 20 }, background_removal: 2 },
  videoModels: ['procedural', 'tilt:gentle', 'runway:gen4_turbo', 'runway:gen3', 'veo:3'],
  invalidOptions: [{ ai_motion: { default: -1 } }, { bake: 1.001 }, { picture: 'two' }, { ai_motion: { 'veo:*': Number.NaN } }],
});

// The SDK's own in-memory backend (the storage the motion kit hands a model) keeps the storage contract too.
describeStorageContract(() => createMemoryStorage('https://ar.example.com'), {
  name: '@image-ar/plugin-sdk memory storage',
  url: (key) => `https://ar.example.com/files/${key}`,
});
