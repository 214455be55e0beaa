import type { CsvDelimiter } from './sniff-delimiter';

const PLAIN = /^[+-]?\d+(\.\d+)?$/;
const DECIMAL_COMMA = /^([+-]?\d+),(\d+)$/;
// Dots between groups of three digits, and perhaps a decimal comma: "1.234,5", "12.345.678". The first group
// never starts with 0, so "0.125" is a plain decimal.
const THOUSANDS_DOTS = /^([+-]?[1-9]\d{0,2}(?:\.\d{3})+)(?:,(\d+))?$/;

/**
 * Reads a number as a spreadsheet wrote it into a CSV cell. Surrounding whitespace is ignored. Returns
 * `undefined` for an empty cell (a missing value, which the caller may allow), `null` for text that is not a number
 * (which the caller reports with its row), and the number otherwise; it never guesses.
 *
 * The delimiter tells the locale: spreadsheets write `;` files where `,` is the decimal separator. So:
 * - with `,` (and tab, whose files come from either kind of locale, so a comma there proves nothing) only the plain
 *   form is read: an optional sign, digits, perhaps `.` and digits ("76.2", "-3", "+0.5");
 * - with `;` a decimal comma ("76,2") and thousands dots ("1.234,5", "12.345.678") are read too, besides the plain
 *   form. One dot before exactly three digits ("1.234") could mean 1234 or 1.234, so it is `null`; write "1234",
 *   "1.234,0" or "1,234" instead.
 *
 * Not read, by design: exponents ("1e3"), spaces as thousands separators ("1 234"), "Infinity", "NaN", hex, a lone
 * separator at either end ("5.", ",5").
 *
 * @example
 * parseDecimal('76.2', { delimiter: ',' });     // 76.2
 * parseDecimal('76,2', { delimiter: ',' });     // null (in a comma file that is two cells gone wrong, not a number)
 * parseDecimal(' 76,2 ', { delimiter: ';' });   // 76.2
 * parseDecimal('1.234,5', { delimiter: ';' });  // 1234.5
 * parseDecimal('1.234', { delimiter: ';' });    // null (ambiguous)
 * parseDecimal('', { delimiter: ';' });         // undefined
 * parseDecimal('about 30', { delimiter: ',' }); // null
 */
export function parseDecimal(text: string, options: { readonly delimiter: CsvDelimiter }): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (options.delimiter !== ';') return PLAIN.test(trimmed) ? Number(trimmed) : null;
  const grouped = THOUSANDS_DOTS.exec(trimmed);
  if (grouped) {
    const [, integer, fraction] = grouped;
    // "1.234" in a decimal-comma file: thousands dots or a decimal point? There is no telling.
    if (fraction === undefined && integer.split('.').length === 2) return null;
    return Number(`${integer.replace(/\./g, '')}.${fraction ?? '0'}`);
  }
  const comma = DECIMAL_COMMA.exec(trimmed);
  if (comma) return Number(`${comma[1]}.${comma[2]}`);
  return PLAIN.test(trimmed) ? Number(trimmed) : null;
}
