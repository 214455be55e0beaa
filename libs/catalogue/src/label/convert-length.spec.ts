import { cmToInches, inchesToCm } from './convert-length';
import { roundDecimal } from './round-decimal';

describe('cmToInches / inchesToCm', () => {
  it('converts at exactly 2.54 cm to the inch, without binary noise', () => {
    expect(inchesToCm(30)).toBe(76.2);
    expect(inchesToCm(40)).toBe(101.6);
    expect(inchesToCm(1)).toBe(2.54);
    expect(cmToInches(76.2)).toBe(30);
    expect(cmToInches(2.54)).toBe(1);
    expect(cmToInches(50)).toBe(19.685);
    expect(cmToInches(33.3)).toBe(13.1102);
  });

  it('rounds inches to 4 places and centimetres to 2', () => {
    expect(cmToInches(10)).toBe(3.937); // 3.93700787…
    expect(inchesToCm(3.93700787)).toBe(10);
    expect(inchesToCm(13.1102)).toBe(33.3); // 33.299908
  });

  it('gives every centimetre size to 0.01 cm back after a trip through inches', () => {
    // Every hundredth from 0.01 cm to 600 cm (60,000 sizes): more than any picture, and every rounding case.
    for (let hundredths = 1; hundredths <= 60_000; hundredths++) {
      const cm = hundredths / 100;
      if (inchesToCm(cmToInches(cm)) !== cm) throw new Error(`${cm} cm came back as ${inchesToCm(cmToInches(cm))}`);
    }
    expect(inchesToCm(cmToInches(1234.56))).toBe(1234.56);
  });

  it('passes what is not a number through as not a number', () => {
    expect(cmToInches(NaN)).toBeNaN();
    expect(inchesToCm(Infinity)).toBe(Infinity);
  });
});

describe('roundDecimal', () => {
  it('rounds the decimal a person wrote, half away from zero', () => {
    expect(roundDecimal(1.005, 2)).toBe(1.01);
    expect(roundDecimal(76.19999999999999, 2)).toBe(76.2);
    expect(roundDecimal(-1.005, 2)).toBe(-1.01);
    expect(roundDecimal(2.5, 0)).toBe(3);
    expect(roundDecimal(0, 2)).toBe(0);
  });
});
