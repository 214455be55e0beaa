import { describePricingPolicyContract } from '@image-ar/plugin-sdk/testing';
import { loadPricingPolicy } from './pricing-loader';

/**
 * The built-in pricing policies, built the way CONFIG_FILE `pricing` / PRICING_POLICY builds them, pass
 * the pricing contract kit of @image-ar/plugin-sdk (the one custom policies run).
 */
const builtIn = (policy: string) => (options: Record<string, unknown>) => loadPricingPolicy({ pricing: { policy, options } });
const videoModels = ['procedural', 'runway:gen4_turbo', 'veo:veo-3.0-fast-generate-001', 'tilt:gentle'];

describePricingPolicyContract(builtIn('default'), {
  name: 'default (the docs/api.md Prices table)',
  videoModels,
  invalidOptions: [
    { picture: -1 },
    { bake: 1.001 },
    { ai_motion: 'twelve' },
    { model_surcharges: { 'runway:gen4_turbo': -5 } },
    { showcase: Number.NaN },
    { background_removal: Infinity },
  ],
});

describePricingPolicyContract(builtIn('default'), {
  name: 'default with operator prices and per-model surcharges',
  options: {
    showcase: 4,
    picture: 1.25,
    bake: 0.5,
    ai_motion: 10,
    background_removal: 0,
    model_surcharges: { 'runway:gen4_turbo': 5, 'veo:veo-3.0-fast-generate-001': 7.5 },
  },
  videoModels,
});

describePricingPolicyContract(builtIn('free'), { name: 'free', videoModels, invalidOptions: [{ bake: 1 }] });
