import type { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  CatalogueImportRepository,
  emptyCounts,
  JobRepository,
  ShowcaseRepository,
  type ShowcaseRow,
} from '@app/persistence';
import { UserError } from '@app/pipeline';
import type { JobRoutes } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { openPglite, tempDir } from '@app/testing';
import { ApiError } from '../http/api-error';
import type { JobAdmission } from '../jobs/job-admission.service';
import type { ItemEdits } from '../showcases/item-edits.service';
import { checkRow } from './import-rows';
import { ImportRunner } from './import-runner.service';
import { ImportSpool } from './import-spool';

/**
 * The background work of an import on a real (embedded) database, with the queue, the item edits and storage
 * stood in for: the showcase's item cap, updates by external_id, an import left running by a stopped process,
 * and a shutdown while the import waits at the account's active-job cap. (The whole route: test/catalogue-import.e2e-spec.ts.)
 */
describe('ImportRunner', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let showcases: ShowcaseRepository;
  let accounts: AccountRepository;
  let imports: CatalogueImportRepository;
  let jobs: JobRepository;
  const dataDir = tempDir();
  beforeAll(async () => {
    ({ ds, drop } = await openPglite());
    showcases = new ShowcaseRepository(ds);
    accounts = new AccountRepository(ds);
    imports = new CatalogueImportRepository(ds);
    jobs = new JobRepository(ds);
  });
  afterAll(() => drop());

  function runner(opts: { maxItems?: number; cap?: number; edits?: Partial<ItemEdits>; mode?: 'embedded' | 'scaled' } = {}) {
    const queued: string[] = [];
    const admission = {
      admit: async () => 0,
      enqueue: async (_owner: string, ids: readonly string[]) => void queued.push(...ids),
    } as unknown as JobAdmission;
    const config = {
      mode: opts.mode ?? 'embedded',
      dataDir,
      accountMaxActiveJobs: opts.cap ?? 0,
      showcases: { maxItems: opts.maxItems ?? 100, maxFileBytes: 1e6, maxFilesPerRequest: 20 },
    } as unknown as AppConfig;
    const routes = { pipelineFor: () => 'still-image' } as unknown as JobRoutes;
    const storage = { delete: async () => undefined } as unknown as StoragePort;
    const r = new ImportRunner(imports, showcases, accounts, jobs, admission, routes, (opts.edits ?? {}) as ItemEdits, storage, config);
    return { runner: r, queued };
  }

  async function setup(items: { externalId: string }[] = []) {
    const u = await accounts.createUser({ email: `r${Date.now()}${Math.random()}@x.co` });
    const created = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      items.map((c, i) => ({ source: 'url' as const, sourceUrl: `https://example.com/${i}.jpg`, catalogue: c })),
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'still-image' },
    );
    return { ownerId: u.id, showcase: created.showcase, items: created.items };
  }

  /** An import of these rows (JSON items), spooled as the request would. */
  async function start(r: ImportRunner, ownerId: string, showcase: ShowcaseRow, items: unknown[]) {
    const imp = await imports.create(showcase.id, ownerId, { ...emptyCounts(), rows: items.length });
    const spool = await ImportSpool.create(dataDir, imp.id);
    for (const [i, item] of items.entries()) await spool.write(checkRow(i + 1, item, {}, { files: false, csv: false }));
    await spool.close();
    r.start({
      importId: imp.id,
      ownerId,
      showcase,
      pictureCents: 0,
      spoolPath: spool.path,
      uploads: new Map(),
      counts: { ...emptyCounts(), rows: items.length },
    });
    return imp.id;
  }

  const urls = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ image_url: `https://example.com/n${from + i}.jpg` }));

  it("creates the rows' items and skips those past the showcase's item cap (too_many_items)", async () => {
    const { ownerId, showcase } = await setup();
    const { runner: r, queued } = runner({ maxItems: 5 });
    const id = await start(r, ownerId, showcase, urls(8));
    await r.whenIdle();
    const imp = (await imports.find(id))!;
    expect(imp.status).toBe('completed');
    expect(imp.counts).toMatchObject({ rows: 8, created: 5, skipped: 3, processed: 8 });
    expect(queued).toHaveLength(5);
    expect((await imports.report(id, { problems: true })).map((x) => [x.row, x.status, x.message])).toEqual([
      [6, 'skipped', 'too_many_items'],
      [7, 'skipped', 'too_many_items'],
      [8, 'skipped', 'too_many_items'],
    ]);
    expect(await ImportSpool.ids(dataDir)).not.toContain(id);
  });

  it("updates the item with a row's external_id through ItemEdits, and reports what it could not do", async () => {
    const { ownerId, showcase, items } = await setup([{ externalId: 'A' }, { externalId: 'B' }, { externalId: 'C' }, { externalId: 'D' }]);
    const calls: { itemId: number; patch: unknown; prefix?: string }[] = [];
    const edits: Partial<ItemEdits> = {
      apply: async (_owner, _s, item, patch, opts) => {
        calls.push({ itemId: item.id, patch, prefix: opts?.prefix });
        if (item.externalId === 'C') throw new ApiError(409, 'conflict', 'item_not_ready', `item ${item.id} is still converting`);
        if (item.externalId === 'D')
          throw new UserError('parameter_invalid', 'items[3].frame.style: must be one of …', { param: 'items[3].frame.style' });
        return { changed: item.externalId === 'A', rebuildJobId: null };
      },
    };
    const { runner: r } = runner({ edits });
    const rows = ['A', 'B', 'C', 'D'].map((e) => ({ image_url: 'https://example.com/x.jpg', external_id: e, artist: 'Ada' }));
    const id = await start(r, ownerId, showcase, [...rows, { external_id: 'E', artist: 'no picture' }]);
    await r.whenIdle();
    expect(calls[0]).toEqual({ itemId: items[0].id, patch: { external_id: 'A', artist: 'Ada' }, prefix: 'items[0]' });
    const imp = (await imports.find(id))!;
    expect(imp.counts).toMatchObject({ rows: 5, updated: 1, unchanged: 1, skipped: 1, invalid: 2, created: 0 });
    expect((await imports.report(id, { problems: false })).map((x) => [x.row, x.status, x.field, x.message, x.itemId])).toEqual([
      [1, 'updated', null, 'updated', items[0].id],
      [2, 'unchanged', null, 'unchanged', items[1].id],
      [3, 'skipped', null, `item_not_ready: item ${items[2].id} is still converting`, items[2].id],
      [4, 'invalid', 'frame.style', 'must be one of …', items[3].id],
      [5, 'invalid', 'image_url', 'required', null],
    ]);
  });

  it('completes, at start, an import a stopped process left running: the rows not reached are "interrupted"', async () => {
    const { ownerId, showcase } = await setup();
    const imp = await imports.create(showcase.id, ownerId, { ...emptyCounts(), rows: 3 });
    await imports.progress(imp.id, [{ row: 1, message: 'created' }], { ...emptyCounts(), rows: 3, created: 1, processed: 1 });
    const spool = await ImportSpool.create(dataDir, imp.id);
    await spool.close();
    const { runner: r } = runner({ mode: 'embedded' });
    await r.onApplicationBootstrap();
    await r.beforeApplicationShutdown();
    const done = (await imports.find(imp.id))!;
    expect(done).toMatchObject({ status: 'completed', counts: expect.objectContaining({ created: 1, skipped: 2, processed: 3 }) });
    expect((await imports.report(imp.id, { problems: true })).map((x) => [x.row, x.message])).toEqual([
      [2, 'interrupted'],
      [3, 'interrupted'],
    ]);
    expect(await ImportSpool.ids(dataDir)).not.toContain(imp.id);
  });

  it('waits while the account is at its active-job cap, and a shutdown then ends the import, reporting the rest', async () => {
    const { ownerId, showcase } = await setup();
    // The account already has 2 unfinished jobs; the cap is 2.
    await setup().then(() =>
      showcases.addItems(
        showcase,
        urls(2, 100).map((u) => ({ source: 'url' as const, sourceUrl: u.image_url })),
        0,
        { pipeline: 'p', maxItems: 100 },
      ),
    );
    const { runner: r, queued } = runner({ cap: 2 });
    const id = await start(r, ownerId, showcase, urls(3));
    await new Promise((res) => setTimeout(res, 1500));
    expect(queued).toEqual([]);
    expect((await imports.find(id))!.status).toBe('running');
    await r.beforeApplicationShutdown();
    const imp = (await imports.find(id))!;
    expect(imp).toMatchObject({ status: 'completed', counts: expect.objectContaining({ created: 0, skipped: 3 }) });
    expect((await imports.report(id, { problems: true })).every((x) => x.message === 'interrupted')).toBe(true);
  });
});
