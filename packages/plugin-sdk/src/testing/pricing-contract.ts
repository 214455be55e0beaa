import { ANIMATED_AR_PRICE_ITEMS, type BillableOperation, type PricingPolicy, type Quote } from '../pricing';
import { deepFreeze } from './util';

export interface PricingContractOptions<TOptions extends object = Record<string, unknown>> {
  /** Shown in the suite's title: `pricing policy contract: <name>`. Default: the policy's name. */
  name?: string;
  /** Options the policy is built with for the checks (default: `{}`, i.e. its own defaults). */
  options?: TOptions;
  /** video_model ids quoted for animated AR (default: `procedural`, `acme:v1`). */
  videoModels?: readonly string[];
  /** More option sets the factory must refuse (it always must refuse an unknown option key). */
  invalidOptions?: readonly unknown[];
  /** Most milliseconds 10,000 quotes may take (default 1000): quote runs on every request. */
  maxMsPer10kQuotes?: number;
}

/** Every billable operation the service quotes, for the given video models. */
export function billableOperations(videoModels: readonly string[] = ['procedural', 'acme:v1']): BillableOperation[] {
  const ops: BillableOperation[] = [{ kind: 'showcase.create' }];
  for (const count of [1, 2, 5, 20]) ops.push({ kind: 'showcase.picture', count });
  for (const source of ['image', 'animated-image', 'video'] as const) {
    for (const removeBackground of [false, true]) {
      ops.push({ kind: 'animated-ar', source, removeBackground });
      for (const videoModel of videoModels) ops.push({ kind: 'animated-ar', source, removeBackground, videoModel });
    }
  }
  return ops;
}

const describeOp = (op: BillableOperation) => JSON.stringify(op);

/** The problems of a quote (empty when it is valid): integer cents >= 0 adding up to the total. */
export function quoteProblems(q: Quote): string[] {
  if (!q || typeof q !== 'object' || !Array.isArray(q.lines)) return ['the quote has no lines array'];
  const problems: string[] = [];
  for (const l of q.lines) {
    if (typeof l?.item !== 'string' || l.item.length === 0) problems.push(`a line has no item name: ${JSON.stringify(l)}`);
    if (!Number.isSafeInteger(l?.cents) || l.cents < 0)
      problems.push(`line "${l?.item}" has cents ${l?.cents}: need an integer >= 0 (hundredths of a credit)`);
  }
  const sum = q.lines.reduce((s, l) => s + (l?.cents ?? 0), 0);
  if (!Number.isSafeInteger(q.totalCents) || q.totalCents !== sum)
    problems.push(`totalCents ${q.totalCents} is not the sum of the lines (${sum})`);
  return problems;
}

/**
 * Registers a Jest suite that checks a pricing policy factory (a module's `createPricingPolicy`) against
 * the contract the service relies on: valid amounts for every billable operation, the default policy's
 * line items for animated AR, determinism, no hidden state, refusal of unknown options and operations, and speed.
 *
 * @example
 * ```ts
 * import { describePricingPolicyContract } from '@image-ar/plugin-sdk/testing';
 * const { createPricingPolicy } = require('../index.js');
 * describePricingPolicyContract(createPricingPolicy, { options: { ai_motion: { default: 12.5, 'veo:*': 30 } }, videoModels: ['veo:3'] });
 * ```
 */
export function describePricingPolicyContract<TOptions extends object = Record<string, unknown>>(
  factory: (options: TOptions) => PricingPolicy,
  options: PricingContractOptions<TOptions> = {},
): void {
  const make = () => factory(structuredClone(options.options ?? ({} as TOptions)));
  const ops = billableOperations(options.videoModels);
  const total = (policy: PricingPolicy, op: BillableOperation) => policy.quote(deepFreeze(structuredClone(op))).totalCents;

  describe(`pricing policy contract: ${options.name ?? 'policy'}`, () => {
    it('builds from its defaults and from the given options, and names itself', () => {
      for (const policy of [factory({} as TOptions), make()]) {
        expect(typeof policy.name).toBe('string');
        expect(policy.name.length).toBeGreaterThan(0);
        expect(typeof policy.quote).toBe('function');
      }
    });

    it('quotes every billable operation with integer cents >= 0 that add up to the total', () => {
      const policy = make();
      for (const op of ops) {
        const q = policy.quote(deepFreeze(structuredClone(op)));
        const problems = quoteProblems(q);
        if (problems.length) throw new Error(`quote of ${describeOp(op)}: ${problems.join('; ')}`);
        expect(Number.isFinite(q.totalCents)).toBe(true);
      }
    });

    it("names animated AR lines with the default policy's items (bake, ai_motion, model_surcharge, background_removal)", () => {
      const policy = make();
      for (const op of ops.filter((o) => o.kind === 'animated-ar')) {
        for (const line of policy.quote(deepFreeze(structuredClone(op))).lines) {
          if (!(ANIMATED_AR_PRICE_ITEMS as readonly string[]).includes(line.item)) {
            throw new Error(
              `quote of ${describeOp(op)}: unknown item "${line.item}" (the service refunds by item: ${ANIMATED_AR_PRICE_ITEMS.join(', ')})`,
            );
          }
        }
      }
    });

    it('never charges less for more work: more pictures, background removal', () => {
      const policy = make();
      let last = -1;
      for (const count of [1, 2, 3, 5, 10, 20]) {
        const t = total(policy, { kind: 'showcase.picture', count });
        expect(t).toBeGreaterThanOrEqual(last);
        last = t;
      }
      for (const op of ops) {
        if (op.kind !== 'animated-ar' || op.removeBackground) continue;
        expect(total(policy, { ...op, removeBackground: true })).toBeGreaterThanOrEqual(total(policy, op));
      }
    });

    it('is deterministic and pure: the same quote every time, from every instance, whatever the caller does with it', () => {
      const a = make();
      const b = make();
      for (const op of ops) {
        const first = a.quote(deepFreeze(structuredClone(op)));
        const snapshot = structuredClone(first);
        // A caller that changes a quote it got must not change the next one.
        first.lines.push({ item: 'tampered', cents: 1 });
        if (first.lines[0]) first.lines[0].cents += 1000;
        expect(a.quote(deepFreeze(structuredClone(op)))).toEqual(snapshot);
        expect(b.quote(deepFreeze(structuredClone(op)))).toEqual(snapshot);
      }
    });

    it('refuses unknown and invalid options', () => {
      expect(() => factory({ ...(options.options ?? {}), no_such_option_for_the_contract: 1 } as TOptions)).toThrow();
      for (const bad of options.invalidOptions ?? []) {
        expect(() => factory(bad as TOptions)).toThrow();
      }
    });

    it('refuses an operation it does not know instead of quoting it', () => {
      const policy = make();
      expect(() => policy.quote({ kind: 'no-such-operation' } as unknown as BillableOperation)).toThrow();
    });

    it('is fast: it runs on every request', () => {
      const policy = make();
      const frozen = ops.map((op) => deepFreeze(structuredClone(op)));
      const t0 = performance.now();
      for (let i = 0; i < 10_000; i++) policy.quote(frozen[i % frozen.length]);
      expect(performance.now() - t0).toBeLessThan(options.maxMsPer10kQuotes ?? 1000);
    });
  });
}
