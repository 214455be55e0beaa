/** Operations that may cost credits (the default prices: docs/api.md, Prices). */
export type BillableOperation =
  | { kind: 'showcase.create' }
  | { kind: 'showcase.picture'; count: number }
  /** A saved gallery wall of a showcase's pictures (its build; a rebuild is free). */
  | { kind: 'showcase.wall' }
  | {
      kind: 'animated-ar';
      source: 'image' | 'animated-image' | 'video';
      removeBackground: boolean;
      /** The enabled video_model id, for image sources (per-model surcharges). */
      videoModel?: string;
    };

/** The kinds of {@link BillableOperation}. */
export type BillableKind = BillableOperation['kind'];

/** One line of a price, in integer hundredths of a credit (amounts are exact to 0.01). */
export interface PriceLine {
  item: string;
  cents: number;
}

export interface Quote {
  lines: PriceLine[];
  totalCents: number;
}

/**
 * Pluggable pricing (CONFIG_FILE `pricing.policy` or PRICING_POLICY: `default`, `free`, or a module).
 *
 * - Amounts are integer hundredths of a credit; every quote is checked (integers >= 0 adding up to
 *   `totalCents`).
 * - Keep the default policy's item names for animated AR: `bake`, `ai_motion`, `model_surcharge`,
 *   `background_removal` — the service refunds `ai_motion` and `model_surcharge` when the source turns
 *   out to be animated already, and every line of a failed job.
 * - `quote` must be pure and fast: it runs on every request, before anything is charged.
 *
 * @example A custom policy module (CONFIG_FILE `{"pricing": {"policy": "./my-pricing.js"}}`):
 * ```js
 * exports.createPricingPolicy = (options) => ({
 *   name: 'half-price',
 *   quote: (op) => { ... return { lines, totalCents }; },
 * });
 * ```
 */
export interface PricingPolicy {
  readonly name: string;
  quote(op: BillableOperation): Quote;
}

/**
 * What a pricing module exports as `createPricingPolicy`. Throw on options it does not know or
 * accept: the start stops with your message.
 */
export type CreatePricingPolicy<TOptions extends object = Record<string, unknown>> = (options: TOptions) => PricingPolicy;

/** The line items the service knows for animated AR (refunds depend on them). */
export const ANIMATED_AR_PRICE_ITEMS = ['bake', 'ai_motion', 'model_surcharge', 'background_removal'] as const;
