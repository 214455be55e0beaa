import { oneOf, requestSchema, z } from '@app/schema';

/** Request schemas of the catalogue import routes: each validates, words its 400s and is the OpenAPI schema. */

/** Data rows per import (a CSV's header not counted). */
export const IMPORT_MAX_ROWS = 5000;

/** JSON bodies of an import may be this large (the API's other JSON bodies: 1 MiB). */
export const IMPORT_JSON_MAX_BYTES = 16 * 1024 * 1024;

const ITEM =
  'Each entry is an item as in POST /api/v2/showcases (ShowcaseItemRequestDto: image_url, title, frame, width_cm, artist, external_id, availability, position, variants, ...), ' +
  "or, with a sku, one variant row as a CSV has it (sku, variant_name, variant_default, price, width_cm, frame, ... and the item's external_id): consecutive entries with the same external_id are one item. " +
  'Entries are checked one by one: an invalid entry is reported in rows (row = its index + 1) and does not stop the others.';

/** POST /api/v2/showcases/{id}/imports as JSON. */
export const ImportJsonBody = requestSchema(
  'CatalogueImportJsonDto',
  z.strictObject(
    {
      items: z
        .array(z.unknown(), { error: (iss) => (iss.input === undefined ? 'required' : 'must be an array of objects, one per item') })
        .min(1, { error: () => 'at least one item' })
        .max(IMPORT_MAX_ROWS, { error: () => `at most ${IMPORT_MAX_ROWS} items per import; split the catalogue` })
        .meta({ items: { type: 'object' }, maxItems: IMPORT_MAX_ROWS, description: ITEM }),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? undefined
          : 'the body must be a JSON object {items: [...]}, a text/csv file, or multipart/form-data with a "csv" part and picture files',
    },
  ),
);

/** POST /api/v2/showcases/{id}/imports as multipart/form-data (documentation: the parts are read as a stream). */
export const ImportMultipart = requestSchema(
  'CatalogueImportMultipartDto',
  z.object({
    csv: z.string().meta({
      format: 'binary',
      description:
        'The catalogue CSV (a file part or a text field named "csv"): a header row, then one row per item; a row names its picture in the "file" column (the filename of a part named "files") or gives image_url.',
    }),
    files: z
      .array(z.unknown())
      .optional()
      .meta({
        items: { type: 'string', format: 'binary' },
        description: 'Picture files (type sniffed from the bytes; UPLOAD_MAX_FILE_BYTES per file, UPLOAD_MAX_FILES per request).',
      }),
  }),
);

const flag = (description: string) =>
  z
    .preprocess((v) => (v === '' ? undefined : v), oneOf(['true', 'false'] as const, 'must be true or false').optional())
    .transform((v) => v === 'true')
    .meta({ description, documentedDefault: 'false' });

/** POST /api/v2/showcases/{id}/imports. */
export const ImportQuery = z.object({
  dry_run: flag('true: check every row and answer what the import would do and cost (200, import_preview); nothing is stored or charged.'),
});

/** GET /api/v2/imports/{id}. */
export const ImportReportQuery = z.object({
  format: oneOf(['json', 'csv'] as const)
    .optional()
    .meta({ description: 'csv: the rows as a CSV file (also with Accept: text/csv). Default json.' }),
  rows: oneOf(['problems', 'all'] as const)
    .optional()
    .meta({ description: 'problems (default): the invalid, skipped and failed rows; all: every row dealt with so far.' }),
});
