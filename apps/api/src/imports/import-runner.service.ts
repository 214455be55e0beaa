import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  CatalogueImportRepository,
  ExternalIdTakenError,
  type ImportCounts,
  type ImportRowReport,
  InsufficientCreditsError,
  JobRepository,
  type NewItem,
  ShowcaseFullError,
  ShowcaseGoneError,
  ShowcaseItemRepository,
  type ShowcaseItemRow,
  type ShowcaseRow,
} from '@app/persistence';
import { APP_CONFIG, JobRoutes, SERVICE_USER_ID, STORAGE } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { ApiError } from '../http/api-error';
import { JobAdmission } from '../jobs/job-admission.service';
import { ItemEdits } from '../showcases/item-edits.service';
import { sameJson } from '../showcases/item/item-edit.schema';
import { type CheckedRow, errorReports, rowReports, rowsOf, validationError, variantRowOutcomes } from './import-rows';
import { ImportSpool } from './import-spool';

/** New pictures per transaction (each one charge, all or nothing). */
export const IMPORT_BATCH = 20;
/** How often a running import shows it is alive, and how old its sign may get before another process ends it. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 60_000;
/** While the account is at its active-job cap, how long to wait before looking again. */
const CAP_WAIT_MS = 1000;
/** At shutdown, how long a batch in flight may take before the import is ended anyway. */
const SHUTDOWN_WAIT_MS = 15_000;

/** The reasons a skipped row gives. */
export const SKIPPED = {
  credits: 'insufficient_credits',
  full: 'too_many_items',
  interrupted: 'interrupted',
  deleted: 'item_deleted',
} as const;

/** An uploaded picture a multipart import's rows name by filename. */
export interface ImportUpload {
  key: string;
  filename: string;
}

/** Everything the background work of one import needs. */
export interface ImportWork {
  importId: string;
  ownerId: string;
  showcase: ShowcaseRow;
  /** Per picture, for this key (0: the owner key). */
  pictureCents: number;
  spoolPath: string;
  /** Multipart: the stored file parts by filename (each used by at most one item). */
  uploads: Map<string, ImportUpload>;
  /** Counts so far (the rows and the invalid ones found while reading). */
  counts: ImportCounts;
}

interface Running {
  stop: boolean;
  done?: Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs catalogue imports in the API process, after the 202: the checked rows are read back from their spool
 * file IMPORT_BATCH at a time; rows whose `external_id` is an item of the showcase update it (ItemEdits), the
 * others become new items through ShowcaseItemRepository.addItems (the one path that charges, all or nothing per
 * call) and their jobs are queued through JobAdmission (fair share; while the account is at its active-job cap
 * the import waits). Each batch's report rows and counts are written together, so GET shows progress.
 *
 * A process that stops: at a clean shutdown the batch in flight finishes and the import is completed with
 * the rows not reached reported `skipped` / `interrupted`. After a crash the same happens at the next start
 * (embedded: one process, so every import still `running` is abandoned) or, in scaled mode, in whichever API
 * process sees the import's heartbeat older than a minute. Nothing resumes: the rows not reached are listed,
 * and importing the file again is safe for rows with an external_id (matched, not duplicated).
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CatalogueImports');
  private readonly running = new Map<string, Running>();
  private timer?: NodeJS.Timeout;
  private sweeping = false;

