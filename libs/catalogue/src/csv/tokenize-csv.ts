import type { CsvDelimiter } from './sniff-delimiter';

/** One record as it stands in the file: its cells (quotes removed, `""` undone) and the line it starts on. */
export interface CsvRecord {
  readonly cells: string[];
  readonly line: number;
}

/** The limits the tokenizer enforces while it reads, so no record can grow without bound. */
export interface TokenizeLimits {
  readonly maxFieldLength: number;
  readonly maxColumns: number;
  readonly maxLineLength: number;
}

/** A problem found while tokenizing; the reader turns it into a `CsvError` with the row number, which it alone knows. */
export interface TokenizeProblem {
  readonly message: string;
  /** The line the record starts on. */
  readonly line: number;
  /** 0-based index of the cell being read, when the problem is with one cell. */
  readonly column?: number;
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const REPLACEMENT_CHARACTER = 0xfffd;

// Where the tokenizer stands within the current field.
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3; // a `"` inside a quoted field: either the closing quote or the first half of `""`

/**
 * An RFC 4180 tokenizer fed text in chunks of any size, cut anywhere: inside a quoted field, between CR and LF.
 * It holds only the record being read, and yields each record as soon as its line break is seen (the last one at
 * {@link end}, so a missing final newline is fine). CRLF, LF and a lone CR all end a record outside quotes; inside
 * quotes they are kept as they are. A quote inside an unquoted field is kept as text (`12" x 16"` is a common
 * size), but text after a closing quote is an error: it almost always means a quote inside a quoted field that
 * should have been doubled, and guessing would silently change the cell.
 */
export class CsvTokenizer {
  private readonly delimiter: number;
  private state = FIELD_START;
  private cells: string[] = [];
  private field = '';
  private fieldLength = 0;
  private recordLength = 0;
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;
  private lastWasCr = false;
  // After a CR ends a record, an LF straight after it (perhaps in the next chunk) belongs to the same line break.
  private skipLf = false;

  constructor(
    delimiter: CsvDelimiter,
    private readonly limits: TokenizeLimits,
    private readonly fail: (problem: TokenizeProblem) => never,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
  }

  /** Reads one more chunk, yielding each record it completes. */
  *feed(text: string): Generator<CsvRecord, void, undefined> {
    // Field text is copied a run at a time (from `run` up to the next special character), not a character at a time.
    let run = -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      this.countLine(c);
      if (this.skipLf) {
        this.skipLf = false;
        if (c === LF) continue;
      }
      if (c === CR || c === LF) {
        if (this.state !== QUOTED) {
          if (run >= 0) this.field += text.slice(run, i);
          run = -1;
          yield this.endRecord(c);
          continue;
        }
      } else if (c === REPLACEMENT_CHARACTER) {
        this.problem('the file is not UTF-8 text (in a spreadsheet, save it as "CSV UTF-8")');
      }
      this.growRecord();
      switch (this.state) {
        case FIELD_START:
          if (c === QUOTE) {
            this.state = QUOTED;
            this.quoteLine = this.line;
          } else if (c === this.delimiter) {
            this.endField();
          } else {
            this.state = UNQUOTED;
            this.growField();
            run = i;
          }
          break;
        case UNQUOTED:
          if (c === this.delimiter) {
            if (run >= 0) this.field += text.slice(run, i);
            run = -1;
            this.endField();
          } else {
            this.growField();
            if (run < 0) run = i; // the field began in an earlier chunk
          }
          break;
        case QUOTED:
          if (c === QUOTE) {
            if (run >= 0) this.field += text.slice(run, i);
            run = -1;
            this.state = QUOTE_IN_QUOTED;
          } else {
            this.growField();
            if (run < 0) run = i;
          }
          break;
        case QUOTE_IN_QUOTED:
          if (c === QUOTE) {
            this.growField();
            this.field += '"';
            this.state = QUOTED;
          } else if (c === this.delimiter) {
            this.endField();
          } else {
            this.problem('text after the closing quote of a quoted cell (a quote inside a quoted cell is written "")');
          }
          break;
      }
    }
    if (run >= 0) this.field += text.slice(run);
  }

  /** Ends the input: yields the last record if it had no final line break; an open quote is an error. */
  *end(): Generator<CsvRecord, void, undefined> {
    if (this.state === QUOTED) {
      this.problem(`a quoted cell opened on line ${this.quoteLine} is never closed (a missing closing ")`);
    }
    if (this.state !== FIELD_START || this.cells.length > 0) yield this.endRecord(LF);
  }

  // Physical lines, for messages only: CRLF, LF and a lone CR each count as one, inside quotes too.
  private countLine(c: number): void {
    if (c === CR || (c === LF && !this.lastWasCr)) this.line++;
    this.lastWasCr = c === CR;
  }

  private growRecord(): void {
    if (++this.recordLength > this.limits.maxLineLength) {
      this.problem(`the row is longer than ${this.limits.maxLineLength} characters${this.unclosedHint()}`, { cell: false });
    }
  }

  private growField(): void {
    if (++this.fieldLength > this.limits.maxFieldLength) {
      this.problem(`a cell is longer than ${this.limits.maxFieldLength} characters${this.unclosedHint()}`);
    }
  }

  // A runaway quoted cell is by far the likeliest reason for a huge cell, so say so.
  private unclosedHint(): string {
    return this.state === QUOTED ? ` (is the quote opened on line ${this.quoteLine} left unclosed?)` : '';
  }

  private endField(): void {
    if (this.cells.length >= this.limits.maxColumns) {
      this.problem(`the row has more than ${this.limits.maxColumns} cells`, { cell: false });
    }
    this.cells.push(this.field);
    this.field = '';
    this.fieldLength = 0;
    this.state = FIELD_START;
  }

  private endRecord(terminator: number): CsvRecord {
    this.endField();
    const record: CsvRecord = { cells: this.cells, line: this.recordLine };
    this.cells = [];
    this.recordLength = 0;
    this.recordLine = this.line;
    this.skipLf = terminator === CR;
    return record;
  }

  private problem(message: string, { cell = true } = {}): never {
    return this.fail({ message, line: this.recordLine, column: cell ? this.cells.length : undefined });
  }
}
