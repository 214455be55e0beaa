import { checkedPricing, createDefaultPricing, freePricing, type PricingPolicy } from '@app/billing';
import type { AppConfig } from '@app/config';

/**
 * The pricing policy named by configuration: `default` (spec §8, prices overridable by options), `free`,
 * or a module path / package name exporting `createPricingPolicy(options)`, a `pricingPolicy`, or a
 * policy as `default`. Fails startup with a clear message when the module is missing or malformed.
 */
export function loadPricingPolicy(config: Pick<AppConfig, 'pricing'>): PricingPolicy {
  // Once per configuration: the entry points load it before booting (to fail fast), the core module again.
  let loaded = LOADED.get(config.pricing);
  if (!loaded) {
    loaded = load(config.pricing);
    LOADED.set(config.pricing, loaded);
  }
  return loaded;
}

const LOADED = new WeakMap<AppConfig['pricing'], PricingPolicy>();

function load({ policy, options }: AppConfig['pricing']): PricingPolicy {
  if (policy === 'default') return createDefaultPricing(options);
  if (policy === 'free') {
    if (Object.keys(options).length) throw new Error('pricing: the free policy takes no options');
    return freePricing;
  }
  let mod: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    mod = require(policy) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`pricing: cannot load policy module "${policy}": ${(err as Error).message}`, { cause: err });
  }
  const factory = mod.createPricingPolicy;
  const candidate = (typeof factory === 'function' ? factory(options) : (mod.pricingPolicy ?? mod.default ?? mod)) as PricingPolicy;
  if (!candidate || typeof candidate.name !== 'string' || typeof candidate.quote !== 'function') {
    throw new Error(`pricing: "${policy}" does not export createPricingPolicy(options) or a policy { name, quote(op) }`);
  }
  return checkedPricing(candidate);
}
