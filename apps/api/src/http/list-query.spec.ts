import { parseInput, z } from '@app/schema';
import { cursorQuery, encodeCursor, limitQuery } from './list-query';

const Query = z.object({ cursor: cursorQuery(/^([0-9]+)\.([a-z0-9_]+)$/), limit: limitQuery(100, 20) });
const parse = (q: Record<string, string>) => parseInput(Query, q);

const errorOf = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return { param: (e as { param?: string }).param, message: (e as Error).message };
  }
};

describe('list cursors and limits', () => {
  it('round-trips a position and refuses anything it did not make', () => {
    const c = encodeCursor(['1764000000123456', 'v2_abc']);
    expect(parse({ cursor: c }).cursor).toEqual(['1764000000123456', 'v2_abc']);
    expect(parse({}).cursor).toBeUndefined();
    expect(parse({ cursor: '' }).cursor).toBeUndefined();
    for (const bad of ['%%%', encodeCursor(['1', "v2_'; drop"]), 'x'.repeat(201)])
      expect(errorOf(() => parse({ cursor: bad }))).toEqual({
        param: 'cursor',
        message: 'cursor: not a cursor from this list (use next_cursor of the previous page)',
      });
  });

  it('takes limits from 1 to the maximum', () => {
    expect(parse({}).limit).toBe(20);
    expect(parse({ limit: '' }).limit).toBe(20);
    expect(parse({ limit: '100' }).limit).toBe(100);
    for (const bad of ['0', '101', '1.5', '-1', 'ten'])
      expect(errorOf(() => parse({ limit: bad }))).toEqual({ param: 'limit', message: 'limit: a whole number from 1 to 100' });
  });
});