  constructor(
    private readonly imports: CatalogueImportRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly accounts: AccountRepository,
    private readonly jobs: JobRepository,
    private readonly admission: JobAdmission,
    private readonly routes: JobRoutes,
    private readonly edits: ItemEdits,
    @Inject(STORAGE) private readonly storage: StoragePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Embedded mode is one process: whatever is still running was left by the previous one.
    await this.sweep(this.config.mode === 'embedded' ? 0 : STALE_MS).catch((e: Error) =>
      this.logger.warn(`could not check for interrupted imports: ${e.message}`),
    );
    this.timer = setInterval(() => void this.tick(), HEARTBEAT_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    const ids = [...this.running.keys()];
    for (const r of this.running.values()) r.stop = true;
    const all = Promise.all([...this.running.values()].map((r) => r.done?.catch(() => undefined)));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((r) => (timer = setTimeout(r, SHUTDOWN_WAIT_MS)))]);
    clearTimeout(timer);
    for (const id of ids) {
      const n = await this.imports.abandon(id, SKIPPED.interrupted).catch(() => null);
      if (n) this.logger.warn(`import ${id} stopped by the shutdown: ${n} rows reported ${SKIPPED.interrupted}`);
    }
  }

  /** An import being read in a request: alive (heartbeat) though not yet running. */
  track(importId: string): void {
    if (!this.running.has(importId)) this.running.set(importId, { stop: false });
  }

  untrack(importId: string): void {
    this.running.delete(importId);
  }

  /** Starts the background work; it cleans up after itself (spool, unused uploads). */
  start(work: ImportWork): void {
    const state: Running = this.running.get(work.importId) ?? { stop: false };
    this.running.set(work.importId, state);
    const used = new Set<string>();
    state.done = this.run(work, state, used)
      .catch(async (e: unknown) => {
        this.logger.error(`import ${work.importId} failed: ${e instanceof Error ? e.stack : String(e)}`);
        await this.imports.abandon(work.importId, 'internal_error').catch(() => undefined);
      })
      .finally(async () => {
        this.running.delete(work.importId);
        await ImportSpool.remove(this.config.dataDir, work.importId).catch(() => undefined);
        for (const [name, u] of work.uploads) if (!used.has(name)) await this.storage.delete(u.key).catch(() => undefined);
      });
  }

  /** Work in progress in this process (tests and shutdown). */
  whenIdle(): Promise<unknown> {
    return Promise.all([...this.running.values()].map((r) => r.done));
  }

  private async tick(): Promise<void> {
    await this.imports.heartbeat([...this.running.keys()]).catch(() => undefined);
    await this.sweep(STALE_MS).catch(() => undefined);
  }

  /** Completes the imports nobody works on (their heartbeat older than `staleMs`), and deletes stale spool files. */
  private async sweep(staleMs: number): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      for (const id of await this.imports.abandoned(staleMs)) {
        if (this.running.has(id)) continue;
        const n = await this.imports.abandon(id, SKIPPED.interrupted);
        if (n !== null) this.logger.warn(`import ${id} was interrupted (its process stopped): ${n} rows reported ${SKIPPED.interrupted}`);
      }
      const files = await ImportSpool.ids(this.config.dataDir);
      const live = await this.imports.running(files);
      for (const id of files) if (!this.running.has(id) && !live.has(id)) await ImportSpool.remove(this.config.dataDir, id);
    } finally {
      this.sweeping = false;
    }
  }

  private async run(work: ImportWork, state: Running, used: Set<string>): Promise<void> {
    let batch: CheckedRow[] = [];
    for await (const row of ImportSpool.read(work.spoolPath)) {
      if (state.stop) return;
      // Its file part never came (or is not a picture): reported when the upload was read.
      if (row.create?.file !== undefined && !work.uploads.has(row.create.file)) continue;
      batch.push(row);
      if (batch.length < IMPORT_BATCH) continue;
      await this.batch(work, batch, state, used);
      batch = [];
    }
    if (batch.length && !state.stop) await this.batch(work, batch, state, used);
    if (state.stop) return;
    await this.imports.complete(work.importId, { ...work.counts, processed: work.counts.rows });
  }

  /** Writes report rows with the counts after them (so GET shows progress); a stop when the import was ended elsewhere. */
  private async record(work: ImportWork, state: Running, reports: ImportRowReport[]): Promise<void> {
    if (!reports.length) return;
    work.counts.processed += reports.length;
    if (!(await this.imports.progress(work.importId, reports, work.counts))) state.stop = true;
  }

  /**
   * One batch of checked rows (a group of variant rows is one: one item): updates one by one, then the new
   * items in as few charges as the balance and cap allow.
   */
  private async batch(work: ImportWork, rows: CheckedRow[], state: Running, used: Set<string>): Promise<void> {
    const counts = work.counts;
    const existing = await this.imports.itemIdsByExternalId(
      work.showcase.id,
      rows.filter((r) => r.externalId).map((r) => r.externalId!),
    );
    const reports: ImportRowReport[] = [];
    const creates: CheckedRow[] = [];
    for (const r of rows) {
      const itemId = r.externalId ? existing.get(r.externalId) : undefined;
      if (itemId !== undefined) {
        const report = await this.update(work, r, itemId, state);
        if (!report) break;
        reports.push(...report);
      } else if (r.create) creates.push(r);
      else {
        const invalid = rowReports(r);
        counts.invalid += invalid.length;
        reports.push(...invalid);
      }
    }
    await this.record(work, state, reports);
    if (!state.stop) await this.create(work, creates, state, used);
  }

  /**
   * The item with the row's external_id gets the row's fields (PATCH semantics, ItemEdits: label, banner,
   * availability and position at once; a size or presentation change rebuilds its files, free). A group of
   * variant rows replaces the item's variants, matched by SKU (an unchanged variant keeps its files; a changed
   * size or look rebuilds that variant only): each row is reported updated or unchanged, a rebuilt variant's
   * row with the job building it. While the account is at its active-job cap (a rebuild is a job) the import
   * waits, as for new pictures. Null when the import was stopped meanwhile (the rows are not dealt with).
   */
  private async update(work: ImportWork, r: CheckedRow, itemId: number, state: Running): Promise<ImportRowReport[] | null> {
    const counts = work.counts;
    const rows = rowsOf(r);
    const skipped = (message: string): ImportRowReport[] => {
      counts.skipped += rows.length;
      return rows.map((row) => ({ row, message, itemId }));
    };
    const invalid = (reports: { row: number; field: string; message: string }[]): ImportRowReport[] => {
      counts.invalid += reports.length;
      return reports.map((p) => ({ ...p, itemId }));
    };
    for (;;) {
      const item = await this.showcaseItems.item(work.showcase.id, itemId);
      if (!item) return skipped(SKIPPED.deleted);
      try {
        const out = await this.edits.apply(work.ownerId, work.showcase, item, r.patch, { prefix: `items[${r.row - 1}]` });
        if (!r.group) {
          if (out.changed) counts.updated++;
          else counts.unchanged++;
          return [{ row: r.row, message: out.changed ? 'updated' : 'unchanged', itemId, jobId: out.rebuildJobId }];
        }
        const after = out.changed ? await this.showcaseItems.item(work.showcase.id, itemId) : item;
        const outcomes = variantRowOutcomes(r.group.rows, item.storedVariants, after?.storedVariants ?? null, {
          changed: out.changed,
          itemChanged: !after || !sameJson(itemFields(item), itemFields(after)),
        });
        return outcomes.map((o) => {
          if (o.changed) counts.updated++;
          else counts.unchanged++;
          return { row: o.row, message: o.changed ? 'updated' : 'unchanged', itemId, jobId: o.rebuilt ? out.rebuildJobId : null };
        });
      } catch (e) {
        if (e instanceof ApiError && e.status === 429) {
          if (state.stop) return null;
          await sleep(CAP_WAIT_MS);
          continue;
        }
        if (e instanceof ApiError && e.status === 404) return skipped(SKIPPED.deleted);
        // Not the row's fault: the item is converting, failed, or changed meanwhile (item_not_ready, item_failed, item_changed).
        if (e instanceof ApiError && e.status === 409) return skipped(`${e.code}: ${e.message}`);
        if (e instanceof ExternalIdTakenError) return invalid(rowReports(r, [{ row: r.row, field: 'external_id', message: e.message }]));
        const bad = validationError(e);
        if (!bad) throw e;
        return invalid(errorReports(r, bad));
      }
    }
  }

  /**
   * New items, in charges of at most IMPORT_BATCH pictures, each sized to the showcase's room, the balance
   * and the account's active-job cap, and recorded as it is made.
   */
  private async create(work: ImportWork, rows: CheckedRow[], state: Running, used: Set<string>): Promise<void> {
    const counts = work.counts;
    const skip = (rest: CheckedRow[], reason: string) => {
      const reports = rest.flatMap((r) => rowsOf(r).map((row) => ({ row, message: reason })));
      counts.skipped += reports.length;
      return this.record(work, state, reports);
    };
    let pending = rows;
    const maxItems = this.config.showcases.maxItems;
    while (pending.length && !state.stop) {
      const room = maxItems - (await this.showcaseItems.countItems(work.showcase.id));
      if (room <= 0) return skip(pending, SKIPPED.full);
      let n = Math.min(pending.length, room);
      if (work.pictureCents > 0) {
        const balance = (await this.accounts.findUser(work.ownerId))?.creditsCents ?? 0;
        const affordable = Math.floor(balance / work.pictureCents);
        if (affordable <= 0) return skip(pending, SKIPPED.credits);
        n = Math.min(n, affordable);
      }
      const admitted = await this.admit(work.ownerId, n, state);
      if (!admitted) return;
      n = admitted.n;
      const take = pending.slice(0, n);
      try {
        const created = await this.showcaseItems.addItems(
          work.showcase,
          take.map((r) => newItem(r, work.uploads)),
          work.pictureCents,
          { pipeline: this.routes.pipelineFor('showcase.picture'), maxItems },
        );
        await this.admission.enqueue(
          work.ownerId,
          created.items.map((i) => i.jobId),
          admitted.before,
        );
        const reports = take.flatMap((r, i) =>
          rowsOf(r).map((row) => ({ row, message: 'created', itemId: created.items[i].id, jobId: created.items[i].jobId })),
        );
        counts.created += reports.length;
        counts.chargedCents += created.chargedCents;
        for (const r of take) if (r.create?.file) used.add(r.create.file);
        pending = pending.slice(n);
        await this.record(work, state, reports);
      } catch (e) {
        // Another request spent the credits or took the room meanwhile: size the batch again.
        if (e instanceof InsufficientCreditsError || e instanceof ShowcaseFullError) continue;
        // The showcase was deleted, and its import with it: nothing was charged or created, nothing is left to report.
        if (e instanceof ShowcaseGoneError) {
          this.logger.log(`import ${work.importId} stopped: its showcase was deleted`);
          state.stop = true;
          return;
        }
        // Another request created an item with one of these external ids meanwhile: that row updates it.
        if (e instanceof ExternalIdTakenError) {
          const r = take.find((t) => t.externalId === e.externalId);
          const id = r && (await this.imports.itemIdsByExternalId(work.showcase.id, [e.externalId])).get(e.externalId);
          if (!r || id === undefined) throw e;
          pending = pending.filter((p) => p !== r);
          const report = await this.update(work, r, id, state);
          if (!report) return;
          await this.record(work, state, report);
          continue;
        }
        throw e;
      }
    }
  }

  /**
   * Admits up to `n` jobs of the account under its active-job cap (ACCOUNT_MAX_ACTIVE_JOBS), waiting while
   * it is full: the import goes at the pace of the account's conversions, never past its share. Null when
   * the import is stopped meanwhile.
   */
  private async admit(ownerId: string, n: number, state: Running): Promise<{ before: number; n: number } | null> {
    const cap = this.config.accountMaxActiveJobs;
    while (!state.stop) {
      let take = n;
      if (cap > 0 && ownerId !== SERVICE_USER_ID) take = Math.min(n, cap - (await this.jobs.countUnfinished(ownerId)));
      if (take > 0) {
        try {
          return { before: await this.admission.admit(ownerId, take), n: take };
        } catch (e) {
          if (!(e instanceof ApiError && e.status === 429)) throw e;
        }
      }
      await sleep(CAP_WAIT_MS);
    }
    return null;
  }
}

/** The item a checked row (or group of variant rows) creates: one picture, its variants with it. */
function newItem(r: CheckedRow, uploads: Map<string, ImportUpload>): NewItem {
  const c = r.create!;
  const variants = c.variants?.length ? { variants: c.variants } : {};
  if (c.file !== undefined) {
    const u = uploads.get(c.file)!;
    return { source: 'upload', uploadKey: u.key, filename: u.filename, presentation: c.presentation, catalogue: c.catalogue, ...variants };
  }
  return { source: 'url', sourceUrl: c.imageUrl, presentation: c.presentation, catalogue: c.catalogue, ...variants };
}

/** An item's own fields an update may change (its variants aside). */
const itemFields = (i: ShowcaseItemRow) => ({
  label: i.label,
  externalId: i.externalId,
  availability: i.availability,
  position: i.position,
  banner: i.banner,
});
