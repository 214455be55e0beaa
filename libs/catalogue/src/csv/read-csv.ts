import { bufferHeaderLine } from './buffer-header-line';
import { CsvError } from './csv-error';
import { type CsvSource, decodeText } from './decode-text';
import { normalizeHeader } from './normalize-header';
import { type CsvDelimiter, sniffDelimiter } from './sniff-delimiter';
import { type CsvRecord, CsvTokenizer, type TokenizeProblem } from './tokenize-csv';

/** Limits that bound the memory and work one upload can cost, whatever its size. */
export interface CsvLimits {
  /** Characters (UTF-16 code units) in one cell. */
  readonly maxFieldLength: number;
  /** Cells in one row, the header included. */
  readonly maxColumns: number;
  /** Data rows, blank rows not counted; the first row over it is an error naming that row. */
  readonly maxRows: number;
  /** Characters in one row, delimiters and quotes included; a row with quoted line breaks counts as one line. */
  readonly maxLineLength: number;
}

/** The defaults: a 5,000-work catalogue with a long description per work fits easily. */
export const CSV_DEFAULT_LIMITS: CsvLimits = Object.freeze({
  maxFieldLength: 10_000,
  maxColumns: 100,
  maxRows: 5_000,
  maxLineLength: 100_000,
});

export interface ReadCsvOptions extends Partial<CsvLimits> {
  /** Skips sniffing, for a caller that knows (it is sniffed from the header line otherwise). */
  readonly delimiter?: CsvDelimiter;
  /** The header names the caller understands (normalized like the header); any others are in `unknownHeaders`. */
  readonly knownHeaders?: readonly string[];
}

/** One data row. */
export interface CsvRow {
  /** 1 for the first non-blank row after the header, counting non-blank rows only (the numbering of error messages). */
  readonly row: number;
  /** The physical line the row starts on; it differs from `row + 1` after blank lines or cells with line breaks. */
  readonly line: number;
  /** Header name -> the cell as written (unquoted, not trimmed); `''` for a cell missing at the end of the row. */
  readonly values: Readonly<Record<string, string>>;
}

/** An open CSV: its header, read and checked, and its rows, read one at a time as they are iterated. */
export interface CsvTable {
  readonly delimiter: CsvDelimiter;
  /** The header names in column order, normalized with `normalizeHeader`. */
  readonly headers: readonly string[];
  /** One header-level `CsvError` (with `column` set) per header name not in `knownHeaders`; the caller decides. */
  readonly unknownHeaders: readonly CsvError[];
  /** The data rows; it throws a `CsvError` at the first row that cannot be read, and stops. */
  readonly rows: AsyncGenerator<CsvRow, void, undefined>;
  /** Stops reading and releases the source (destroys a `Readable`), for a caller that does not read every row. */
  close(): Promise<void>;
}

/**
 * Opens a catalogue CSV as spreadsheets export it, reading the header now and the rows as they are iterated,
 * holding one row at a time: memory stays bounded whatever the file's size (see {@link CsvLimits}).
 *
 * - RFC 4180 quoting: quoted cells may hold the delimiter, line breaks and doubled quotes `""`.
 * - CRLF, LF or a lone CR end rows; a missing final line break is fine; a UTF-8 byte-order mark is dropped.
 * - The delimiter (`,`, `;` or tab) is sniffed from the header line (see `sniffDelimiter`).
 * - Header names are normalized (see `normalizeHeader`); a duplicate, or a nameless column before the last named
 *   one, is an error. Nameless columns at the end (Excel pads the header when a cell far right was ever touched) are
 *   dropped, and cells under them must be empty.
 * - Blank rows — nothing but whitespace in every cell, which is how `,,,` rows of an export look — are skipped and
 *   not numbered: rows are numbered from 1 in the order of non-blank rows after the header, so "row 12" means the
 *   12th work in the file, whatever the blank lines. Each row and error also carries its physical `line`.
 * - A row with fewer cells than the header gets `''` for the rest; one with more (non-empty) cells is an error.
 *
 * Errors are `CsvError`s: the header's make the returned promise reject, a row's is thrown by `rows`. Bytes that
 * are not UTF-8 are an error naming their row (Excel's plain "CSV" is Windows-1252; "CSV UTF-8" is what works).
 *
 * @example
 * const table = await readCsv(createReadStream(path), { knownHeaders: ['title', 'image_url', 'width_cm'] });
 * if (table.unknownHeaders.length > 0) {
 *   await table.close();
 *   return table.unknownHeaders.map((e) => e.message); // ['csv: header: unknown column "colour"']
 * }
 * for await (const { row, values } of table.rows) {
 *   const width = parseDecimal(values.width_cm, { delimiter: table.delimiter });
 *   if (width === null) problems.push(`row ${row}: width_cm "${values.width_cm}" is not a number`);
 * }
 */
