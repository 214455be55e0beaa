import { CM_DECIMALS, inchesToCm } from '@app/catalogue';

/** A print's width and height in centimetres. */
export interface SizeCm {
  widthCm: number;
  heightCm: number;
}

export type LengthUnit = 'cm' | 'mm' | 'in';

/**
 * Bounds of a believable print. The upper one is the 10 m; the lower one is 1 cm rather than 0 because
 * "1,5 x 2 mm" is a misread, not a print (a stamp is 2 cm). Outside them the value is not a size: a wrong size
 * is worse than none.
 */
export const MIN_PRINT_CM = 1;
export const MAX_PRINT_CM = 1000;

/** ISO 216 A series in millimetres, portrait (exact, as the standard tabulates them). */
const ISO_A_MM: Record<string, [number, number]> = {
  a0: [841, 1189],
  a1: [594, 841],
  a2: [420, 594],
  a3: [297, 420],
  a4: [210, 297],
  a5: [148, 210],
  a6: [105, 148],
};

const NUM = String.raw`(\d+(?:[.,]\d+)?)`;
// `"`, `″` and `”` are inch marks ("16"x20""); `''` is two apostrophes typed for one.
const UNIT = String.raw`(cm|mm|inches|inch|in|"|''|″|”)`;
const SEP = String.raw`\s*(?:x|×|\*|by)\s*`;
// Either number may carry its unit ("50 cm x 70 cm", 16"x20"); an optional third number is a canvas's depth.
const PAIR = new RegExp(String.raw`(?<![\w.,])${NUM}\s*${UNIT}?${SEP}${NUM}\s*${UNIT}?(?:${SEP}${NUM}\s*${UNIT}?)?(?![a-z0-9])`, 'giu');
const PAPER = /(?<![a-z0-9])(a[0-6])(?![a-z0-9])/giu;

function unitOf(mark: string | undefined): LengthUnit | undefined {
  if (mark === undefined) return undefined;
  const m = mark.toLowerCase();
  return m === 'cm' ? 'cm' : m === 'mm' ? 'mm' : 'in';
}

/** "29,7" and "29.7" both; "1,000" (a comma before exactly three digits) could be a thousand, so it is refused. */
function readNumber(text: string): number | null {
  if (/^\d+,\d{3}$/.test(text)) return null;
  return Number(text.replace(',', '.'));
}

function toCm(value: number, unit: LengthUnit): number {
  if (unit === 'in') return inchesToCm(value);
  // Through 15 significant digits first, so 29.7 stays 29.7 (the catalogue rounds inches the same way).
  const f = 10 ** CM_DECIMALS;
  return Math.round(Number(((unit === 'mm' ? value / 10 : value) * f).toPrecision(15))) / f;
}

export const isBelievable = (s: SizeCm): boolean =>
  [s.widthCm, s.heightCm].every((v) => Number.isFinite(v) && v >= MIN_PRINT_CM && v <= MAX_PRINT_CM);

/** One "W x H [x D] unit" match read as centimetres, or null when its units disagree or a number is unclear. */
function readPair(m: RegExpExecArray, defaultUnit: LengthUnit, wholeValue: boolean): SizeCm | null {
  const [, w, u1, h, u2, d, u3] = m;
  const marks = [u1, u2, u3].map(unitOf).filter((u): u is LengthUnit => u !== undefined);
  if (new Set(marks).size > 1) return null; // "50 cm x 20 in"
  // Without a unit, a pair inside other words ("Set 2 x 3 prints") is too easily something else.
  if (marks.length === 0 && !wholeValue) return null;
  const unit = marks[0] ?? defaultUnit;
  const nums = [w, h, d].filter((n): n is string => n !== undefined).map(readNumber);
  if (nums.some((n) => n === null)) return null;
  const [width, height, depth] = nums as number[];
  // A third number is read as a depth only if it is the smallest; "50 x 70 x 100" is no print.
  if (depth !== undefined && depth >= Math.min(width, height)) return null;
  return { widthCm: toCm(width, unit), heightCm: toCm(height, unit) };
}

const same = (a: SizeCm, b: SizeCm): boolean => Math.abs(a.widthCm - b.widthCm) <= 0.5 && Math.abs(a.heightCm - b.heightCm) <= 0.5;

/**
 * The print size written in one option value, or null when there is none or it is unclear. Reads
 * "50 x 70 cm", "50x70cm", "50 × 70" (then in `defaultUnit`, the showcase's), "16 x 20 in", 16"x20",
 * "16 x 20 inches", "500 x 700 mm", "29,7 x 42 cm", "50 x 70 x 2 cm" (a depth is dropped), "Large (50 x 70 cm)",
 * and the ISO 216 papers "A0"…"A6" (portrait; "A3 landscape" turns it). Refused: two different sizes in one value,
 * mixed units, a unitless pair inside other words, sizes outside {@link MIN_PRINT_CM}…{@link MAX_PRINT_CM}.
 *
 * @example
 * parseSizeText('16"x20"', 'cm'); // { widthCm: 40.64, heightCm: 50.8 }
 * parseSizeText('A4', 'in');      // { widthCm: 21, heightCm: 29.7 }
 * parseSizeText('Oak frame', 'cm'); // null
 */
export function parseSizeText(value: string, defaultUnit: LengthUnit): SizeCm | null {
  const text = value.trim();
  if (text === '' || text.length > 200) return null;
  const found: SizeCm[] = [];
  for (const m of text.matchAll(PAIR)) {
    const wholeValue = m[0].trim().length === text.length;
    const size = readPair(m, defaultUnit, wholeValue);
    if (size === null) return null; // an unclear size anywhere makes the whole value unclear
    found.push(size);
  }
  const landscape = /\b(landscape|quer|paysage)\b/iu.test(text);
  for (const paper of text.matchAll(PAPER)) {
    const [w, h] = ISO_A_MM[paper[1].toLowerCase()];
    found.push({ widthCm: (landscape ? h : w) / 10, heightCm: (landscape ? w : h) / 10 });
  }
  if (found.length === 0) return null;
  // "50 x 70 cm / 19.7 x 27.6 in" names one size twice; "50 x 70 or 70 x 100 cm" names two.
  if (!found.every((s) => same(s, found[0]))) return null;
  return isBelievable(found[0]) ? found[0] : null;
}
