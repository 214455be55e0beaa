import { type CsvDelimiter, parseDecimal } from '@app/catalogue';
import type { ItemCatalogue } from '@app/persistence';
import { UserError } from '@app/pipeline';
import { presentationShape } from '@app/plugins';
import type { PresentationInput } from '../presentation/presentation-request';
import { itemLabelShape, itemSizeShape, parseItem } from '../showcases/showcases.schema';

/**
 * One data row of a catalogue import, from a CSV row or a JSON `items` entry to what the import needs: the
 * item it creates (validated with the schema of POST /api/v2/showcases' items), or why it cannot, and the
 * fields it changes on the item that already has its `external_id`. Pure: no I/O.
 */

/** CSV columns that hold the nested frame: `frame` is the style, these its other fields. */
export const FRAME_COLUMNS: Readonly<Record<string, string>> = { frame_color: 'color', frame_width_inches: 'width_inches' };
/** CSV columns that hold the mat. */
export const MAT_COLUMNS: Readonly<Record<string, string>> = { mat_width_inches: 'width_inches', mat_color: 'color' };
/** Multipart imports: the column naming a picture file part (its filename). */
export const FILE_COLUMN = 'file';

/** Columns read as numbers with `parseDecimal` (a `;` file may write `76,2`). */
const NUMBER_COLUMNS = new Set([
  ...Object.keys(itemSizeShape).filter((k) => k !== 'fit'),
  'position',
  'frame_width_inches',
  'mat_width_inches',
]);
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
const BOOLEAN_COLUMNS = new Set(['allow_scaling']);

/** Every column a catalogue CSV may have (normalised names), besides `file` in a multipart import. */
export const CSV_COLUMNS: readonly string[] = [
  'image_url',
  ...Object.keys(presentationShape).filter((k) => k !== 'mat'),
  ...Object.keys(FRAME_COLUMNS),
  ...Object.keys(MAT_COLUMNS),
  ...Object.keys(itemSizeShape),
  ...Object.keys(itemLabelShape),
];

/** A CSV field error names the column, not the JSON path the columns became. */
const CSV_FIELD: Readonly<Record<string, string>> = {
  'frame.style': 'frame',
  'frame.color': 'frame_color',
  'frame.width_inches': 'frame_width_inches',
  'frame.depth_inches': 'depth_inches',
  mat: 'mat_width_inches',
  'mat.width_inches': 'mat_width_inches',
  'mat.color': 'mat_color',
};

export interface RowProblem {
  /** The field (CSV: the column) at fault; `''` when it is the row as a whole. */
  field: string;
  message: string;
}

/** What a new item made from the row is. */
export interface NewRowItem {
  /** The picture: a URL, or the filename of a file part (multipart). */
  imageUrl?: string;
  file?: string;
  presentation: PresentationInput;
  catalogue: Partial<ItemCatalogue>;
}

/** A data row, checked. */
export interface CheckedRow {
  /** 1 for the first data row. */
  row: number;
  /** Its `external_id` when it has a valid one: an item of the showcase with it is updated, not duplicated. */
  externalId: string | null;
  /** The item to create when no item has the external id; absent when the row is not a valid new item. */
  create?: NewRowItem;
  /** Why the row is not a valid new item (an update is still possible when it has an external id). */
  problem?: RowProblem;
  /** The row's fields as sent, without its picture source: the changes for an existing item (PATCH semantics). */
  patch: Record<string, unknown>;
}

