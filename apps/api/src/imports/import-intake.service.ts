import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { CsvError, type CsvSource, readCsv } from '@app/catalogue';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  CatalogueImportRepository,
  type ImportCounts,
  randomId,
  ShowcaseItemRepository,
  type ShowcaseRow,
} from '@app/persistence';
import { sniffType } from '@app/plugins';
import { parseInput } from '@app/schema';
import { APP_CONFIG, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/principal';
import type { PresentationInput } from '../showcases/item/presentation-request';
import { storeUpload } from '../showcases/picture-upload';
import { ItemEdits } from '../showcases/item-edits.service';
import { parseVariantEdit } from '../showcases/item/variant-requests';
import { CSV_TYPES } from './import-bodies';
import { type Intake, PreviewIntake, RealIntake, type UpdatePreview } from './import-intake';
import {
  type CheckedRow,
  checkJsonRowCount,
  CSV_COLUMNS,
  csvItem,
  errorReports,
  FILE_COLUMN,
  rowsOf,
  validationError,
  VariantRowGrouper,
  variantRowOutcomes,
} from './import-rows';
import { type ImportUpload, ImportRunner } from './import-runner.service';
import { IMPORT_MAX_ROWS, ImportJsonBody } from './imports.schema';
import { multipartError } from '../http/multipart-error';

/** What reading an import's upload left: a dry run's answer, or a real import spooled and counted, with its stored pictures. */
export type ImportIntakeResult =
  | { dryRun: true; preview: Awaited<ReturnType<PreviewIntake['preview']>> }
  | { dryRun: false; importId: string; spoolPath: string; uploads: Map<string, ImportUpload>; counts: ImportCounts };

/**
 * The upload of a catalogue import (JSON, a streamed CSV, or multipart with picture files and a CSV part),
 * read once, a row at a time, each row checked as a new item or an update: a dry run counts what it would
 * do; a real import's checked rows go to its spool file (never all into memory), its pictures to storage,
 * for {@link ImportRunner} to run. ShowcaseGoneError when the showcase (and the import with it) is deleted
 * meanwhile.
 */
@Injectable()
export class ImportIntake {
  constructor(
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly imports: CatalogueImportRepository,
    private readonly accounts: AccountRepository,
    private readonly runner: ImportRunner,
    private readonly itemEdits: ItemEdits,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Reads the upload of an import into showcase `s`. A real import is recorded first and tracked by the runner
   * while its upload is read; on any error it is untracked and removed with its spool, and the pictures stored
   * so far are deleted.
   */
  async read(
    p: Principal,
    s: ShowcaseRow,
    req: FastifyRequest,
    opts: { dryRun: boolean; pictureCents: number },
  ): Promise<ImportIntakeResult> {
    const { dryRun } = opts;
    const intake = dryRun
      ? new PreviewIntake(s, this.imports, (r, itemId) => this.previewUpdate(s, r, itemId))
      : await RealIntake.open(s, p.userId, this.imports, this.config.dataDir);
    if (intake instanceof RealIntake) this.runner.track(intake.importId);
    const uploads = new Map<string, ImportUpload>();
    let counts: ImportCounts | null = null;
    try {
      const type = String(req.headers['content-type'] ?? '')
        .split(';')[0]
        .trim()
        .toLowerCase();
      if (req.isMultipart()) await this.readMultipart(req, s, intake, uploads, dryRun);
      else if (CSV_TYPES.includes(type))
        await this.readCsvRows(requestBytes(req.raw, this.config.showcases.maxFileBytes), s.presentationDefaults, intake, false, 'body');
      else await this.readJson(req.body, s.presentationDefaults, intake);
      if (!intake.rows) throw ApiError.invalid('body', 'the import has no rows: send at least one item', 'parameter_missing');
      await intake.filesKnown(new Set(uploads.keys()));
      if (intake instanceof RealIntake) counts = await intake.finish();
    } catch (e) {
      if (intake instanceof RealIntake) {
        this.runner.untrack(intake.importId);
        await intake.discard();
      }
      await Promise.all([...uploads.values()].filter((u) => u.key).map((u) => this.storage.delete(u.key).catch(() => undefined)));
      throw e;
    }
    if (intake instanceof PreviewIntake)
      return {
        dryRun: true,
        preview: await intake.preview(this.accounts, this.showcaseItems, p, opts.pictureCents, this.config.showcases.maxItems),
      };
    // finish() above stored them.
    if (!counts) throw new Error(`import ${intake.importId}: no counts`);
    return { dryRun: false, importId: intake.importId, spoolPath: intake.spoolPath, uploads, counts };
  }

  /** JSON items: each an item (its `variants` a list), or, with a `sku`, a variant row grouped by external_id as a CSV's. */
  private async readJson(body: unknown, defaults: PresentationInput, intake: Intake): Promise<void> {
    const { items } = parseInput(ImportJsonBody, body ?? null);
    // Counted before any is checked: a body over the cap costs a count, not a check of every variant.
    checkJsonRowCount(items, IMPORT_MAX_ROWS);
    const rows = new VariantRowGrouper(defaults, { files: false, csv: false });
    for (let i = 0; i < items.length; i++) for (const c of rows.push(i + 1, items[i])) await intake.add(c);
    for (const c of rows.end()) await intake.add(c);
  }

  /** A catalogue CSV, one row at a time. A file that cannot be read (shape, limits, encoding) is refused whole. */
  private async readCsvRows(source: CsvSource, defaults: PresentationInput, intake: Intake, files: boolean, param: string): Promise<void> {
    const known = files ? [...CSV_COLUMNS, FILE_COLUMN] : CSV_COLUMNS;
    const csvError = (e: unknown) => (e instanceof CsvError ? ApiError.invalid(param, e.message, 'invalid_csv') : e);
    const table = await readCsv(source, { knownHeaders: known, maxRows: IMPORT_MAX_ROWS }).catch((e: unknown) => {
      throw csvError(e);
    });
    if (table.unknownHeaders.length) {
      await table.close();
      const names = table.unknownHeaders.map((e) => `"${e.column}"`).join(', ');
      throw ApiError.invalid(
        table.unknownHeaders[0].column ?? param,
        `csv: unknown column${table.unknownHeaders.length > 1 ? 's' : ''} ${names}; the columns are ${known.join(', ')}`,
        'parameter_unknown',
      );
    }
    try {
      const rows = new VariantRowGrouper(defaults, { files, csv: true });
      for await (const { row, values } of table.rows) {
        const { item, problem } = csvItem(values, table.delimiter);
        for (const c of rows.push(row, item, problem)) await intake.add(c);
      }
      for (const c of rows.end()) await intake.add(c);
    } catch (e) {
      throw csvError(e);
    }
  }

  /**
   * multipart/form-data: picture parts named `files` (streamed to storage as they arrive; in a dry run only
   * their type is checked) and one part named `csv` (a file or a text field) whose rows name them in `file`.
   */
  private async readMultipart(req: FastifyRequest, s: ShowcaseRow, intake: Intake, uploads: Map<string, ImportUpload>, dryRun: boolean) {
    const maxFiles = this.config.showcases.maxFilesPerRequest;
    let csv = false;
    let pictures = 0;
    try {
      for await (const part of req.parts({ limits: { files: maxFiles + 1 } }) as AsyncIterable<Multipart>) {
        if (part.fieldname === 'csv') {
          if (csv) {
            if (part.type === 'file') part.file.resume();
            throw ApiError.invalid('csv', 'csv: send one csv part');
          }
          csv = true;
          if (part.type === 'file') await this.readCsvRows(partBytes(part.file), s.presentationDefaults, intake, true, 'csv');
          else {
            if (part.valueTruncated)
              throw new ApiError(
                413,
                'payload_too_large',
                'field_too_large',
                'csv: the field is too long; send the CSV as a file part',
                'csv',
              );
            await this.readCsvRows(String(part.value), s.presentationDefaults, intake, true, 'csv');
          }
          continue;
        }
        if (part.type !== 'file' || part.fieldname !== 'files') {
          if (part.type === 'file') part.file.resume();
          throw ApiError.invalid(
            part.fieldname.slice(0, 40),
            `${part.fieldname.slice(0, 40)}: unknown part; send picture files as "files" and the CSV as "csv"`,
            'parameter_unknown',
          );
        }
        const name = part.filename;
        if (name.includes('\0') || !name.trim()) {
          part.file.resume();
          throw ApiError.invalid(
            'files',
            'files: each file part needs a filename (without NUL characters): the CSV names it in its file column',
          );
        }
        if (uploads.has(name) || intake.badFiles.has(name)) {
          part.file.resume();
          throw ApiError.invalid('files', `files: two file parts are named "${name.slice(0, 100)}"; the CSV names each by its filename`);
        }
        if (++pictures > maxFiles) {
          part.file.resume();
          throw new ApiError(413, 'payload_too_large', 'too_many_files', `files: at most ${maxFiles} files per request`, 'files');
        }
        if (dryRun) {
          const bad = await checkPicture(part.file);
          if (bad) intake.badFiles.set(name, bad);
          // A dry run stores nothing: the name is enough to check the rows.
          else uploads.set(name, { key: '', filename: name });
          continue;
        }
        try {
          const stored = await storeUpload(this.storage, part.file, name.slice(0, 255), `uploads/${s.publicId}/${randomId('upl')}`);
          uploads.set(name, { key: stored.key, filename: stored.filename });
        } catch (e) {
          // Not a picture: the rows naming it are invalid; the others go on.
          if (!(e instanceof ApiError && e.status === 415)) throw e;
          intake.badFiles.set(name, 'not a supported image (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIF)');
        }
      }
    } catch (e) {
      throw multipartError(e, this.config.showcases);
    }
    if (!csv)
      throw ApiError.invalid('csv', 'csv: required: a part named "csv" with the catalogue (a file or a text field)', 'parameter_missing');
  }

  /**
   * Whether a row would change the item with its external id, as ItemEdits.apply decides it, writing nothing:
   * the dry run's updated / unchanged. A group of variant rows: whether each row would (its variant new or
   * different; the item's own fields and removed variants are its first row's), from ItemEdits.preview of the
   * whole update and of the item's fields, and the variants the update would leave (parseVariantEdit, as apply).
   */
  private async previewUpdate(s: ShowcaseRow, r: CheckedRow, itemId: number): Promise<UpdatePreview> {
    const rows = rowsOf(r);
    const item = await this.showcaseItems.item(s.id, itemId);
    if (!item) return { outcomes: rows.map((row) => ({ row, as: 'updated' })) };
    const prefix = `items[${r.row - 1}]`;
    try {
      const { changed } = await this.itemEdits.preview(item, r.patch, { prefix });
      if (!r.group) return { outcomes: [{ row: r.row, as: changed ? 'updated' : 'unchanged' }] };
      const { variants, ...itemFields } = r.patch;
      const itemChanged = changed && (await this.itemEdits.preview(item, itemFields, { prefix })).changed;
      const before = item.storedVariants?.length ? item.storedVariants : null;
      // Without variants before, every row's is new (and the base of their specs does not matter here).
      const after = changed && before ? (parseVariantEdit({ variants }, before, {}, `${prefix}.`) ?? null) : null;
      const outcomes = variantRowOutcomes(r.group.rows, before, after, { changed, itemChanged });
      return { outcomes: outcomes.map((o) => ({ row: o.row, as: o.changed ? 'updated' : 'unchanged' })) };
    } catch (e) {
      const bad = validationError(e);
      if (bad) return { problems: errorReports(r, bad) };
      throw e;
    }
  }
}

/** The request body's bytes, at most `max` (413 past it); stopping early leaves the socket to the unread-body close. */
async function* requestBytes(raw: IncomingMessage, max: number): AsyncGenerator<Buffer, void, undefined> {
  let n = 0;
  for await (const chunk of raw.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    n += chunk.length;
    if (n > max) throw new ApiError(413, 'payload_too_large', 'body_too_large', `the CSV may be at most ${max} bytes`, 'body');
    yield chunk;
  }
}

/** A multipart CSV part's bytes; stopping early drains the rest so the next part can come. */
async function* partBytes(file: Readable): AsyncGenerator<Buffer, void, undefined> {
  try {
    for await (const chunk of file.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) yield chunk;
  } finally {
    if (!file.readableEnded) file.resume();
  }
}

/** A dry run's file part: is it a picture? Reads its first bytes, then drains it. */
async function checkPicture(file: Readable): Promise<string | null> {
  let head = Buffer.alloc(0);
  for await (const chunk of file as AsyncIterable<Buffer>) if (head.length < 32) head = Buffer.concat([head, chunk]);
  const type = sniffType(head);
  return type && type.kind === 'image' ? null : 'not a supported image (JPEG, PNG, WebP, GIF, TIFF, AVIF, HEIF)';
}
