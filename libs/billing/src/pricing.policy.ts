import type { PriceLine, PricingPolicy, Quote } from '@image-ar/plugin-sdk';

/**
 * The pricing contract (`PricingPolicy`, `BillableOperation`, `Quote`, `PriceLine`) is defined once, in
 * `@image-ar/plugin-sdk`: policy authors compile against it and run its `describePricingPolicyContract`.
 * Pluggable pricing is chosen by configuration: `default`, `free`, or a module path (see pricing-loader).
 */
export type { BillableOperation, PriceLine, PricingPolicy, Quote } from '@image-ar/plugin-sdk';

/** Builds a quote from its lines. */
export const quoteOf = (lines: PriceLine[]): Quote => ({ lines, totalCents: lines.reduce((s, l) => s + l.cents, 0) });

/** Prices of the default policy, in credits. Defaults are the table in docs/api.md, Prices. */
export interface DefaultPricingOptions {
  showcase?: number;
  picture?: number;
  /** A saved gallery wall (default 1). */
  wall?: number;
  bake?: number;
  ai_motion?: number;
  background_removal?: number;
  /** Extra credits per animated AR job by video_model id, e.g. `{"runway:gen4_turbo": 5}`. */
  model_surcharges?: Record<string, number>;
}

const PRICE_KEYS = ['showcase', 'picture', 'wall', 'bake', 'ai_motion', 'background_removal', 'model_surcharges'] as const;

/** Credits (at most two decimals, >= 0) to integer hundredths; throws naming the option otherwise. */
export function creditsToCents(name: string, credits: unknown): number {
  if (typeof credits !== 'number' || !Number.isFinite(credits) || credits < 0) {
    throw new Error(`pricing: ${name} must be a number of credits, 0 or more`);
  }
  const cents = exactCents(credits);
  if (cents === null) throw new Error(`pricing: ${name} must have at most two decimals`);
  return cents;
}

/** Credits to integer hundredths, or null when the amount has more than two decimals. */
export function exactCents(credits: number): number | null {
  const cents = Math.round(credits * 100);
  return Math.abs(cents - credits * 100) > 1e-6 ? null : cents;
}

/**
 * The table in docs/api.md (Prices): showcase 5.0, picture 2.0, gallery wall 1.0 (docs/gallery-walls.md), animated
 * AR = bake 1.0 + AI motion 12.5 (image sources) + background removal 1.5, plus an optional per-model surcharge.
 * An already-animated image is quoted like an image source: the AI part is charged up front and refunded when the
 * source turns out animated.
 */
export function createDefaultPricing(options: DefaultPricingOptions = {}): PricingPolicy {
  const unknown = Object.keys(options).find((k) => !(PRICE_KEYS as readonly string[]).includes(k));
  if (unknown) throw new Error(`pricing: unknown option "${unknown}" for the default policy (known: ${PRICE_KEYS.join(', ')})`);
  const c = (key: Exclude<keyof DefaultPricingOptions, 'model_surcharges'>, fallback: number) =>
    creditsToCents(key, options[key] ?? fallback);
  const prices = {
    showcase: c('showcase', 5),
    picture: c('picture', 2),
    wall: c('wall', 1),
    bake: c('bake', 1),
    aiMotion: c('ai_motion', 12.5),
    backgroundRemoval: c('background_removal', 1.5),
  };
  const surcharges = new Map(
    Object.entries(options.model_surcharges ?? {}).map(([model, v]) => [model, creditsToCents(`model_surcharges.${model}`, v)]),
  );
  return {
    name: 'default',
    quote(op) {
      switch (op.kind) {
        case 'showcase.create':
          return quoteOf([{ item: 'showcase', cents: prices.showcase }]);
        case 'showcase.picture':
          return quoteOf([{ item: 'picture', cents: prices.picture * op.count }]);
        case 'showcase.wall':
          return quoteOf([{ item: 'wall', cents: prices.wall }]);
        case 'animated-ar': {
          const lines: PriceLine[] = [{ item: 'bake', cents: prices.bake }];
          if (op.source !== 'video') {
            lines.push({ item: 'ai_motion', cents: prices.aiMotion });
            const extra = op.videoModel ? surcharges.get(op.videoModel) : undefined;
            if (extra) lines.push({ item: 'model_surcharge', cents: extra });
          }
          if (op.removeBackground) lines.push({ item: 'background_removal', cents: prices.backgroundRemoval });
          return quoteOf(lines);
        }
        default:
          // A kind this policy does not know is refused, never quoted as free.
          throw new Error(`pricing: no price for "${(op as { kind: unknown }).kind}"`);
      }
    },
  };
}

/** The docs/api.md Prices table with no overrides. */
export const defaultPricing: PricingPolicy = createDefaultPricing();

/** Everything free (self-hosted deployments that do not bill). Keeps the breakdown lines at 0. */
export const freePricing: PricingPolicy = {
  name: 'free',
  quote: (op) => ({ lines: defaultPricing.quote(op).lines.map((l) => ({ ...l, cents: 0 })), totalCents: 0 }),
};

/**
 * Wraps a policy so a faulty custom one cannot bill fractions, negative amounts or mismatched totals.
 * Errors are prefixed with the policy name.
 */
export function checkedPricing(policy: PricingPolicy): PricingPolicy {
  return {
    name: policy.name,
    quote(op) {
      const q = policy.quote(op);
      const ok =
        q &&
        Array.isArray(q.lines) &&
        q.lines.every((l) => typeof l.item === 'string' && Number.isSafeInteger(l.cents) && l.cents >= 0) &&
        q.totalCents === q.lines.reduce((s, l) => s + l.cents, 0);
      if (!ok)
        throw new Error(
          `pricing: policy "${policy.name}" returned an invalid quote for ${op.kind} (lines need integer cents >= 0 that add up to totalCents)`,
        );
      return q;
    },
  };
}

/** Credits (a decimal number) from hundredths. */
export const toCredits = (cents: number): number => cents / 100;
