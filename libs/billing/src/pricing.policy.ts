/** Operations that may cost credits (spec §8). */
export type BillableOperation =
  | { kind: 'showcase.create' }
  | { kind: 'showcase.picture'; count: number }
  | { kind: 'animated-ar'; source: 'image' | 'animated-image' | 'video'; removeBackground: boolean };

/** One line of a price, in integer hundredths of a credit (amounts are exact to 0.01). */
export interface PriceLine {
  item: string;
  cents: number;
}

export interface Quote {
  lines: PriceLine[];
  totalCents: number;
}

/** Pluggable pricing (DI provider chosen by configuration). */
export interface PricingPolicy {
  readonly name: string;
  quote(op: BillableOperation): Quote;
}

const quote = (lines: PriceLine[]): Quote => ({ lines, totalCents: lines.reduce((s, l) => s + l.cents, 0) });

/**
 * The spec §8 table: showcase 5.0, picture 2.0, animated AR = bake 1.0 + AI motion 12.5 (image sources)
 * + background removal 1.5. An already-animated image is quoted like an image source: the AI part is
 * charged up front and refunded when the source turns out to be animated.
 */
export const defaultPricing: PricingPolicy = {
  name: 'default',
  quote(op) {
    switch (op.kind) {
      case 'showcase.create':
        return quote([{ item: 'showcase', cents: 500 }]);
      case 'showcase.picture':
        return quote([{ item: 'picture', cents: 200 * op.count }]);
      case 'animated-ar': {
        const lines: PriceLine[] = [{ item: 'bake', cents: 100 }];
        if (op.source !== 'video') lines.push({ item: 'ai_motion', cents: 1250 });
        if (op.removeBackground) lines.push({ item: 'background_removal', cents: 150 });
        return quote(lines);
      }
    }
  },
};

/** Everything free (self-hosted deployments that do not bill). */
export const freePricing: PricingPolicy = {
  name: 'free',
  quote: (op) => ({ lines: defaultPricing.quote(op).lines.map((l) => ({ ...l, cents: 0 })), totalCents: 0 }),
};

/** Credits (a decimal number) from hundredths. */
export const toCredits = (cents: number): number => cents / 100;
