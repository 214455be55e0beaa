import { type CsvDelimiter, parseDecimal } from '@app/catalogue';
import type { ItemCatalogue, StoredVariant } from '@app/persistence';
import { UserError } from '@app/pipeline';
import { presentationShape } from '@app/plugins';
import { ApiError } from '../http/api-error';
import type { PresentationInput } from '../showcases/item/presentation-request';
import { sameJson } from '../showcases/item/item-edit.schema';
import { itemLabelShape, itemSizeShape } from '../showcases/item/item-fields.schema';
import { parseItem } from '../showcases/item/item-request';
import { parseNewVariants, variantsToBuild } from '../showcases/item/variant-requests';
import { VARIANT_LIMITS, VARIANT_LOOK_FIELDS } from '../showcases/item/variants.schema';

/**
 * One data row of a catalogue import, from a CSV row or a JSON `items` entry to what the import needs: the
 * item it creates (validated with the schema of POST /api/v2/showcases' items), or why it cannot, and the
 * fields it changes on the item that already has its `external_id`. Consecutive rows with a `sku` and the same
 * `external_id` are one item whose variants they are ({@link VariantRowGrouper}). Pure: no I/O.
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
const BOOLEAN_COLUMNS = new Set(['allow_scaling', 'variant_default']);

/**
 * The columns (and flat JSON keys) only a variant row has: its SKU (which makes the row a variant of the item
 * with its `external_id`), the name the page's selector shows, and whether it is the item's default variant.
 */
export const VARIANT_COLUMNS = ['sku', 'variant_name', 'variant_default'] as const;
/** A variant row's own column -> the field of the variant (`variants[i]` of an item). */
const VARIANT_KEYS: Readonly<Record<string, string>> = { sku: 'sku', variant_name: 'name', variant_default: 'default' };
/**
 * The fields a variant row gives its variant, not the item (API names: the CSV's frame and mat columns are
 * `frame` and `mat` by then): commerce, availability, size and look. The others (the picture, title,
 * subtitle, label, external_id, position) are the item's, taken from its first row.
 */
export const VARIANT_ROW_FIELDS: ReadonlySet<string> = new Set([
  'price',
  'link_url',
  'call_to_action',
  'availability',
  ...Object.keys(itemSizeShape),
  ...VARIANT_LOOK_FIELDS,
]);

/** Every column a catalogue CSV may have (normalised names), besides `file` in a multipart import. */
export const CSV_COLUMNS: readonly string[] = [
  'image_url',
  ...Object.keys(presentationShape).filter((k) => k !== 'mat'),
  ...Object.keys(FRAME_COLUMNS),
  ...Object.keys(MAT_COLUMNS),
  ...Object.keys(itemSizeShape),
  ...Object.keys(itemLabelShape),
  ...VARIANT_COLUMNS,
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

/** A problem and the data row it is reported on. */
export interface RowAt extends RowProblem {
  row: number;
}

/** What a new item made from the row is. */
export interface NewRowItem {
  /** The picture: a URL, or the filename of a file part (multipart). */
  imageUrl?: string;
  file?: string;
  presentation: PresentationInput;
  catalogue: Partial<ItemCatalogue>;
  /** Its variants (a JSON item's `variants`, or a group of variant rows). */
  variants?: StoredVariant[];
}

/** The variant rows that make one item: consecutive rows with a `sku` and the same `external_id`. */
export interface VariantGroup {
  /** The external_id the rows share (as written, trimmed). */
  externalId: string;
  /** Every row of the group, in order, with its SKU (as written, trimmed; `''` when it has none that is text). */
  rows: { row: number; sku: string }[];
  /** Its problems, each on its row (absent: none); the group's other rows are reported "not imported". */
  problems?: RowAt[];
}

/**
 * A data row, checked; or a group of variant rows, checked as the one item they make (`row` is its first row;
 * it is created, charged and updated once, and reported on each of its rows).
 */
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
  /** A group of variant rows: the item's fields come from its first row, `patch.variants` are its rows' variants. */
  group?: VariantGroup;
  /** Read from a CSV: fields are reported as its columns (`frame_color`, not `frame.color`). */
  csv?: boolean;
}