const clip = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * A CSV row as a JSON item: an empty cell is not given, number columns are read with `parseDecimal` (so a
 * `;` file's decimal commas and thousands dots work), `allow_scaling` takes true/false/yes/no/1/0, `frame` is
 * the style and `frame_color` / `frame_width_inches` the frame's other fields, `mat_width_inches` /
 * `mat_color` the mat. Cells are trimmed. A number that cannot be read is the row's problem.
 *
 * @example
 * csvItem({ image_url: 'https://x/a.jpg', width_cm: '76,2', height_cm: '101,6', frame: 'classic', frame_color: 'oak' }, ';')
 * // { item: { image_url: 'https://x/a.jpg', width_cm: 76.2, height_cm: 101.6, frame: { style: 'classic', color: 'oak' } } }
 */
export function csvItem(
  values: Readonly<Record<string, string>>,
  delimiter: CsvDelimiter,
): { item: Record<string, unknown>; problem?: RowProblem } {
  const item: Record<string, unknown> = {};
  const frame: Record<string, unknown> = {};
  const mat: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(values)) {
    const cell = raw.trim();
    if (cell === '') continue;
    // Postgres refuses NUL in text (the JSON bodies are checked for it globally; a CSV is read here).
    if (cell.includes('\0')) return { item, problem: { field: column, message: 'must not contain NUL (\\u0000) characters' } };
    let v: unknown = cell;
    if (NUMBER_COLUMNS.has(column)) {
      const n = parseDecimal(cell, { delimiter });
      if (n === null || n === undefined) {
        const hint = delimiter === ';' ? ' (a decimal comma or point, no thousands separator)' : ' (with a decimal point)';
        return { item, problem: { field: column, message: `must be a number${hint}, not "${clip(cell)}"` } };
      }
      v = n;
    } else if (BOOLEAN_COLUMNS.has(column)) {
      v = BOOLEANS[cell.toLowerCase()] ?? cell;
    }
    if (column in FRAME_COLUMNS) frame[FRAME_COLUMNS[column]] = v;
    else if (column in MAT_COLUMNS) mat[MAT_COLUMNS[column]] = v;
    else item[column] = v;
  }
  if (Object.keys(frame).length) item.frame = { ...(item.frame !== undefined ? { style: item.frame } : {}), ...frame };
  if (Object.keys(mat).length) item.mat = mat;
  return { item };
}

/** `items[4].frame.color: must be …` -> field `frame.color` (CSV: `frame_color`), message `must be …`. */
export function rowProblem(e: UserError, index: number, csv: boolean): RowProblem {
  const prefix = `items[${index}]`;
  const param = e.param ?? '';
  const path = param.startsWith(prefix) ? param.slice(prefix.length).replace(/^\./, '') : param;
  const message = param && e.message.startsWith(`${param}: `) ? e.message.slice(param.length + 2) : e.message;
  return { field: csv ? (CSV_FIELD[path] ?? path) : path, message };
}

/**
 * Checks one data row (`row` from 1) as a new item of a showcase with these presentation defaults, with the
 * schema and merge of POST /api/v2/showcases' items (`parseItem`). With `files` (multipart), a row may name
 * a file part in `file` instead of giving `image_url`.
 */
export function checkRow(
  row: number,
  value: unknown,
  defaults: PresentationInput,
  opts: { files: boolean; csv: boolean; problem?: RowProblem },
): CheckedRow {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { row, externalId: null, problem: { field: '', message: 'must be an object {image_url, title, ...}' }, patch: {} };
  const sent = value as Record<string, unknown>;
  const ext = itemLabelShape.external_id.safeParse(sent.external_id);
  const externalId = ext.success && typeof ext.data === 'string' ? ext.data : null;
  const { image_url: _url, ...rest } = sent;
  const patch = opts.files ? Object.fromEntries(Object.entries(rest).filter(([k]) => k !== FILE_COLUMN)) : rest;
  // A cell that could not be read: the row is invalid, also as an update (its other cells were not all read).
  if (opts.problem) return { row, externalId: null, problem: opts.problem, patch: {} };
  const index = row - 1;
  try {
    if (opts.files && sent[FILE_COLUMN] !== undefined) {
      const file = sent[FILE_COLUMN];
      if (sent.image_url !== undefined && sent.image_url !== null)
        return { row, externalId, problem: { field: FILE_COLUMN, message: 'give image_url or file, not both' }, patch };
      if (typeof file !== 'string' || file.trim() === '')
        return { row, externalId, problem: { field: FILE_COLUMN, message: 'must name a file part (its filename)' }, patch };
      const it = parseItem(patch, index, defaults, { withUrl: false });
      return { row, externalId, create: { file, presentation: it.presentation, catalogue: it.catalogue }, patch };
    }
    const it = parseItem(sent, index, defaults, { withUrl: true });
    return { row, externalId, create: { imageUrl: it.imageUrl!, presentation: it.presentation, catalogue: it.catalogue }, patch };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    const problem = rowProblem(e, index, opts.csv);
    // A multipart row with neither source: say both.
    if (opts.files && problem.field === 'image_url' && sent.image_url === undefined)
      return { row, externalId, problem: { field: 'image_url', message: 'required: give image_url or name a file part in file' }, patch };
    return { row, externalId, problem, patch };
  }
}
