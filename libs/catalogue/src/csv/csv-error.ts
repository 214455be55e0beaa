/**
 * Where a {@link CsvError} happened. `row` is the data-row number (the first row after the header is 1, blank rows are
 * not numbered), `line` the physical line in the file where that row (or the header) starts, so a user can find it in
 * a text editor even when quoted cells hold line breaks; `column` is the header name of the cell at fault, when there
 * is one (the message says `column N` for a cell past the header).
 */
export interface CsvErrorPlace {
  readonly row?: number;
  readonly line?: number;
  readonly column?: string;
}

/**
 * Anything wrong with a catalogue CSV: its shape (an unclosed quote, too many cells), a limit, or its header.
 * `row` is `undefined` for problems with the file as a whole or with its header row.
 *
 * @example
 * try {
 *   for await (const row of table.rows) importWork(row);
 * } catch (error) {
 *   if (error instanceof CsvError) report(error.row, error.message); // "csv: row 12 (line 14): …"
 *   else throw error;
 * }
 */
export class CsvError extends Error {
  readonly row: number | undefined;
  readonly line: number | undefined;
  readonly column: string | undefined;

  /** `message` without the `csv: ` prefix, which is added here so every message carries it. */
  constructor(message: string, place: CsvErrorPlace = {}) {
    super(`csv: ${message}`);
    this.name = 'CsvError';
    this.row = place.row;
    this.line = place.line;
    this.column = place.column;
  }
}