const clip = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * A CSV row as a JSON item: an empty cell is not given, number columns are read with `parseDecimal` (so a
 * `;` file's decimal commas and thousands dots work), `allow_scaling` takes true/false/yes/no/1/0, `frame` is
 * the style and `frame_color` / `frame_width_inches` the frame's other fields, `mat_width_inches` /
 * `mat_color` the mat. Cells are trimmed. A cell that cannot be read (a number, a NUL) is the row's problem (the
 * first one); the other cells are still read, so the row's sku and external_id are known.
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
  let problem: RowProblem | undefined;
  for (const [column, raw] of Object.entries(values)) {
    const cell = raw.trim();
    if (cell === '') continue;
    // Postgres refuses NUL in text (the JSON bodies are checked for it globally; a CSV is read here).
    if (cell.includes('\0')) {
      problem ??= { field: column, message: 'must not contain NUL (\\u0000) characters' };
      continue;
    }
    let v: unknown = cell;
    if (NUMBER_COLUMNS.has(column)) {
      const n = parseDecimal(cell, { delimiter });
      if (n === null || n === undefined) {
        const hint = delimiter === ';' ? ' (a decimal comma or point, no thousands separator)' : ' (with a decimal point)';
        problem ??= { field: column, message: `must be a number${hint}, not "${clip(cell)}"` };
        continue;
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
  return problem ? { item, problem } : { item };
}

/** `items[4].frame.color: must be …` -> field `frame.color` (CSV: `frame_color`), message `must be …`. */
export function rowProblem(e: { param?: string; message: string }, index: number, csv: boolean): RowProblem {
  const prefix = `items[${index}]`;
  const param = e.param ?? '';
  const path = param.startsWith(prefix) ? param.slice(prefix.length).replace(/^\./, '') : param;
  const message = param && e.message.startsWith(`${param}: `) ? e.message.slice(param.length + 2) : e.message;
  return { field: csv ? (CSV_FIELD[path] ?? path) : path, message };
}

/** A validation error (a 400: UserError, or an ApiError such as item_has_variants) as its param and message; null for any other error. */
export function validationError(e: unknown): { param?: string; message: string } | null {
  if (e instanceof UserError) return { param: e.param, message: e.message };
  if (e instanceof ApiError && e.status === 400) return { param: e.param, message: e.message };
  return null;
}

/** A variant's field as its row names it: `name` is `variant_name`, `default` `variant_default`; CSV: the columns. */
function variantRowField(path: string, csv: boolean): string {
  const [head] = path.split('.');
  const key = Object.entries(VARIANT_KEYS).find(([, f]) => f === head)?.[0];
  const field = key && head === path ? key : path;
  return csv ? (CSV_FIELD[field] ?? field) : field;
}

/**
 * An error of a group's item (`items[i]...`, the item's fields: its first row) or of one of its variants
 * (`items[i].variants[k]...`: the k-th of `rows`), as that row's problem; variants named in the message are
 * named by their rows ("DUNES-A3 is also row 3's").
 */
export function groupProblem(e: { param?: string; message: string }, index: number, rows: readonly number[], csv: boolean): RowAt {
  const param = e.param ?? '';
  const at = (k: string) => rows[Number(k)] ?? rows[0];
  let message = param && e.message.startsWith(`${param}: `) ? e.message.slice(param.length + 2) : e.message;
  message = message.replace(/items\[\d+\]\.variants\[(\d+)\]/g, (_, k: string) => `row ${at(k)}`);
  const prefix = `items[${index}]`;
  const path = param.startsWith(prefix) ? param.slice(prefix.length).replace(/^\./, '') : param;
  const v = /^variants\[(\d+)\]\.?(.*)$/.exec(path);
  if (v) return { row: at(v[1]), field: variantRowField(v[2], csv), message };
  return { row: rows[0], field: csv ? (CSV_FIELD[path] ?? path) : path, message };
}

/** The data rows of a checked row: its own, or its group's. */
export const rowsOf = (c: CheckedRow): number[] => (c.group ? c.group.rows.map((r) => r.row) : [c.row]);

/**
 * What to report for each data row of an invalid checked row: its problem; in a group each row its own, and
 * the group's other rows that they were not imported because of the first row at fault.
 */
export function rowReports(c: CheckedRow, problems?: readonly RowAt[]): RowAt[] {
  const list = problems ?? c.group?.problems ?? (c.problem ? [{ row: c.row, ...c.problem }] : []);
  const first = list[0] ?? { row: c.row, field: '', message: 'invalid' };
  if (!c.group) return [{ ...first, row: c.row }];
  const byRow = new Map<number, RowAt>();
  for (const p of list) if (!byRow.has(p.row)) byRow.set(p.row, p);
  const note = `not imported: row ${first.row} of the same item (external_id ${c.group.externalId}) is invalid`;
  return c.group.rows.map(({ row }) => byRow.get(row) ?? { row, field: '', message: note });
}

/** A validation error of a checked row's update or create, as what to report on each of its rows. */
export function errorReports(c: CheckedRow, e: { param?: string; message: string }): RowAt[] {
  if (!c.group) return [{ row: c.row, ...rowProblem(e, c.row - 1, !!c.csv) }];
  const rows = rowsOf(c);
  return rowReports(c, [groupProblem(e, c.row - 1, rows, !!c.csv)]);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The rows a JSON body's items make, counted as a CSV has them (an item's `variants` one row each, as its
 * variant rows would be) before any item is checked: at the item that takes the count past `max` the body is
 * refused whole, 400 `too_many_rows` naming that item's `variants`. So 5,000 items of 24 variants (120,000 to
 * check) cost a count of 209 items, not a check of every variant.
 */
export function checkJsonRowCount(items: readonly unknown[], max: number): void {
  let rows = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const variants = isObject(item) ? item.variants : undefined;
    rows += Array.isArray(variants) ? Math.max(1, variants.length) : 1;
    if (rows > max) {
      const param = Array.isArray(variants) ? `items[${i}].variants` : `items[${i}]`;
      throw ApiError.invalid(
        param,
        `${param}: an import has at most ${max} rows, each variant of an item counting as one (as its rows in a CSV): items[0..${i}] make ${rows}; split the catalogue`,
        'too_many_rows',
      );
    }
  }
}

