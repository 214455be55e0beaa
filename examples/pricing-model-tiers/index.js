'use strict';
/**
 * Example pricing policy: each video model has its own AI motion price — by exact id
 * ("runway:gen4_turbo") or by provider ("veo:*") — instead of one flat price plus surcharges.
 * Loaded purely by configuration:
 *
 *   CONFIG_FILE: { "pricing": { "policy": "/path/to/examples/pricing-model-tiers",
 *                               "options": { "ai_motion": { "default": 12.5, "veo:*": 30, "procedural": 4 } } } }
 *
 * The contract (docs/plugins.md): export `createPricingPolicy(options)` returning
 * { name, quote(operation) -> { lines: [{ item, cents }], totalCents } }, amounts in integer hundredths
 * of a credit. Keep the spec's line names: the service refunds the `ai_motion` and `model_surcharge`
 * lines when a source turns out to be animated already, and every line when a job fails.
 */

const DEFAULTS = { showcase: 5, picture: 2, bake: 1, background_removal: 1.5, ai_motion: { default: 12.5 } };

function cents(name, credits) {
  if (typeof credits !== 'number' || !Number.isFinite(credits) || credits < 0)
    throw new Error(`model-tiers: ${name} must be a number of credits, 0 or more`);
  const c = Math.round(credits * 100);
  if (Math.abs(c - credits * 100) > 1e-6) throw new Error(`model-tiers: ${name} must have at most two decimals`);
  return c;
}

function createPricingPolicy(options = {}) {
  const known = Object.keys(DEFAULTS);
  const unknown = Object.keys(options).find((k) => !known.includes(k));
  if (unknown) throw new Error(`model-tiers: unknown option "${unknown}" (known: ${known.join(', ')})`);
  const o = { ...DEFAULTS, ...options, ai_motion: { ...DEFAULTS.ai_motion, ...options.ai_motion } };
  const flat = Object.fromEntries(['showcase', 'picture', 'bake', 'background_removal'].map((k) => [k, cents(k, o[k])]));
  const exact = new Map();
  const byProvider = new Map();
  for (const [model, credits] of Object.entries(o.ai_motion)) {
    const c = cents(`ai_motion.${model}`, credits);
    if (model.endsWith(':*')) byProvider.set(model.slice(0, -2), c);
    else exact.set(model, c);
  }
  /** Exact id, then the provider wildcard, then the default. */
  const aiPrice = (model) => {
    if (model && exact.has(model)) return exact.get(model);
    const provider = model && model.includes(':') ? model.slice(0, model.indexOf(':')) : undefined;
    if (provider && byProvider.has(provider)) return byProvider.get(provider);
    return exact.get('default');
  };
  const quote = (lines) => ({ lines, totalCents: lines.reduce((s, l) => s + l.cents, 0) });
  return {
    name: 'model-tiers',
    quote(op) {
      switch (op.kind) {
        case 'showcase.create':
          return quote([{ item: 'showcase', cents: flat.showcase }]);
        case 'showcase.picture':
          return quote([{ item: 'picture', cents: flat.picture * op.count }]);
        case 'animated-ar': {
          const lines = [{ item: 'bake', cents: flat.bake }];
          if (op.source !== 'video') lines.push({ item: 'ai_motion', cents: aiPrice(op.videoModel) });
          if (op.removeBackground) lines.push({ item: 'background_removal', cents: flat.background_removal });
          return quote(lines);
        }
        default:
          throw new Error(`model-tiers: no price for "${op.kind}"`);
      }
    },
  };
}

module.exports = { createPricingPolicy };
