import { checkedPricing, defaultPricing, displayPrefix, freePricing, hashApiKey, keysEqual, toCredits } from './index';

describe('default pricing (docs/api.md, Prices)', () => {
  const total = (op: Parameters<typeof defaultPricing.quote>[0]) => toCredits(defaultPricing.quote(op).totalCents);
  it('prices each operation as the table says', () => {
    expect(total({ kind: 'showcase.create' })).toBe(5);
    expect(total({ kind: 'showcase.picture', count: 3 })).toBe(6);
    expect(total({ kind: 'animated-ar', source: 'image', removeBackground: false })).toBe(13.5);
    expect(total({ kind: 'animated-ar', source: 'image', removeBackground: true })).toBe(15);
    expect(total({ kind: 'animated-ar', source: 'video', removeBackground: false })).toBe(1);
    expect(total({ kind: 'animated-ar', source: 'video', removeBackground: true })).toBe(2.5);
  });
  it('shows the animated AR breakdown', () => {
    expect(defaultPricing.quote({ kind: 'animated-ar', source: 'image', removeBackground: true }).lines).toEqual([
      { item: 'bake', cents: 100 },
      { item: 'ai_motion', cents: 1250 },
      { item: 'background_removal', cents: 150 },
    ]);
  });
  it('has a free policy', () => {
    expect(freePricing.quote({ kind: 'showcase.create' }).totalCents).toBe(0);
  });
});

describe('API key helpers', () => {
  it('hashes, shows a short prefix and compares in constant time', () => {
    const key = 'sk_live_abcdEFGH0123456789abcdEFGH0123456789';
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain('abcd');
    expect(displayPrefix(key)).toBe('sk_live_abcd');
    expect(keysEqual(key, key)).toBe(true);
    expect(keysEqual(key, `${key}x`)).toBe(false);
  });
});

describe('checkedPricing', () => {
  it('refuses quotes with fractions, negatives or totals that do not add up', () => {
    const bad = (lines: { item: string; cents: number }[], totalCents: number) =>
      checkedPricing({ name: 'broken', quote: () => ({ lines, totalCents }) }).quote({ kind: 'showcase.create' });
    expect(() => bad([{ item: 'x', cents: 1.5 }], 1.5)).toThrow(/policy "broken" returned an invalid quote/);
    expect(() => bad([{ item: 'x', cents: -1 }], -1)).toThrow(/invalid quote/);
    expect(() => bad([{ item: 'x', cents: 100 }], 50)).toThrow(/invalid quote/);
    expect(bad([{ item: 'x', cents: 100 }], 100).totalCents).toBe(100);
  });
});
