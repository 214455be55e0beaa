import { decodeCursor, encodeCursor, parseLimit } from './list-query';

const paramOf = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as { param?: string }).param;
  }
};

describe('list cursors and limits', () => {
  it('round-trips a position and refuses anything it did not make', () => {
    const c = encodeCursor(['1764000000123456', 'v2_abc']);
    expect(decodeCursor(c, /^([0-9]+)\.([a-z0-9_]+)$/)).toEqual(['1764000000123456', 'v2_abc']);
    expect(decodeCursor(undefined, /x/)).toBeUndefined();
    for (const bad of ['%%%', encodeCursor(['1', "v2_'; drop"]), 'x'.repeat(201)])
      expect(paramOf(() => decodeCursor(bad, /^([0-9]+)\.([a-z0-9_]+)$/))).toBe('cursor');
  });

  it('takes limits from 1 to the maximum', () => {
    expect(parseLimit(undefined, 20, 100)).toBe(20);
    expect(parseLimit('100', 20, 100)).toBe(100);
    for (const bad of ['0', '101', '1.5', '-1', 'ten']) expect(paramOf(() => parseLimit(bad, 20, 100))).toBe('limit');
  });
});
