import { UserError } from '@app/pipeline';
import { parseDimensionRequest, resolveDimensions, toMeters } from './dimensions';

const resolve = (input: Record<string, unknown>, w = 1000, h = 1000) => resolveDimensions(parseDimensionRequest(input), w, h);

function paramOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as UserError).param;
  }
  throw new Error('did not throw');
}

describe('dimensions (docs/api.md, Picture size)', () => {
  it('defaults to the pixel proportions with the shorter side 24 in', () => {
    expect(resolve({}, 500, 500)).toEqual({ width_inches: 24, height_inches: 24 });
    expect(resolve({}, 1920, 1080)).toEqual({ width_inches: 42.67, height_inches: 24 });
    expect(resolve({}, 600, 900)).toEqual({ width_inches: 24, height_inches: 36 });
    expect(resolve({}, 500, 338)).toEqual({ width_inches: 35.5, height_inches: 24 });
  });

  it('applies aspect_ratio W:H with the shorter side 24 in', () => {
    expect(resolve({ aspect_ratio: '16:9' })).toEqual({ width_inches: 42.67, height_inches: 24 });
    expect(resolve({ aspect_ratio: '2:3' })).toEqual({ width_inches: 24, height_inches: 36 });
    expect(resolve({ aspect_ratio: '1:1' })).toEqual({ width_inches: 24, height_inches: 24 });
    expect(resolve({ aspect_ratio: ' 4 : 3 ' })).toEqual({ width_inches: 32, height_inches: 24 });
    expect(resolve({ aspect_ratio: '1.5:1' })).toEqual({ width_inches: 36, height_inches: 24 });
  });

  it('rejects malformed or zero ratios naming aspect_ratio', () => {
    for (const bad of ['16x9', '16:', ':9', '0:9', '16:0', 'a:b', '-1:2', '', 169]) {
      expect(paramOf(() => parseDimensionRequest({ aspect_ratio: bad }))).toBe('aspect_ratio');
    }
  });

  it('uses width_inches + height_inches, overriding aspect_ratio', () => {
    expect(resolve({ width_inches: 10, height_inches: 20, aspect_ratio: '16:9' })).toEqual({ width_inches: 10, height_inches: 20 });
    expect(resolve({ width_inches: 0.1, height_inches: 120 })).toEqual({ width_inches: 0.1, height_inches: 120 });
    expect(resolve({ width_inches: '12.5', height_inches: '7' })).toEqual({ width_inches: 12.5, height_inches: 7 });
  });

  it('requires both or neither and enforces 0.1..120, naming the param', () => {
    expect(paramOf(() => parseDimensionRequest({ width_inches: 10 }))).toBe('height_inches');
    expect(paramOf(() => parseDimensionRequest({ height_inches: 10 }))).toBe('width_inches');
    expect(paramOf(() => parseDimensionRequest({ width_inches: 0.09, height_inches: 10 }))).toBe('width_inches');
    expect(paramOf(() => parseDimensionRequest({ width_inches: 10, height_inches: 120.01 }))).toBe('height_inches');
    expect(paramOf(() => parseDimensionRequest({ width_inches: 'x', height_inches: 10 }))).toBe('width_inches');
    expect(paramOf(() => parseDimensionRequest({ width_inches: Infinity, height_inches: 10 }))).toBe('width_inches');
    // A bad ratio is ignored when both sizes are given: they override it.
    expect(parseDimensionRequest({ width_inches: 1, height_inches: 1, aspect_ratio: 'nonsense' }).mode).toBe('explicit');
  });

  it('converts to metres', () => {
    const m = toMeters({ width_inches: 24, height_inches: 36 });
    expect(m.width).toBeCloseTo(0.6096, 10);
    expect(m.height).toBeCloseTo(0.9144, 10);
  });
});
