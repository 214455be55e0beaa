import { cmToInches } from './convert-length';
import { formatDimensions } from './format-dimensions';

const flat = { widthInches: 40, heightInches: 30 };
const deep = { widthInches: 12, heightInches: 20, depthInches: 1.5 };

describe('formatDimensions', () => {
  it('writes height × width, the showcase’s unit first and the other in brackets (en)', () => {
    expect(formatDimensions(flat, { units: 'cm', locale: 'en' })).toBe('76.2 × 101.6 cm (30 × 40 in)');
    expect(formatDimensions(flat, { units: 'in', locale: 'en' })).toBe('30 × 40 in (76.2 × 101.6 cm)');
  });

  it('uses the locale’s decimal mark (de)', () => {
    expect(formatDimensions(flat, { units: 'cm', locale: 'de' })).toBe('76,2 × 101,6 cm (30 × 40 in)');
    expect(formatDimensions(flat, { units: 'in', locale: 'de' })).toBe('30 × 40 in (76,2 × 101,6 cm)');
  });

  it('writes Japanese sizes with the full stop as decimal mark (ja)', () => {
    expect(formatDimensions(flat, { units: 'cm', locale: 'ja' })).toBe('76.2 × 101.6 cm (30 × 40 in)');
    expect(formatDimensions(flat, { units: 'in', locale: 'ja' })).toBe('30 × 40 in (76.2 × 101.6 cm)');
  });

  it('adds the depth third', () => {
    expect(formatDimensions(deep, { units: 'in', locale: 'en' })).toBe('20 × 12 × 1.5 in (50.8 × 30.5 × 3.8 cm)');
    expect(formatDimensions(deep, { units: 'cm', locale: 'en' })).toBe('50.8 × 30.5 × 3.8 cm (20 × 12 × 1.5 in)');
    expect(formatDimensions(deep, { units: 'cm', locale: 'de' })).toBe('50,8 × 30,5 × 3,8 cm (20 × 12 × 1,5 in)');
    expect(formatDimensions(deep, { units: 'in', locale: 'de' })).toBe('20 × 12 × 1,5 in (50,8 × 30,5 × 3,8 cm)');
    expect(formatDimensions(deep, { units: 'cm', locale: 'ja' })).toBe('50.8 × 30.5 × 3.8 cm (20 × 12 × 1.5 in)');
    expect(formatDimensions(deep, { units: 'in', locale: 'ja' })).toBe('20 × 12 × 1.5 in (50.8 × 30.5 × 3.8 cm)');
  });

  it('treats no depth, a zero or a null depth as a flat work', () => {
    for (const depthInches of [undefined, null, 0, -1, NaN]) {
      expect(formatDimensions({ ...flat, depthInches }, { units: 'in', locale: 'en' })).toBe('30 × 40 in (76.2 × 101.6 cm)');
    }
  });

  it('shows at most one decimal, without trailing zeros', () => {
    expect(formatDimensions({ widthInches: 24, heightInches: 36 }, { units: 'in', locale: 'en' })).toBe('36 × 24 in (91.4 × 61 cm)');
    expect(formatDimensions({ widthInches: 19.685, heightInches: 10.25 }, { units: 'in', locale: 'en' })).toBe(
      '10.3 × 19.7 in (26 × 50 cm)',
    );
  });

  it('shows a size entered in centimetres as entered', () => {
    const d = { widthInches: cmToInches(70), heightInches: cmToInches(50.5), depthInches: cmToInches(4.25) };
    expect(formatDimensions(d, { units: 'cm', locale: 'en' })).toBe('50.5 × 70 × 4.3 cm (19.9 × 27.6 × 1.7 in)');
    expect(formatDimensions(d, { units: 'cm', locale: 'fr' })).toBe('50,5 × 70 × 4,3 cm (19,9 × 27,6 × 1,7 in)');
  });

  it('groups thousands as the locale does', () => {
    expect(formatDimensions({ widthInches: 500, heightInches: 100 }, { units: 'cm', locale: 'en' })).toBe('254 × 1,270 cm (100 × 500 in)');
    expect(formatDimensions({ widthInches: 500, heightInches: 100 }, { units: 'cm', locale: 'de' })).toBe('254 × 1.270 cm (100 × 500 in)');
  });

  it('refuses a size that is not a positive number', () => {
    expect(() => formatDimensions({ widthInches: 0, heightInches: 10 }, { units: 'in', locale: 'en' })).toThrow(RangeError);
    expect(() => formatDimensions({ widthInches: 10, heightInches: NaN }, { units: 'in', locale: 'en' })).toThrow(RangeError);
    expect(() => formatDimensions({ widthInches: -3, heightInches: 10 }, { units: 'cm', locale: 'en' })).toThrow(/positive/);
  });
});