/** Whether a row (a CSV row read as an item, or a JSON entry) is a variant row: it has a `sku`. */
export const isVariantRow = (value: unknown): value is Record<string, unknown> =>
  isObject(value) && value.sku !== undefined && value.sku !== null;

/** A variant row's fields: the item's, and its variant's (`{sku, name, default, price, width_cm, frame, ...}`). */
export function splitVariantRow(value: Readonly<Record<string, unknown>>): {
  item: Record<string, unknown>;
  variant: Record<string, unknown>;
} {
  const item: Record<string, unknown> = {};
  const variant: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k in VARIANT_KEYS) variant[VARIANT_KEYS[k]] = v;
    else if (VARIANT_ROW_FIELDS.has(k)) variant[k] = v;
    else item[k] = v;
  }
  return { item, variant };
}

const trimmed = (v: unknown): string => (typeof v === 'string' ? v.trim() : '');

/**
 * Checks one data row (`row` from 1) as a new item of a showcase with these presentation defaults, with the
 * schema and merge of POST /api/v2/showcases' items (`parseItem`; a JSON item may have its `variants`). With
 * `files` (multipart), a row may name a file part in `file` instead of giving `image_url`.
 */
export function checkRow(
  row: number,
  value: unknown,
  defaults: PresentationInput,
  opts: { files: boolean; csv: boolean; problem?: RowProblem },
): CheckedRow {
  const csv = opts.csv ? { csv: true } : {};
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { row, externalId: null, problem: { field: '', message: 'must be an object {image_url, title, ...}' }, patch: {}, ...csv };
  const sent = value as Record<string, unknown>;
  const ext = itemLabelShape.external_id.safeParse(sent.external_id);
  const externalId = ext.success && typeof ext.data === 'string' ? ext.data : null;
  const { image_url: _url, ...rest } = sent;
  const patch = opts.files ? Object.fromEntries(Object.entries(rest).filter(([k]) => k !== FILE_COLUMN)) : rest;
  // A cell that could not be read: the row is invalid, also as an update (its other cells were not all read).
  if (opts.problem) return { row, externalId: null, problem: opts.problem, patch: {}, ...csv };
  const lone = VARIANT_COLUMNS.find((k) => k !== 'sku' && sent[k] !== undefined && sent[k] !== null);
  if (lone)
    return {
      row,
      externalId: null,
      problem: { field: lone, message: "only for a variant row: give the variant's sku (and the item's external_id)" },
      patch: {},
      ...csv,
    };
  const index = row - 1;
  try {
    if (opts.files && sent[FILE_COLUMN] !== undefined) {
      const file = sent[FILE_COLUMN];
      if (sent.image_url !== undefined && sent.image_url !== null)
        return { row, externalId, problem: { field: FILE_COLUMN, message: 'give image_url or file, not both' }, patch, ...csv };
      if (typeof file !== 'string' || file.trim() === '')
        return { row, externalId, problem: { field: FILE_COLUMN, message: 'must name a file part (its filename)' }, patch, ...csv };
      const it = parseItem(patch, index, defaults, { withUrl: false });
      return { row, externalId, create: newRowItem({ file }, it), patch, ...csv };
    }
    const it = parseItem(sent, index, defaults, { withUrl: true });
    return { row, externalId, create: newRowItem({ imageUrl: it.imageUrl! }, it), patch, ...csv };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    const problem = rowProblem(e, index, opts.csv);
    // A multipart row with neither source: say both.
    if (opts.files && problem.field === 'image_url' && sent.image_url === undefined)
      return {
        row,
        externalId,
        problem: { field: 'image_url', message: 'required: give image_url or name a file part in file' },
        patch,
        ...csv,
      };
    return { row, externalId, problem, patch, ...csv };
  }
}

