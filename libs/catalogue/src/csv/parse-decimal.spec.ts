import { parseDecimal } from './index';

describe('parseDecimal', () => {
  const comma = { delimiter: ',' } as const;
  const semicolon = { delimiter: ';' } as const;
  const tab = { delimiter: '\t' } as const;

  it('reads plain decimals in every kind of file, surrounding spaces allowed', () => {
    for (const options of [comma, semicolon, tab]) {
      expect(parseDecimal('76.2', options)).toBe(76.2);
      expect(parseDecimal(' 30 ', options)).toBe(30);
      expect(parseDecimal('-3.5', options)).toBe(-3.5);
      expect(parseDecimal('+0.125', options)).toBe(0.125);
      expect(parseDecimal('1234.5', options)).toBe(1234.5);
      expect(parseDecimal('\u00a042\t', options)).toBe(42);
    }
  });

  it('reads a decimal comma and thousands dots in ";" files only', () => {
    expect(parseDecimal('76,2', semicolon)).toBe(76.2);
    expect(parseDecimal(' -0,5 ', semicolon)).toBe(-0.5);
    expect(parseDecimal('1.234,5', semicolon)).toBe(1234.5);
    expect(parseDecimal('12.345.678', semicolon)).toBe(12345678);
    expect(parseDecimal('12.345.678,25', semicolon)).toBe(12345678.25);
    expect(parseDecimal('76,2', comma)).toBeNull();
    expect(parseDecimal('76,2', tab)).toBeNull();
    expect(parseDecimal('1.234,5', comma)).toBeNull();
  });

  it('returns null for one dot before three digits in a ";" file, which could mean either', () => {
    expect(parseDecimal('1.234', semicolon)).toBeNull();
    expect(parseDecimal('1.234', comma)).toBe(1.234);
    expect(parseDecimal('0.125', semicolon)).toBe(0.125);
    expect(parseDecimal('1.2345', semicolon)).toBe(1.2345);
  });

  it('returns undefined for an empty cell and null for anything else that is not a number', () => {
    expect(parseDecimal('', comma)).toBeUndefined();
    expect(parseDecimal('   ', semicolon)).toBeUndefined();
    for (const text of [
      'abc',
      'about 30',
      '30 cm',
      '1e3',
      'NaN',
      'Infinity',
      '0x10',
      '5.',
      '.5',
      ',5',
      '1,2,3',
      '1 234',
      '1.23.4',
      '--1',
    ]) {
      expect([text, parseDecimal(text, semicolon)]).toEqual([text, null]);
      expect([text, parseDecimal(text, comma)]).toEqual([text, null]);
    }
  });
});
