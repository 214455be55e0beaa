// Reading a gallery's catalogue CSV (streaming, as spreadsheets export it) and writing the error report back.
export { CsvError, type CsvErrorPlace } from './csv-error';
export type { CsvSource } from './decode-text';
export { normalizeHeader } from './normalize-header';
export { parseDecimal } from './parse-decimal';
export { CSV_DEFAULT_LIMITS, type CsvLimits, type CsvRow, type CsvTable, readCsv, type ReadCsvOptions } from './read-csv';
export { type CsvDelimiter, sniffDelimiter } from './sniff-delimiter';
export { toCsv, toCsvCell } from './write-csv';