function newRowItem(source: { imageUrl?: string; file?: string }, it: ReturnType<typeof parseItem>): NewRowItem {
  return { ...source, presentation: it.presentation, catalogue: it.catalogue, ...(it.variants?.length ? { variants: it.variants } : {}) };
}

/** One data row of a group, as read. */
interface GroupRow {
  row: number;
  value: Record<string, unknown>;
  problem?: RowProblem;
}

/** The picture's source fields: later rows of a group may repeat the first row's or leave them empty. */
const SOURCE_FIELDS = new Set(['image_url', FILE_COLUMN]);

/**
 * A later row's item fields against the group's first row's (the item's): each must be left out (an empty cell)
 * or the same. The first difference is the row's problem.
 */
function itemConflict(first: GroupRow, item: Record<string, unknown>, base: Record<string, unknown>): RowProblem | undefined {
  for (const [k, v] of Object.entries(item)) {
    if (k === 'external_id' || v === undefined || sameJson(v, base[k])) continue;
    if (SOURCE_FIELDS.has(k))
      return {
        field: k,
        message: `not row ${first.row}'s picture: the rows of one item share its picture (repeat it or leave the cell empty)`,
      };
    return {
      field: k,
      message:
        base[k] === undefined
          ? `row ${first.row}, the item's first row, does not give it: an item's fields come from its first row`
          : `differs from row ${first.row}'s: an item's fields come from its first row (repeat them or leave the cells empty)`,
    };
  }
  return undefined;
}

