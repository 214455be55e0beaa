// One way of writing a size (issue 42, item 7): every surface that states a picture's physical size (the
// showcase cards, item, wall, together, room and embed pages, the AR banners, the variant selector, the
// console) writes it through this module, so one work never reads "60 × 80 cm" on one page and
// "80 × 60 cm" or "16,535 in" on another. No messages here (the pages add "framed", "Overall size" through
// their catalogues): the console bundles this file as it is (scripts/build.js).
import type { Locale } from '../i18n/locales';
import { inchesToCm } from './convert-length';
import type { LengthUnit } from './label-item';

/** A work's size in inches (the service's stored unit). No depth, or 0, means a flat work. */
export interface Dimensions {
  widthInches: number;
  heightInches: number;
  depthInches?: number | null;
}

export interface DimensionFormatOptions {
  /** The unit stated first; the other follows in brackets (unless `oneUnit`). */
  units: LengthUnit;
  locale: Locale;
  /**
   * The first unit only ("76,2 × 101,6 cm"), where a line has no room for both: a badge, the label on a
   * photo, a selector, a compact card. The same numbers as the long form's first half.
   */
  oneUnit?: boolean;
}

/**
 * Between the measures: the multiplication sign U+00D7 with ordinary spaces on both sides, in every
 * locale, as the pages already write sizes ("24 × 36 in"). Ordinary spaces let a long size wrap on a
 * phone; a page that must keep it on one line sets `white-space: nowrap` on its element.
 */
const TIMES = ' × ';

/**
 * Decimals shown, the same for both units on every surface: a tenth of a centimetre (a millimetre, as
 * galleries measure) and a tenth of an inch (the precision US galleries print; an eighth reads as 0.1 in
 * steps anyway once written as a decimal). Trailing zeros dropped: "30", not "30.0".
 */
export const SIZE_DECIMALS = 1;

/**
 * Constructing an Intl formatter costs far more than formatting with one, and a showcase formats several
 * sizes per work: one formatter per locale, made on first use.
 */
const formatters = new Map<Locale, Intl.NumberFormat>();
function measure(locale: Locale): Intl.NumberFormat {
  let f = formatters.get(locale);
  if (!f) {
    // At most one decimal, trailing zeros dropped (minimumFractionDigits is 0): "76.2", "30", not "30.0".
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: SIZE_DECIMALS });
    formatters.set(locale, f);
  }
  return f;
}

const positive = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/** One measure in a unit, in the locale's notation: "76,2 cm", "30 in". Centimetres through inchesToCm (0.01 cm) first. */
function one(inches: readonly number[], unit: LengthUnit, f: Intl.NumberFormat): string {
  return `${inches.map((v) => f.format(unit === 'cm' ? inchesToCm(v) : v)).join(TIMES)} ${unit}`;
}

/**
 * A size as the art world writes it: height × width (× depth), in the showcase's unit first and the
 * other in brackets, numbers in the locale's notation with at most one decimal place ({@link SIZE_DECIMALS}).
 * Centimetres go through {@link inchesToCm} first (0.01 cm), so a size entered in centimetres shows as
 * entered. Throws a RangeError when width or height is not a positive number: a label with a made-up size
 * is worse than none (formatLabel leaves the line out instead).
 *
 * @example
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'cm', locale: 'en' }); // '76.2 × 101.6 cm (30 × 40 in)'
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'in', locale: 'en' }); // '30 × 40 in (76.2 × 101.6 cm)'
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'cm', locale: 'de' }); // '76,2 × 101,6 cm (30 × 40 in)'
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'cm', locale: 'de', oneUnit: true }); // '76,2 × 101,6 cm'
 * formatDimensions({ widthInches: 12, heightInches: 20, depthInches: 1.5 }, { units: 'in', locale: 'en' }); // '20 × 12 × 1.5 in (50.8 × 30.5 × 3.8 cm)'
 */
export function formatDimensions(d: Dimensions, opts: DimensionFormatOptions): string {
  if (!positive(d.widthInches) || !positive(d.heightInches)) {
    throw new RangeError(
      `formatDimensions: width and height must be positive numbers of inches (got ${d.widthInches} × ${d.heightInches})`,
    );
  }
  const inches = [d.heightInches, d.widthInches, ...(positive(d.depthInches) ? [d.depthInches] : [])];
  const f = measure(opts.locale);
  const first = one(inches, opts.units, f);
  return opts.oneUnit ? first : `${first} (${one(inches, opts.units === 'cm' ? 'in' : 'cm', f)})`;
}

/**
 * One length (a mat's width, a step) the same way: "5,1 cm (2 in)", or the first unit alone with `oneUnit`.
 *
 * @example
 * formatLength(2, { units: 'cm', locale: 'de', oneUnit: true }); // '5,1 cm'
 * formatLength(2, { units: 'in', locale: 'en' }); // '2 in (5.1 cm)'
 */
export function formatLength(inches: number, opts: DimensionFormatOptions): string {
  if (!Number.isFinite(inches)) throw new RangeError(`formatLength: not a number of inches (got ${inches})`);
  const f = measure(opts.locale);
  const first = one([inches], opts.units, f);
  return opts.oneUnit ? first : `${first} (${one([inches], opts.units === 'cm' ? 'in' : 'cm', f)})`;
}

/**
 * The outer (framed) size when it is more than the picture's, else undefined: by more than rounding (a size
 * given in centimetres is stored to 4 decimals of an inch, the outer size to 3), so an unframed 37.5 cm is not
 * "framed". Every surface decides "framed or not" here, so none states a framed size another leaves out.
 */
export function framedDimensions(picture: Dimensions, outer: Partial<Dimensions> | null | undefined): Dimensions | undefined {
  if (!outer || !positive(outer.widthInches) || !positive(outer.heightInches)) return undefined;
  const differs = (a: number, b: number) => Math.abs(a - b) > 0.005;
  if (!differs(outer.widthInches, picture.widthInches) && !differs(outer.heightInches, picture.heightInches)) return undefined;
  return {
    widthInches: outer.widthInches,
    heightInches: outer.heightInches,
    depthInches: positive(outer.depthInches) ? outer.depthInches : undefined,
  };
}