export async function readCsv(source: CsvSource, options: ReadCsvOptions = {}): Promise<CsvTable> {
  const limits = checkedLimits(options);
  const texts = decodeText(source);
  // What the tokenizer's problems are reported against: undefined row while the header is read.
  const place: { row: number | undefined; headers: readonly string[] } = { row: undefined, headers: [] };
  let records: AsyncGenerator<CsvRecord, void, undefined> | undefined;
  try {
    const { buffered, headerLine } = await bufferHeaderLine(texts, limits.maxLineLength);
    const delimiter = options.delimiter ?? sniffDelimiter(headerLine ?? '');
    const tokenizer = new CsvTokenizer(delimiter, limits, (problem) => {
      throw problemError(problem, place);
    });
    records = tokenize(tokenizer, buffered, texts);
    const { headers, line } = checkedHeader(await firstNonBlank(records));
    place.headers = headers;
    place.row = 1;
    const known = options.knownHeaders && new Set(options.knownHeaders.map(normalizeHeader));
    const unknownHeaders = known
      ? headers.filter((name) => !known.has(name)).map((name) => new CsvError(`header: unknown column "${name}"`, { column: name, line }))
      : [];
    const rows = dataRows(records, headers, limits.maxRows, place);
    const open = records;
    return {
      delimiter,
      headers,
      unknownHeaders,
      rows,
      async close() {
        await rows.return(undefined);
        await open.return(undefined);
      },
    };
  } catch (error) {
    await records?.return(undefined);
    await texts.return(undefined);
    throw error;
  }
}

function checkedLimits(options: ReadCsvOptions): CsvLimits {
  const limits = { ...CSV_DEFAULT_LIMITS };
  for (const key of Object.keys(CSV_DEFAULT_LIMITS) as (keyof CsvLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!(value >= 1)) throw new RangeError(`csv: ${key} must be at least 1, not ${value}`);
    limits[key] = value;
  }
  return limits;
}

/** Records from the text already read for the header, then the rest; ending early releases the source. */
async function* tokenize(tokenizer: CsvTokenizer, buffered: string, rest: AsyncGenerator<string, void, undefined>) {
  try {
    yield* tokenizer.feed(buffered);
    for await (const text of rest) yield* tokenizer.feed(text);
    yield* tokenizer.end();
  } finally {
    // Closing the decoder closes its `for await` over the source, which destroys a Readable.
    await rest.return(undefined);
  }
}

function isBlank(cells: readonly string[]): boolean {
  return cells.every((cell) => cell.trim() === '');
}

async function firstNonBlank(records: AsyncGenerator<CsvRecord, void, undefined>): Promise<CsvRecord | undefined> {
  for (;;) {
    const next = await records.next();
    if (next.done) return undefined;
    if (!isBlank(next.value.cells)) return next.value;
  }
}

/** Checks the header row and returns its normalized names and its line. */
function checkedHeader(record: CsvRecord | undefined): { headers: string[]; line: number } {
  if (!record) throw new CsvError('the file is empty: the first row must name the columns');
  const names = record.cells.map(normalizeHeader);
  while (names.length > 0 && names[names.length - 1] === '') names.pop();
  const firstColumn = new Map<string, number>();
  names.forEach((name, index) => {
    const place = { line: record.line, column: name || undefined };
    if (name === '') throw new CsvError(`header (line ${record.line}): column ${index + 1} has no name`, place);
    const earlier = firstColumn.get(name);
    if (earlier !== undefined) {
      throw new CsvError(`header (line ${record.line}): duplicate column "${name}" (columns ${earlier + 1} and ${index + 1})`, place);
    }
    firstColumn.set(name, index);
  });
  return { headers: names, line: record.line };
}

async function* dataRows(
  records: AsyncGenerator<CsvRecord, void, undefined>,
  headers: readonly string[],
  maxRows: number,
  place: { row: number | undefined },
): AsyncGenerator<CsvRow, void, undefined> {
  let count = 0;
  for await (const { cells, line } of records) {
    if (isBlank(cells)) continue;
    const row = count + 1;
    if (row > maxRows) throw new CsvError(`row ${row} (line ${line}): more than ${maxRows} rows; split the file`, { row, line });
    let used = cells.length;
    while (used > headers.length && cells[used - 1].trim() === '') used--;
    if (used > headers.length) {
      throw new CsvError(`row ${row} (line ${line}): ${used} cells but the header names ${headers.length} columns`, { row, line });
    }
    count = row;
    place.row = row + 1; // any problem from here on is in the next row
    // fromEntries defines properties, so a column named "__proto__" is just a column.
    yield { row, line, values: Object.fromEntries(headers.map((name, i) => [name, cells[i] ?? ''])) };
  }
}

function problemError(problem: TokenizeProblem, place: { row: number | undefined; headers: readonly string[] }): CsvError {
  const { row } = place;
  const where = row === undefined ? `header (line ${problem.line})` : `row ${row} (line ${problem.line})`;
  const name = row === undefined || problem.column === undefined ? undefined : place.headers[problem.column];
  const cell = problem.column === undefined ? '' : name !== undefined ? `, column "${name}"` : `, column ${problem.column + 1}`;
  return new CsvError(`${where}${cell}: ${problem.message}`, { row, line: problem.line, column: name });
}