/**
 * Checks a group of variant rows (consecutive rows with a `sku` and the same `external_id`; at most
 * VARIANT_LIMITS.perItem, the rows past it in `extra`) as one item: its fields (picture, title, label...) from
 * the first row, its variants one per row, in row order.
 *
 * What no update can take either makes the whole group invalid (no external id: nothing is created or
 * updated): a cell that cannot be read, an item field that differs from the first row's, too many rows. A
 * variant or item that is not valid as a new item leaves the update possible (as for a single row), checked
 * again by the update: each row is checked, then the group as a whole (SKUs unique, one default).
 */
export function checkGroup(
  externalId: string,
  rows: readonly GroupRow[],
  extra: readonly { row: number; sku: string }[],
  defaults: PresentationInput,
  opts: { files: boolean; csv: boolean },
): CheckedRow {
  const first = rows[0];
  const csv = opts.csv ? { csv: true } : {};
  const split = rows.map((r) => ({ ...r, ...splitVariantRow(r.value) }));
  const all = [...rows.map((r) => ({ row: r.row, sku: trimmed(r.value.sku) })), ...extra];
  const group = (problems?: RowAt[]): VariantGroup => ({ externalId, rows: all, ...(problems?.length ? { problems } : {}) });
  const base = split[0].item;

  const whole: RowAt[] = [];
  split.forEach((r, j) => {
    const p =
      r.problem ??
      (r.item.variants !== undefined
        ? {
            field: 'variants',
            message: 'a variant row (with a sku) is one variant: give an item its variants as a list or as rows, not both',
          }
        : j > 0
          ? itemConflict(first, r.item, base)
          : undefined);
    if (p) whole.push({ row: r.row, ...p });
  });
  const total = rows.length + extra.length;
  for (const x of extra)
    whole.push({
      row: x.row,
      field: 'sku',
      message: `an item has at most ${VARIANT_LIMITS.perItem} variants: external_id ${externalId} has ${total} variant rows`,
    });
  if (whole.length) return { row: first.row, externalId: null, problem: strip(whole[0]), patch: {}, group: group(whole), ...csv };

  const index = first.row - 1;
  const entries = split.map((r) => r.variant);
  // Each variant over the item (its picture aside), so every row at fault is named, not only the first.
  const { image_url: _u, [FILE_COLUMN]: _f, ...noSource } = base;
  let itemInput: PresentationInput = { ...defaults };
  try {
    itemInput = parseItem(noSource, index, defaults, { withUrl: false }).presentation;
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
  }
  const variantProblems: RowAt[] = [];
  for (const r of split) {
    try {
      parseNewVariants([r.variant], itemInput, `items[${index}].variants`);
    } catch (e) {
      if (!(e instanceof UserError)) throw e;
      variantProblems.push(groupProblem(e, index, [r.row], opts.csv));
    }
  }
  const checked = checkRow(first.row, { ...base, variants: entries }, defaults, { files: opts.files, csv: false });
  const ext = checked.externalId;
  const patch = checked.patch;
  if (variantProblems.length)
    return { row: first.row, externalId: ext, problem: strip(variantProblems[0]), patch, group: group(variantProblems), ...csv };
  if (checked.problem) {
    // checkRow named the field without the items[i] prefix: put it back to find the variant's row.
    const { field, message } = checked.problem;
    const p = groupProblem(
      { param: field ? `items[${index}].${field}` : '', message },
      index,
      all.map((r) => r.row),
      opts.csv,
    );
    return { row: first.row, externalId: ext, problem: strip(p), patch, group: group([p]), ...csv };
  }
  return { row: first.row, externalId: ext, create: checked.create, patch, group: group(), ...csv };
}

const strip = ({ field, message }: RowAt): RowProblem => ({ field, message });

/**
 * Turns the data rows, in order, into checked rows: a row without a `sku` is checked on its own (as always);
 * consecutive rows with a `sku` and the same `external_id` are checked together as one item ({@link checkGroup}),
 * emitted once the group ends (the next row is not one of it, or {@link end}). Holds at most one group
 * (VARIANT_LIMITS.perItem rows). A variant row without an external_id is invalid.
 *
 * @example
 * const g = new VariantRowGrouper({}, { files: false, csv: true });
 * for (const { row, values } of rows) for (const c of g.push(row, csvItem(values, ',').item)) await intake.add(c);
 * for (const c of g.end()) await intake.add(c);
 */
