import { parseSizeText } from './index';

describe('parseSizeText', () => {
  // [value, showcase units, width cm, height cm]
  const sizes: [string, 'cm' | 'in', number, number][] = [
    ['50 x 70 cm', 'in', 50, 70],
    ['50x70cm', 'in', 50, 70],
    ['50X70 CM', 'in', 50, 70],
    ['50 cm x 70 cm', 'in', 50, 70],
    ['50 × 70', 'cm', 50, 70],
    ['50 × 70', 'in', 127, 177.8],
    ['50*70 cm', 'in', 50, 70],
    ['16 x 20 in', 'cm', 40.64, 50.8],
    ['16 x 20 in.', 'cm', 40.64, 50.8],
    ['16"x20"', 'cm', 40.64, 50.8],
    ['16” x 20”', 'cm', 40.64, 50.8],
    ['16″ × 20″', 'cm', 40.64, 50.8],
    ["16''x20''", 'cm', 40.64, 50.8],
    ['16 x 20 inches', 'cm', 40.64, 50.8],
    ['16 by 20 inch', 'cm', 40.64, 50.8],
    ['8.5 x 11 in', 'cm', 21.59, 27.94],
    ['29,7 x 42 cm', 'in', 29.7, 42],
    ['29.7 x 42 cm', 'in', 29.7, 42],
    ['500 x 700 mm', 'in', 50, 70],
    ['297x420mm', 'in', 29.7, 42],
    ['70 x 50 cm', 'in', 70, 50],
    ['50 x 70 x 2 cm', 'in', 50, 70],
    ['Large (50 x 70 cm)', 'in', 50, 70],
    ['Large – 50x70cm', 'in', 50, 70],
    ['50 x 70 cm / 19.7 x 27.6 in', 'in', 50, 70],
    ['  50 x 70 cm\u00a0', 'in', 50, 70],
    ['A0', 'in', 84.1, 118.9],
    ['A1', 'in', 59.4, 84.1],
    ['A2', 'cm', 42, 59.4],
    ['a3', 'cm', 29.7, 42],
    ['A4', 'in', 21, 29.7],
    ['A5', 'cm', 14.8, 21],
    ['A6', 'cm', 10.5, 14.8],
    ['DIN A4', 'cm', 21, 29.7],
    ['A3 landscape', 'cm', 42, 29.7],
    ['A3 (29.7 x 42 cm)', 'in', 29.7, 42],
    ['1000 x 1000 cm', 'in', 1000, 1000],
  ];
  it.each(sizes)('reads %p (units %s) as %p x %p cm', (value, units, widthCm, heightCm) => {
    expect(parseSizeText(value, units)).toEqual({ widthCm, heightCm });
  });

  const notSizes: [string, string][] = [
    ['Oak frame', 'a frame'],
    ['Large', 'a size name without numbers'],
    ['Unframed', 'no size'],
    ['XL', 'a letter size'],
    ['', 'empty'],
    ['2x', 'one number'],
    ['50 cm', 'one side'],
    ['Set of 2 x 3 prints', 'a unitless pair inside words'],
    ['Large (50 x 70)', 'a unitless pair inside words'],
    ['50 cm x 20 in', 'mixed units'],
    ['50 x 70 cm or 70 x 100 cm', 'two different sizes'],
    ['A4 or A3', 'two different papers'],
    ['1,000 x 2,000 mm', 'a thousands comma'],
    ['0 x 70 cm', 'a zero side'],
    ['0,5 x 0,5 cm', 'below 1 cm'],
    ['1001 x 50 cm', 'over 10 m'],
    ['2000 x 3000 in', 'over 10 m'],
    ['50 x 70 x 100 cm', 'a third side larger than a depth'],
    ['A7', 'a paper outside A0–A6'],
    ['A10', 'a paper outside A0–A6'],
    ['SKU A4B2', 'letters glued to the paper name'],
    ['v2x3', 'a version, not a size'],
    ['x'.repeat(300), 'too long to be an option value'],
  ];
  it.each(notSizes)('refuses %p (%s)', (value) => {
    expect(parseSizeText(value, 'cm')).toBeNull();
    expect(parseSizeText(value, 'in')).toBeNull();
  });
});
