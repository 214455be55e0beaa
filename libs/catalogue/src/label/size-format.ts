import type { Locale } from '../i18n';
import { inchesToCm } from './convert-length';
import type { LengthUnit } from './label-item';

/** A work's size in inches (the service's stored unit). No depth, or 0, means a flat work. */
export interface Dimensions {
  widthInches: number;
  heightInches: number;
  depthInches?: number | null;
}

export interface DimensionFormatOptions {
  /** The unit stated first; the other follows in brackets. */
  units: LengthUnit;
  locale: Locale;
}

/**
 * Between the measures: the multiplication sign U+00D7 with ordinary spaces on both sides, in every
 * locale, as the pages already write sizes ("24 × 36 in"). Ordinary spaces let a long size wrap on a
 * phone; a page that must keep it on one line sets `white-space: nowrap` on its element.
 */
const TIMES = ' × ';

/**
 * Constructing an Intl formatter costs far more than formatting with one, and a showcase formats two
 * sizes per work: one formatter per locale, made on first use.
 */
const formatters = new Map<Locale, Intl.NumberFormat>();
function measure(locale: Locale): Intl.NumberFormat {
  let f = formatters.get(locale);
  if (!f) {
    // At most one decimal, trailing zeros dropped (minimumFractionDigits is 0): "76.2", "30", not "30.0".
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    formatters.set(locale, f);
  }
  return f;
}

const positive = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * A size as the art world writes it: height × width (× depth), in the showcase's unit first and the
 * other in brackets, numbers in the locale's notation with at most one decimal place. Centimetres go
 * through {@link inchesToCm} first (0.01 cm), so a size entered in centimetres shows as entered.
 * Throws a RangeError when width or height is not a positive number: a label with a made-up size is
 * worse than none (formatLabel leaves the line out instead).
 *
 * @example
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'cm', locale: 'en' }); // '76.2 × 101.6 cm (30 × 40 in)'
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'in', locale: 'en' }); // '30 × 40 in (76.2 × 101.6 cm)'
 * formatDimensions({ widthInches: 40, heightInches: 30 }, { units: 'cm', locale: 'de' }); // '76,2 × 101,6 cm (30 × 40 in)'
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
  const inText = `${inches.map((v) => f.format(v)).join(TIMES)} in`;
  const cmText = `${inches.map((v) => f.format(inchesToCm(v))).join(TIMES)} cm`;
  return opts.units === 'cm' ? `${cmText} (${inText})` : `${inText} (${cmText})`;
}
