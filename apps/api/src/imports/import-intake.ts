import { setImmediate as nextTurn } from 'node:timers/promises';
import { toCredits } from '@app/billing';
import {
  type AccountRepository,
  type CatalogueImportRepository,
  emptyCounts,
  type ImportCounts,
  type ImportRowReport,
  isForeignKeyViolation,
  ShowcaseGoneError,
  type ShowcaseItemRepository,
  type ShowcaseRow,
} from '@app/persistence';
import type { Principal } from '../http/principal';
import { type CheckedRow, FILE_COLUMN, type RowAt, rowReports, rowsOf } from './import-rows';
import { IMPORT_BATCH } from './import-runner.service';
import { ImportSpool } from './import-spool';

/** Rows whose external ids the preview looks up at once; invalid rows written at once. */
const LOOKUP_BATCH = 200;

/** A data row's problem as the answers show it. */
interface ProblemRow {
  row: number;
  field: string | null;
  message: string;
}

/**
 * Where the checked rows go as they are read. Rules that need more than one row are kept here: an
 * external_id or a file named by an earlier row makes a later row invalid; a row naming a file part that
 * never came (or is not a picture) is invalid once the upload has been read.
 */
export abstract class Intake {
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
export type UpdatePreview = { outcomes: { row: number; as: 'updated' | 'unchanged' }[] } | { problems: RowAt[] };

/** A dry run: counts (of rows) and problems only; the external ids are looked up LOOKUP_BATCH rows at a time. */
export class PreviewIntake extends Intake {
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

  async preview(accounts: AccountRepository, showcaseItems: ShowcaseItemRepository, p: Principal, pictureCents: number, maxItems: number) {
    await this.classify();
    const room = Math.max(0, maxItems - (await showcaseItems.countItems(this.showcase.id)));
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
export class RealIntake extends Intake {
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
