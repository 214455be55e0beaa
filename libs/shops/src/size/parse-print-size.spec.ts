import { matchFrame, parsePrintSize, type PrintSizeInput } from './index';

const input = (over: Partial<PrintSizeInput>): PrintSizeInput => ({
  variantMeta: null,
  productMeta: null,
  options: [],
  units: 'cm',
  ...over,
});

describe('parsePrintSize', () => {
  it('takes the variant metadata first, then the product metadata, then the options', () => {
    const options = [{ name: 'Size', value: '30 x 40 cm' }];
    const variantMeta = { widthCm: 50, heightCm: 70 };
    const productMeta = { widthIn: 16, heightIn: 20 };
    expect(parsePrintSize(input({ variantMeta, productMeta, options }))).toEqual({
      widthCm: 50,
      heightCm: 70,
      source: 'metadata',
      seen: 'width_cm 50, height_cm 70',
    });
    expect(parsePrintSize(input({ productMeta, options }))).toEqual({
      widthCm: 40.64,
      heightCm: 50.8,
      source: 'metadata',
      seen: 'width_in 16, height_in 20',
    });
    expect(parsePrintSize(input({ options }))).toEqual({
      widthCm: 30,
      heightCm: 40,
      source: 'option',
      seen: '30 x 40 cm',
    });
  });

  it('prefers centimetres when metadata gives both pairs', () => {
    const meta = { widthCm: 50, heightCm: 70, widthIn: 1, heightIn: 1 };
    expect(parsePrintSize(input({ variantMeta: meta }))).toMatchObject({ widthCm: 50, heightCm: 70 });
  });

  it('passes over one-sided or absurd metadata to the next source', () => {
    const options = [{ name: 'Size', value: 'A4' }];
    const result = parsePrintSize(input({ variantMeta: { widthCm: 50 }, productMeta: { widthCm: 0, heightCm: 70 }, options }));
    expect(result).toEqual({ widthCm: 21, heightCm: 29.7, source: 'option', seen: 'A4' });
  });

  it('reads size-named options before the others, then the rest in order', () => {
    const options = [
      { name: 'Frame', value: 'Oak 2 x 3 cm moulding' },
      { name: 'Format', value: '40 x 50 cm' },
    ];
    expect(parsePrintSize(input({ options }))).toMatchObject({ widthCm: 40, heightCm: 50, seen: '40 x 50 cm' });
    const unnamed = [
      { name: 'Option1', value: 'Unframed' },
      { name: 'Option2', value: '16x20"' },
    ];
    expect(parsePrintSize(input({ options: unnamed }))).toMatchObject({ widthCm: 40.64, heightCm: 50.8 });
  });

  it("uses the showcase's units for an option value that writes none", () => {
    const options = [{ name: 'Size', value: '16 × 20' }];
    expect(parsePrintSize(input({ options, units: 'in' }))).toMatchObject({ widthCm: 40.64, heightCm: 50.8 });
    expect(parsePrintSize(input({ options, units: 'cm' }))).toMatchObject({ widthCm: 16, heightCm: 20 });
  });

  it('reports size_unknown naming everything it saw', () => {
    const options = [
      { name: 'Size', value: 'Large' },
      { name: 'Frame', value: 'Oak frame' },
    ];
    expect(parsePrintSize(input({ options, productMeta: { heightCm: 70 } }))).toEqual({
      error: 'size_unknown',
      seen: 'height_cm 70; Size: Large; Frame: Oak frame',
    });
    expect(parsePrintSize(input({}))).toEqual({ error: 'size_unknown', seen: '(no size metadata or options)' });
  });
});

describe('matchFrame', () => {
  const frames = { 'Oak frame': 'classic', 'Black Frame ': 'modern', Unframed: null };

  it.each([
    [[{ name: 'Frame', value: 'Oak frame' }], 'classic'],
    [[{ name: 'Frame', value: '  oak FRAME ' }], 'classic'],
    [[{ name: 'Frame', value: 'black frame' }], 'modern'],
    [[{ name: 'Frame', value: 'UNFRAMED' }], null],
    [
      [
        { name: 'Size', value: '50 x 70 cm' },
        { name: 'Frame', value: 'Unframed' },
      ],
      null,
    ],
    [[{ name: 'Frame', value: 'Walnut frame' }], undefined],
    [[{ name: 'Frame', value: 'Oak' }], undefined],
    [[], undefined],
  ])('%j → %p', (options, expected) => {
    expect(matchFrame(options, frames)).toBe(expected);
  });

  it('does not read object prototype names as presets', () => {
    expect(matchFrame([{ name: 'Frame', value: 'constructor' }], {})).toBeUndefined();
    expect(matchFrame([{ name: 'Frame', value: '__proto__' }], {})).toBeUndefined();
  });
});
