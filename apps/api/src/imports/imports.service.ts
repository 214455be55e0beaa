import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { IncomingMessage } from 'node:http';
import { Inject, Injectable, StreamableFile } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Multipart } from '@fastify/multipart';
import { type PricingPolicy, toCredits } from '@app/billing';
import { CsvError, type CsvSource, readCsv, toCsv } from '@app/catalogue';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  type CatalogueImportRow,
  CatalogueImportRepository,
  emptyCounts,
  type ImportCounts,
  type ImportRowReport,
  isForeignKeyViolation,
  randomId,
  ShowcaseGoneError,
  ShowcaseRepository,
  type ShowcaseRow,
} from '@app/persistence';
import { sniffType } from '@app/plugins';
import { parseInput } from '@app/schema';
import { APP_CONFIG, PRICING_POLICY, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import type { PresentationInput } from '../presentation/presentation-request';
import { storeUpload } from '../showcases/picture-upload';
import { ItemEdits } from '../showcases/item-edits.service';
import { ownedShowcase, pictureCents } from '../showcases/showcases.service';
import { parseVariantEdit } from '../showcases/variant-specs';
import { CSV_TYPES } from './import-bodies';
import {
  type CheckedRow,
  checkJsonRowCount,
  CSV_COLUMNS,
  csvItem,
  errorReports,
  FILE_COLUMN,
  type RowAt,
  rowReports,
  rowsOf,
  validationError,
  VariantRowGrouper,
  variantRowOutcomes,
} from './import-rows';
import { IMPORT_BATCH, type ImportUpload, ImportRunner } from './import-runner.service';
import { ImportSpool } from './import-spool';
import { IMPORT_MAX_ROWS, ImportJsonBody, ImportQuery, ImportReportQuery } from './imports.schema';

/** Rows whose external ids the preview looks up at once; invalid rows written at once. */
const LOOKUP_BATCH = 200;
const REPORT_PAGE = 500;

/** A data row's problem as the answers show it. */
interface ProblemRow {
  row: number;
  field: string | null;
  message: string;
}

/**
 * Catalogue imports: `POST /api/v2/showcases/{id}/imports` reads the rows (JSON, a streamed CSV, or
 * multipart with picture files and a CSV part), checks each as a new item, and either answers what it would
 * do (`dry_run`) or spools the checked rows and hands them to {@link ImportRunner} (202). The upload is read
 * once, a row at a time; the checked rows go to a file, never all into memory.
 */
@Injectable()
export class ImportsService {
  constructor(
    private readonly showcases: ShowcaseRepository,
    private readonly imports: CatalogueImportRepository,
    private readonly accounts: AccountRepository,
    private readonly runner: ImportRunner,
    private readonly itemEdits: ItemEdits,
    @Inject(PRICING_POLICY) private readonly pricing: PricingPolicy,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private pictureCents(p: Principal): number {
    return pictureCents(this.pricing, p);
  }

  private owned(p: Principal, id: string): Promise<ShowcaseRow> {
    return ownedShowcase(this.showcases, p, id);
  }

  /** POST /api/v2/showcases/{id}/imports: 200 with a preview (dry run) or 202 with the running import. */
  async start(p: Principal, id: string, req: FastifyRequest, query: unknown): Promise<{ status: 200 | 202; body: unknown }> {
    const { dry_run: dryRun } = parseInput(ImportQuery, query ?? {});
    const s = await this.owned(p, id);
    const pictureCents = this.pictureCents(p);
    // The showcase may be deleted while the upload is read (its import goes with it): a 404, as if it came first.
    const gone = () => ApiError.notFound(`showcase ${id.slice(0, 40)}`);
    const intake = dryRun
      ? new PreviewIntake(s, this.imports, (r, itemId) => this.previewUpdate(s, r, itemId))
      : await RealIntake.open(s, p.userId, this.imports, this.config.dataDir).catch((e: unknown) => {
          throw e instanceof ShowcaseGoneError ? gone() : e;
        });
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
      throw e instanceof ShowcaseGoneError ? gone() : e;
    }
    if (intake instanceof PreviewIntake)
      return { status: 200, body: await intake.preview(this.accounts, this.showcases, p, pictureCents, this.config.showcases.maxItems) };
    // A real import's counts were stored by finish() above.
    if (!counts) throw new Error(`import ${intake.importId}: no counts`);
    this.runner.start({
      importId: intake.importId,
      ownerId: p.userId,
      showcase: s,
      pictureCents,
      spoolPath: intake.spoolPath,
      uploads,
      counts: { ...counts },
    });
    const imp = await this.imports.find(intake.importId);
    // Deleted with its showcase meanwhile: the runner stops by itself (it finds the import gone).
    if (!imp) throw gone();
    return { status: 202, body: await this.view(imp, false) };
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
      throw multipartError(e, this.config);
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
    const item = await this.showcases.item(s.id, itemId);
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

  /** GET /api/v2/imports/{id}: the import's state and report, as JSON or CSV. */
  async get(p: Principal, id: string, query: unknown, accept: string | undefined): Promise<unknown> {
    const q = parseInput(ImportReportQuery, query ?? {});
    const imp = /^imp_[a-z2-7]{24}$/.test(id) ? await this.imports.findForOwner(id, p.userId) : null;
    if (!imp) throw ApiError.notFound(`import ${id.slice(0, 40)}`);
    const all = q.rows === 'all';
    const csv = q.format === 'csv' || (q.format === undefined && /\btext\/csv\b/i.test(accept ?? ''));
    if (!csv) return this.view(imp, all);
    const imports = this.imports;
    const lines = async function* () {
      // A byte-order mark, so Excel reads the text as UTF-8.
      yield `\uFEFF${toCsv([['row', 'status', 'field', 'message', 'item_id', 'job_id']])}`;
      for (let after = 0; ;) {
        const page = await imports.report(imp.id, { problems: !all, afterRow: after, limit: REPORT_PAGE });
        if (!page.length) return;
        yield toCsv(
          page.map((r) => [String(r.row), r.status, r.field ?? '', r.message, r.itemId === null ? '' : String(r.itemId), r.jobId ?? '']),
        );
        after = page[page.length - 1].row;
      }
    };
    return new StreamableFile(Readable.from(lines()), {
      type: 'text/csv; charset=utf-8',
      disposition: `attachment; filename="${imp.id}.csv"`,
    });
  }

  private async view(imp: CatalogueImportRow, all: boolean) {
    const [jobs, rows, refunded] = await Promise.all([
      this.imports.jobStates(imp.id),
      this.imports.report(imp.id, { problems: !all }),
      this.imports.refundedCents(imp.id),
    ]);
    const c = imp.counts;
    return {
      id: imp.id,
      object: 'import' as const,
      showcase_id: imp.showcaseId,
      status: imp.status,
      counts: {
        rows: c.rows,
        invalid: c.invalid,
        created: c.created,
        updated: c.updated,
        unchanged: c.unchanged,
        skipped: c.skipped,
        processed: c.processed,
        ...jobs,
      },
      // Net of refunds: a picture whose conversion failed was refunded, so the import no longer cost it.
      credits_charged: toCredits(Math.max(0, c.chargedCents - refunded)),
      created_at: new Date(imp.createdAt).toISOString(),
      finished_at: imp.finishedAt ? new Date(imp.finishedAt).toISOString() : null,
      rows: rows.map((r) => ({
        row: r.row,
        status: r.status,
        field: r.field || null,
        message: r.message,
        item_id: r.itemId,
        job_id: r.jobId,
      })),
    };
  }
}

/**
 * Where the checked rows go as they are read. Rules that need more than one row are kept here: an
 * external_id or a file named by an earlier row makes a later row invalid; a row naming a file part that
 * never came (or is not a picture) is invalid once the upload has been read.
 */
abstract class Intake {
  /** Data rows read (a group of variant rows counts each of its rows). */
  rows = 0;
  /** Rows checked since the event loop last had a turn (an item's variants count one each). */
  private sinceTurn = 0;
  /** Multipart: file parts that are not pictures, with why. */
  readonly badFiles = new Map<string, string>();
  private readonly externalIds = new Map<string, number>();
  /** Multipart: filename -> the checked row using it (a group: one item, one file part). */
  protected readonly fileRows = new Map<string, CheckedRow>();

  async add(checked: CheckedRow): Promise<void> {
    let c = checked;
    this.rows += rowsOf(c).length;
    // Checking rows is synchronous work, and a dry run (no spool to wait for, no external ids to look up)
    // might never wait on anything: the event loop gets a turn every IMPORT_BATCH rows, as the import's batches.
    const variants = c.patch.variants;
    this.sinceTurn += Math.max(rowsOf(c).length, Array.isArray(variants) ? variants.length : 1);
    if (this.sinceTurn >= IMPORT_BATCH) {
      this.sinceTurn = 0;
      await nextTurn();
    }
    // Every row of a group, the problem on each.
    const invalidate = (field: string, message: string): CheckedRow => ({
      ...c,
      externalId: null,
      create: undefined,
      problem: { field, message },
      ...(c.group ? { group: { ...c.group, problems: c.group.rows.map(({ row }) => ({ row, field, message })) } } : {}),
    });
    const ext = c.externalId ?? c.group?.externalId;
    if (ext) {
      const first = this.externalIds.get(ext);
      if (first !== undefined)
        c = invalidate('external_id', `${ext} is also row ${first}'s${c.group ? "; an item's variant rows follow each other" : ''}`);
      else this.externalIds.set(ext, c.row);
    }
    const file = c.create?.file;
    if (file !== undefined) {
      const first = this.fileRows.get(file);
      if (first !== undefined) c = invalidate(FILE_COLUMN, `"${file}" is also row ${first.row}'s file; one file part makes one item`);
      else this.fileRows.set(file, c);
    }
    if (!c.externalId && c.problem) for (const p of rowReports(c)) await this.invalid(p);
    else await this.valid(c);
  }

  /** The upload is read: the rows naming a file part that is not among `stored` are invalid. */
  async filesKnown(stored: Set<string>): Promise<void> {
    for (const [name, c] of this.fileRows) {
      if (stored.has(name)) continue;
      const why = this.badFiles.get(name);
      const message = why
        ? `"${name.slice(0, 100)}": ${why}`
        : `no file part named "${name.slice(0, 100)}" (the filename of a part named "files")`;
      await this.missingFile(c, rowReports(c, [{ row: c.row, field: FILE_COLUMN, message }]));
    }
  }

  protected abstract invalid(problem: RowAt): Promise<void>;
  protected abstract valid(c: CheckedRow): Promise<void>;
  /** A checked row already passed to `valid` turns out invalid (its file part is missing): these rows are reported. */
  protected abstract missingFile(c: CheckedRow, problems: RowAt[]): Promise<void>;
}

/** What a row (each row of a group) would do to the existing item with its external id, or why it cannot. */
type UpdatePreview = { outcomes: { row: number; as: 'updated' | 'unchanged' }[] } | { problems: RowAt[] };

/** A dry run: counts (of rows) and problems only; the external ids are looked up LOOKUP_BATCH rows at a time. */
class PreviewIntake extends Intake {
  private readonly problems: ProblemRow[] = [];
  private pending: CheckedRow[] = [];
  private readonly counts = { invalid: 0, updated: 0, unchanged: 0 };
  /** The new items, in order: first row -> its rows (a group of variant rows is one item, one picture). */
  private readonly created = new Map<number, number>();
  /** Rows naming a file part, by how they were counted (undone when the part never came). */
  private readonly fileRowsCounted = new Map<number, 'updated' | 'unchanged'>();

  constructor(
    private readonly showcase: ShowcaseRow,
    private readonly imports: CatalogueImportRepository,
    private readonly previewUpdate: (row: CheckedRow, itemId: number) => Promise<UpdatePreview>,
  ) {
    super();
  }

  protected async invalid(p: RowAt): Promise<void> {
    this.counts.invalid++;
    this.problems.push({ row: p.row, field: p.field || null, message: p.message });
  }

  protected async valid(c: CheckedRow): Promise<void> {
    this.pending.push(c);
    if (this.pending.length >= LOOKUP_BATCH) await this.classify();
  }

  protected async missingFile(c: CheckedRow, problems: RowAt[]): Promise<void> {
    await this.classify();
    this.created.delete(c.row);
    for (const row of rowsOf(c)) {
      const was = this.fileRowsCounted.get(row);
      if (was) this.counts[was]--;
    }
    for (const p of problems) await this.invalid(p);
  }

  private async classify(): Promise<void> {
    const rows = this.pending;
    this.pending = [];
    const ids = rows.filter((r) => r.externalId).map((r) => r.externalId!);
    const existing = await this.imports.itemIdsByExternalId(this.showcase.id, ids);
    for (const r of rows) {
      const itemId = r.externalId ? existing.get(r.externalId) : undefined;
      if (itemId === undefined) {
        if (r.create) this.created.set(r.row, rowsOf(r).length);
        else for (const p of rowReports(r)) await this.invalid(p);
        continue;
      }
      const out = await this.previewUpdate(r, itemId);
      if ('problems' in out) {
        for (const p of out.problems) await this.invalid(p);
        continue;
      }
      for (const o of out.outcomes) {
        this.counts[o.as]++;
        if (r.create?.file !== undefined) this.fileRowsCounted.set(o.row, o.as);
      }
    }
  }

  async preview(accounts: AccountRepository, showcases: ShowcaseRepository, p: Principal, pictureCents: number, maxItems: number) {
    await this.classify();
    const room = Math.max(0, maxItems - (await showcases.countItems(this.showcase.id)));
    const balance = p.keyType === 'owner' ? null : ((await accounts.findUser(p.userId))?.creditsCents ?? 0);
    const affordable = pictureCents > 0 && balance !== null ? Math.floor(balance / pictureCents) : Infinity;
    // The first new items in row order are made (one picture each, whatever their rows), the rest skipped.
    const items = [...this.created.values()];
    const pictures = Math.min(items.length, room, affordable);
    const rowsOfItems = (list: number[]) => list.reduce((a, b) => a + b, 0);
    return {
      object: 'import_preview' as const,
      showcase_id: this.showcase.id,
      counts: {
        rows: this.rows,
        invalid: this.counts.invalid,
        created: rowsOfItems(items.slice(0, pictures)),
        updated: this.counts.updated,
        unchanged: this.counts.unchanged,
        skipped: rowsOfItems(items.slice(pictures)),
      },
      price: {
        credits: toCredits(pictures * pictureCents),
        pictures,
        per_picture: toCredits(pictureCents),
        balance: balance === null ? null : toCredits(balance),
      },
      rows: this.problems.sort((a, b) => a.row - b.row),
    };
  }
}

/** A real import: invalid rows go to the report as they are found, the others to the spool file. */
class RealIntake extends Intake {
  private buffer: ImportRowReport[] = [];
  private invalidCount = 0;
  private constructor(
    readonly importId: string,
    private readonly showcaseId: number,
    private readonly spool: ImportSpool,
    private readonly imports: CatalogueImportRepository,
  ) {
    super();
  }

  get spoolPath(): string {
    return this.spool.path;
  }

  static async open(s: ShowcaseRow, ownerId: string, imports: CatalogueImportRepository, dataDir: string): Promise<RealIntake> {
    const imp = await imports.create(s.id, ownerId);
    try {
      return new RealIntake(imp.id, s.id, await ImportSpool.create(dataDir, imp.id), imports);
    } catch (e) {
      await imports.remove(imp.id);
      throw e;
    }
  }

  protected async invalid(p: RowAt): Promise<void> {
    this.invalidCount++;
    this.buffer.push({ row: p.row, field: p.field, message: p.message });
    if (this.buffer.length >= LOOKUP_BATCH) await this.flush();
  }

  protected async valid(c: CheckedRow): Promise<void> {
    await this.spool.write(c);
  }

  protected async missingFile(_c: CheckedRow, problems: RowAt[]): Promise<void> {
    for (const p of problems) await this.invalid(p);
  }

  /** Writes the invalid rows found so far; ShowcaseGoneError when the import went with its showcase. */
  private async flush(): Promise<void> {
    const rows = this.buffer;
    this.buffer = [];
    await this.imports.addRows(this.importId, rows).catch((e: unknown) => {
      throw isForeignKeyViolation(e) ? new ShowcaseGoneError(this.showcaseId) : e;
    });
  }

  /** The upload is read: the counts so far, stored. ShowcaseGoneError when the import went with its showcase meanwhile. */
  async finish(): Promise<ImportCounts> {
    await this.flush();
    await this.spool.close();
    const counts = { ...emptyCounts(), rows: this.rows, invalid: this.invalidCount, processed: this.invalidCount };
    if (!(await this.imports.progress(this.importId, [], counts))) throw new ShowcaseGoneError(this.showcaseId);
    return counts;
  }

  async discard(): Promise<void> {
    await this.spool.discard();
    await this.imports.remove(this.importId);
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

/** @fastify/multipart's limit and format errors -> 413 / 400. */
function multipartError(e: unknown, config: AppConfig): unknown {
  const code = (e as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new ApiError(
      413,
      'payload_too_large',
      'file_too_large',
      `files: each file may be at most ${config.showcases.maxFileBytes} bytes`,
      'files',
    );
  if (code === 'FST_FILES_LIMIT')
    return new ApiError(
      413,
      'payload_too_large',
      'too_many_files',
      `files: at most ${config.showcases.maxFilesPerRequest} files per request`,
      'files',
    );
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new ApiError(413, 'payload_too_large', 'too_many_parts', 'too many form parts', 'files');
  const message = e instanceof Error ? e.message : '';
  if (
    code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' ||
    code === 'FST_PROTO_VIOLATION' ||
    code === 'FST_MP_PREMATURE_CLOSE' ||
    /unexpected end of multipart data|boundary not found/i.test(message)
  )
    return new ApiError(
      400,
      'invalid_request_error',
      'invalid_multipart',
      'the multipart body could not be read; nothing was stored or charged',
    );
  return e;
}
