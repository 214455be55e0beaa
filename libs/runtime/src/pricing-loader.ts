import {
  type BillableOperation,
  checkedPricing,
  createDefaultPricing,
  defaultPricing,
  freePricing,
  type PricingPolicy,
} from '@app/billing';
import type { AppConfig } from '@app/config';

/**
 * The pricing policy named by configuration: `default` (the prices in docs/api.md, Prices; overridable by options), `free`,
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
  return checkedPricing(withLaterKinds(candidate));
}

/** Billable kinds added after the pricing contract was first published (policies written before may not know them). */
export const LATER_BILLABLE_KINDS: readonly BillableOperation['kind'][] = ['showcase.wall'];

/**
 * A custom policy written before a kind existed throws for it ("no price for …"): for those later kinds
 * only, such a refusal falls back to the default table's price (a gallery wall: 1 credit), so upgrading
 * the service never stops a deployment's billing. A policy that prices the kind is used as it is.
 */
export function withLaterKinds(policy: PricingPolicy): PricingPolicy {
  return {
    name: policy.name,
    quote(op) {
      if (!LATER_BILLABLE_KINDS.includes(op.kind)) return policy.quote(op);
      try {
        return policy.quote(op);
      } catch {
        return defaultPricing.quote(op);
      }
    },
  };
}
