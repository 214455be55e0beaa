import { join } from 'node:path';
import { loadPricingPolicy } from './pricing-loader';

const FIXTURE = join(__dirname, '../../../test/fixtures/pricing/half-price.pricing.js');
const picture = { kind: 'showcase.picture', count: 3 } as const;

describe('loadPricingPolicy', () => {
  it('builds the default policy, with operator overrides and per-model surcharges', () => {
    expect(loadPricingPolicy({ pricing: { policy: 'default', options: {} } }).quote(picture).totalCents).toBe(600);
    const p = loadPricingPolicy({
      pricing: { policy: 'default', options: { picture: 1.25, model_surcharges: { 'runway:gen4_turbo': 5 } } },
    });
    expect(p.quote(picture).totalCents).toBe(375);
    expect(p.quote({ kind: 'animated-ar', source: 'image', removeBackground: false, videoModel: 'runway:gen4_turbo' }).lines).toEqual([
      { item: 'bake', cents: 100 },
      { item: 'ai_motion', cents: 1250 },
      { item: 'model_surcharge', cents: 500 },
    ]);
    expect(p.quote({ kind: 'animated-ar', source: 'video', removeBackground: false, videoModel: 'runway:gen4_turbo' }).totalCents).toBe(
      100,
    );
  });

  it('refuses bad options with the option named', () => {
    expect(() => loadPricingPolicy({ pricing: { policy: 'default', options: { pictures: 1 } } })).toThrow(/unknown option "pictures"/);
    expect(() => loadPricingPolicy({ pricing: { policy: 'default', options: { picture: 1.001 } } })).toThrow(
      /picture must have at most two decimals/,
    );
    expect(() => loadPricingPolicy({ pricing: { policy: 'default', options: { bake: -1 } } })).toThrow(/bake must be a number/);
    expect(() => loadPricingPolicy({ pricing: { policy: 'free', options: { bake: 1 } } })).toThrow(/free policy takes no options/);
  });

  it('loads the free policy and a custom module by path', () => {
    expect(loadPricingPolicy({ pricing: { policy: 'free', options: {} } }).quote(picture).totalCents).toBe(0);
    const custom = loadPricingPolicy({ pricing: { policy: FIXTURE, options: { percent: 20 } } });
    expect(custom.name).toBe('discount');
    expect(custom.quote({ kind: 'showcase.create' }).totalCents).toBe(400);
    expect(custom.quote({ kind: 'animated-ar', source: 'image', removeBackground: true }).totalCents).toBe(1200);
  });

  it('prices a gallery wall at 1 credit by default, overridable; a custom policy written before walls gets the default price', () => {
    const wall = { kind: 'showcase.wall' } as const;
    expect(loadPricingPolicy({ pricing: { policy: 'default', options: {} } }).quote(wall)).toEqual({
      lines: [{ item: 'wall', cents: 100 }],
      totalCents: 100,
    });
    expect(loadPricingPolicy({ pricing: { policy: 'default', options: { wall: 0.5 } } }).quote(wall).totalCents).toBe(50);
    expect(loadPricingPolicy({ pricing: { policy: 'free', options: {} } }).quote(wall).totalCents).toBe(0);
    // The fixture knows no `showcase.wall` (it throws for it): the default table's price, not a refusal, not free.
    const custom = loadPricingPolicy({ pricing: { policy: FIXTURE, options: { percent: 20 } } });
    expect(custom.quote(wall).totalCents).toBe(100);
    // Kinds it knows stay its own; an unknown kind that is not a later one is still refused.
    expect(custom.quote({ kind: 'showcase.create' }).totalCents).toBe(400);
    expect(() => custom.quote({ kind: 'nope' } as never)).toThrow();
  });

  it('fails startup clearly for a missing or malformed module', () => {
    expect(() => loadPricingPolicy({ pricing: { policy: '/nowhere/pricing.js', options: {} } })).toThrow(
      /pricing: cannot load policy module "\/nowhere\/pricing.js"/,
    );
    expect(() => loadPricingPolicy({ pricing: { policy: 'node:path', options: {} } })).toThrow(/does not export createPricingPolicy/);
  });
});
