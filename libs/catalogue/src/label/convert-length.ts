import { roundDecimal } from './round-decimal';

/** The inch is defined as exactly 2.54 cm (international yard and pound agreement, 1959). */
export const CM_PER_INCH = 2.54;

/**
 * Places kept when storing a centimetre size as inches. 0.0001 in is 0.00254 cm, so the rounding error
 * (at most half of that, 0.00127 cm) stays far inside the 0.005 cm that would change a size given to
 * 0.01 cm: `inchesToCm(cmToInches(x))` gives `x` back for any `x` with at most two decimals.
 */
export const INCH_DECIMALS = 4;

/** Places of a centimetre value: 0.1 mm, finer than anyone measures a picture. */
export const CM_DECIMALS = 2;

/**
 * Centimetres as inches, rounded to {@link INCH_DECIMALS} places (see there for why that round-trips).
 * Not finite in, not finite out.
 *
 * @example
 * cmToInches(76.2); // 30
 * cmToInches(50); // 19.685
 * cmToInches(33.3); // 13.1102
 */
export const cmToInches = (cm: number): number => roundDecimal(cm / CM_PER_INCH, INCH_DECIMALS);

/**
 * Inches as centimetres, rounded to {@link CM_DECIMALS} places: removes the binary noise of the
 * multiplication (30 * 2.54 is 76.19999999999999) and recovers a size first given in centimetres.
 *
 * @example
 * inchesToCm(30); // 76.2
 * inchesToCm(cmToInches(33.3)); // 33.3
 */
export const inchesToCm = (inches: number): number => roundDecimal(inches * CM_PER_INCH, CM_DECIMALS);
