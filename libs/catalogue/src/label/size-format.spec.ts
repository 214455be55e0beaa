import { cmToInches } from './convert-length';
import { SUPPORTED_LOCALES } from '../i18n/locales';
import { formatDimensions, formatLength, framedDimensions } from './size-format';

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

describe('one way of writing a size (issue 42, item 7)', () => {
  // An A3 print 42 cm wide, 29.7 cm tall, as stored (inches to 4 places).
  const a3 = { widthInches: cmToInches(42), heightInches: cmToInches(29.7) };

  it('writes height × width with one decimal in both units, never three', () => {
    expect(formatDimensions(a3, { units: 'cm', locale: 'de' })).toBe('29,7 × 42 cm (11,7 × 16,5 in)');
    expect(formatDimensions(a3, { units: 'in', locale: 'en' })).toBe('11.7 × 16.5 in (29.7 × 42 cm)');
  });

  it('states the first unit alone with oneUnit: the long form’s first half, the same numbers', () => {
    for (const locale of SUPPORTED_LOCALES) {
      for (const units of ['cm', 'in'] as const) {
        const long = formatDimensions(deep, { units, locale });
        const short = formatDimensions(deep, { units, locale, oneUnit: true });
        expect(long.startsWith(`${short} (`)).toBe(true);
        expect(short.endsWith(` ${units}`)).toBe(true);
      }
    }
    expect(formatDimensions(a3, { units: 'cm', locale: 'fr', oneUnit: true })).toBe('29,7 × 42 cm');
  });

  it('uses each locale’s decimal mark in all seven locales', () => {
    const got = Object.fromEntries(
      SUPPORTED_LOCALES.map((locale) => [locale, formatDimensions(a3, { units: 'cm', locale, oneUnit: true })]),
    );
    expect(got).toEqual({
      en: '29.7 × 42 cm',
      de: '29,7 × 42 cm',
      fr: '29,7 × 42 cm',
      es: '29,7 × 42 cm',
      it: '29,7 × 42 cm',
      nl: '29,7 × 42 cm',
      ja: '29.7 × 42 cm',
    });
  });

  it('writes a length the same way', () => {
    expect(formatLength(2, { units: 'cm', locale: 'de', oneUnit: true })).toBe('5,1 cm');
    expect(formatLength(2, { units: 'in', locale: 'en' })).toBe('2 in (5.1 cm)');
    expect(formatLength(cmToInches(5), { units: 'cm', locale: 'en' })).toBe('5 cm (2 in)');
    expect(() => formatLength(NaN, { units: 'cm', locale: 'en' })).toThrow(RangeError);
  });

  it('finds a framed (outer) size only beyond rounding, and keeps the frame’s depth with it', () => {
    const picture = { widthInches: cmToInches(80), heightInches: cmToInches(60) };
    // An unframed 80 × 60 cm print: its outer size is stored to 3 places, so it differs by rounding alone.
    expect(framedDimensions(picture, { widthInches: 31.496, heightInches: 23.622 })).toBeUndefined();
    expect(framedDimensions(picture, undefined)).toBeUndefined();
    expect(framedDimensions(picture, { widthInches: 0, heightInches: 30 })).toBeUndefined();
    const framed = framedDimensions(picture, {
      widthInches: cmToInches(87.6),
      heightInches: cmToInches(67.6),
      depthInches: cmToInches(3.2),
    });
    expect(framed && formatDimensions(framed, { units: 'cm', locale: 'de' })).toBe('67,6 × 87,6 × 3,2 cm (26,6 × 34,5 × 1,3 in)');
    expect(framedDimensions(picture, { widthInches: 35, heightInches: 27, depthInches: 0 })).toEqual({
      widthInches: 35,
      heightInches: 27,
      depthInches: undefined,
    });
  });
});