export class VariantRowGrouper {
  private open: { key: string; rows: GroupRow[]; extra: { row: number; sku: string }[] } | null = null;

  constructor(
    private readonly defaults: PresentationInput,
    private readonly opts: { files: boolean; csv: boolean },
  ) {}

  /** The next data row; returns the checked rows that are complete now (the group it ends, then itself unless it is a variant row). */
  push(row: number, value: unknown, problem?: RowProblem): CheckedRow[] {
    if (!isVariantRow(value)) return [...this.end(), checkRow(row, value, this.defaults, { ...this.opts, problem })];
    const key = trimmed(value.external_id);
    if (!key) {
      const given = typeof value.external_id !== 'string' && value.external_id !== undefined && value.external_id !== null;
      const p = problem ?? {
        field: 'external_id',
        message: given
          ? "must be a string: the item's id, which its variant rows share"
          : "required with a sku: an item's variant rows follow each other and share the item's external_id",
      };
      return [...this.end(), { row, externalId: null, problem: p, patch: {}, ...(this.opts.csv ? { csv: true } : {}) }];
    }
    const out = this.open && this.open.key !== key ? this.end() : [];
    this.open ??= { key, rows: [], extra: [] };
    if (this.open.rows.length < VARIANT_LIMITS.perItem) this.open.rows.push({ row, value, ...(problem ? { problem } : {}) });
    else this.open.extra.push({ row, sku: trimmed(value.sku) });
    return out;
  }

  /** The last group, checked (the rows are all read). */
  end(): CheckedRow[] {
    const g = this.open;
    this.open = null;
    return g ? [checkGroup(g.key, g.rows, g.extra, this.defaults, this.opts)] : [];
  }
}

/** What an update did (or would do) to one variant row's variant. */
export interface VariantRowOutcome {
  row: number;
  /** Its variant is new or different (or, the group's first row, the item's own fields changed or variants were removed). */
  changed: boolean;
  /** Its files are (would be) built again: new, or a different size or look. */
  rebuilt: boolean;
}

/** A variant's fields that are the row's (its files, build state and id aside). */
const comparable = (v: StoredVariant) => {
  const { id: _i, built: _b, main: _m, pending_job_id: _p, error: _e, ...rest } = v;
  return rest;
};

/**
 * Each variant row's outcome of an update of its item, the item's variants `before` and `after` it (null:
 * none): a row is changed when its variant is new or different, rebuilt when that needs new files (as
 * ItemEdits decides it). The item's own changes (`itemChanged`: label, banner, availability, position) and
 * variants the update removed are the first row's; an update that `changed` something no row explains (the
 * default moved, the order) too.
 */
export function variantRowOutcomes(
  rows: readonly { row: number; sku: string }[],
  before: readonly StoredVariant[] | null,
  after: readonly StoredVariant[] | null,
  opts: { changed: boolean; itemChanged: boolean },
): VariantRowOutcome[] {
  if (!opts.changed) return rows.map(({ row }) => ({ row, changed: false, rebuilt: false }));
  const was = new Map((before ?? []).map((v) => [v.sku, v]));
  const now = new Map((after ?? []).map((v) => [v.sku, v]));
  const build = new Set(variantsToBuild(after ?? [], before?.length ? before : null).map((v) => v.sku));
  const out = rows.map(({ row, sku }) => {
    const o = was.get(sku);
    const n = now.get(sku);
    const changed = !o || !n || !sameJson(comparable(o), comparable(n));
    return { row, changed, rebuilt: changed && !!n && build.has(sku) };
  });
  const removed = [...was.keys()].some((sku) => !now.has(sku));
  if (out.length && (opts.itemChanged || removed || !out.some((o) => o.changed))) out[0].changed = true;
  return out;
}
