import type { DataSource } from 'typeorm';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  CatalogueImportRepository,
  emptyCounts,
  JobRepository,
  ShowcaseItemRepository,
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
import { parseVariantEdit } from '../showcases/item/variant-requests';
import { VariantRowGrouper } from './import-rows';
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
  let showcaseItems: ShowcaseItemRepository;
  let accounts: AccountRepository;
  let imports: CatalogueImportRepository;
  let jobs: JobRepository;
  const dataDir = tempDir();
  beforeAll(async () => {
    ({ ds, drop } = await openPglite());
    showcases = new ShowcaseRepository(ds);
    showcaseItems = new ShowcaseItemRepository(ds);
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
    const r = new ImportRunner(imports, showcaseItems, accounts, jobs, admission, routes, (opts.edits ?? {}) as ItemEdits, storage, config);
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

  /** An import of these rows (JSON items; with a sku, variant rows grouped by external_id), spooled as the request would. */
  async function start(r: ImportRunner, ownerId: string, showcase: ShowcaseRow, items: unknown[], pictureCents = 0) {
    const imp = await imports.create(showcase.id, ownerId, { ...emptyCounts(), rows: items.length });
    const spool = await ImportSpool.create(dataDir, imp.id);
    const rows = new VariantRowGrouper({}, { files: false, csv: false });
    for (const [i, item] of items.entries()) for (const c of rows.push(i + 1, item)) await spool.write(c);
    for (const c of rows.end()) await spool.write(c);
    await spool.close();
    r.start({
      importId: imp.id,
      ownerId,
      showcase,
      pictureCents,
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
      showcaseItems.addItems(
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

  describe('variant rows', () => {
    const variantRows = (ext: string, url: string, frames: (string | null)[]) =>
      frames.map((frame, i) => ({
        external_id: ext,
        ...(i === 0 ? { image_url: url, title: ext } : {}),
        sku: `${ext}-${i + 1}`,
        price: `€${10 * (i + 1)}`,
        width_cm: 20 * (i + 1),
        height_cm: 30 * (i + 1),
        ...(frame ? { frame } : {}),
      }));

    it("creates one item per group, charged once, its rows' variants with it; each row reported with the item", async () => {
      const { ownerId, showcase } = await setup();
      await accounts.grant(ownerId, 1000, 'test');
      const { runner: r, queued } = runner();
      const rows = [
        ...variantRows('G1', 'https://example.com/g1.jpg', [null, 'classic', 'thin']),
        { image_url: 'https://example.com/plain.jpg', title: 'Plain' },
        ...variantRows('G2', 'https://example.com/g2.jpg', [null, null, 'canvas']),
        { external_id: 'G3', image_url: 'https://example.com/g3.jpg', sku: 'G3-1' },
        { external_id: 'G3', title: 'not the first row', sku: 'G3-2' },
      ];
      const id = await start(r, ownerId, showcase, rows, 200);
      await r.whenIdle();
      const imp = (await imports.find(id))!;
      expect(imp.counts).toMatchObject({ rows: 9, created: 7, invalid: 2, skipped: 0, processed: 9, chargedCents: 600 });
      expect(queued).toHaveLength(3);
      expect((await accounts.findUser(ownerId))!.creditsCents).toBe(400);
      const report = await imports.report(id, { problems: false });
      expect(report.map((x) => [x.row, x.status])).toEqual([
        [1, 'created'],
        [2, 'created'],
        [3, 'created'],
        [4, 'created'],
        [5, 'created'],
        [6, 'created'],
        [7, 'created'],
        [8, 'invalid'],
        [9, 'invalid'],
      ]);
      expect(new Set(report.slice(0, 3).map((x) => `${x.itemId}/${x.jobId}`)).size).toBe(1);
      expect(report[3].itemId).not.toBe(report[0].itemId);
      expect(report[8]).toMatchObject({ field: 'title' });
      const items = await showcaseItems.items(showcase.id);
      expect(items).toHaveLength(3);
      const g1 = items.find((i) => i.externalId === 'G1')!;
      expect(g1.storedVariants!.map((v) => [v.sku, v.price, v.default])).toEqual([
        ['G1-1', '€10', true],
        ['G1-2', '€20', false],
        ['G1-3', '€30', false],
      ]);
      // The picture is converted once: the other variants are built by the item's own job.
      const job = (await jobs.find(g1.jobId))!;
      expect((job.input.variants as { id: string }[]).map((v) => v.id)).toEqual(g1.storedVariants!.slice(1).map((v) => v.id));
    });

    it('updates the item of a group through ItemEdits (variants replaced by SKU): each row says whether its variant changed or is rebuilt', async () => {
      const { ownerId, showcase } = await setup();
      const { runner: first } = runner();
      await start(first, ownerId, showcase, variantRows('U', 'https://example.com/u.jpg', [null, 'classic', 'thin']));
      await first.whenIdle();
      const calls: { patch: unknown; prefix?: string }[] = [];
      const edits: Partial<ItemEdits> = {
        // Stands in for ItemEdits: writes the variants the edit leaves, a build job pending for the rebuilt ones.
        apply: async (_owner, _s, item, patch, opts) => {
          calls.push({ patch, prefix: opts?.prefix });
          const next = parseVariantEdit(patch as Record<string, unknown>, item.storedVariants, {}, `${opts?.prefix}.`)!;
          const changed = JSON.stringify(next) !== JSON.stringify(item.storedVariants);
          if (changed) await ds.query(`UPDATE "showcase_items" SET "variants" = $2 WHERE "id" = $1`, [item.id, JSON.stringify(next)]);
          return { changed, rebuildJobId: changed ? 'v2_variantbuild' : null };
        },
      };
      const { runner: r } = runner({ edits });
      const rows = variantRows('U', 'https://example.com/u.jpg', [null, 'float', 'thin']);
      const id = await start(r, ownerId, showcase, rows);
      await r.whenIdle();
      expect(calls).toHaveLength(1);
      expect(calls[0].prefix).toBe('items[0]');
      expect((calls[0].patch as { variants: unknown[] }).variants).toHaveLength(3);
      expect((await imports.find(id))!.counts).toMatchObject({ rows: 3, updated: 1, unchanged: 2, created: 0 });
      const report = await imports.report(id, { problems: false });
      expect(report.map((x) => [x.row, x.status, x.jobId])).toEqual([
        [1, 'unchanged', null],
        [2, 'updated', 'v2_variantbuild'],
        [3, 'unchanged', null],
      ]);

      // An error of the update is reported on its variant's row, the others "not imported".
      const { runner: r2 } = runner({
        edits: {
          apply: async () => {
            throw new UserError('parameter_invalid', 'items[0].variants[2].mat: needs a frame', { param: 'items[0].variants[2].mat' });
          },
        },
      });
      const bad = await start(r2, ownerId, showcase, rows);
      await r2.whenIdle();
      expect((await imports.report(bad, { problems: false })).map((x) => [x.row, x.status, x.field, x.message])).toEqual([
        [1, 'invalid', '', 'not imported: row 3 of the same item (external_id U) is invalid'],
        [2, 'invalid', '', 'not imported: row 3 of the same item (external_id U) is invalid'],
        [3, 'invalid', 'mat', 'needs a frame'],
      ]);
    });
  });
});
