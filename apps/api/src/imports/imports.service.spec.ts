import { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import type { PricingPolicy } from '@app/billing';
import type { AppConfig } from '@app/config';
import { AccountRepository, CatalogueImportRepository, emptyCounts, JobRepository, ShowcaseRepository } from '@app/persistence';
import type { JobRoutes } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { openPglite, openPostgres, tempDir } from '@app/testing';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import type { JobAdmission } from '../jobs/job-admission.service';
import type { ItemEdits } from '../showcases/item-edits.service';
import { ImportRunner } from './import-runner.service';
import { ImportSpool } from './import-spool';
import { IMPORT_MAX_ROWS } from './imports.schema';
import { ImportsService } from './imports.service';

/**
 * The request side of an import on a real (embedded) database, the runner, item edits and storage stood in for:
 * a dry run of a large JSON body shares the event loop, and a body of more variants than an import has rows is
 * refused before its items are checked. (The whole route: test/catalogue-import*.e2e-spec.ts.)
 */
describe('ImportsService', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let showcases: ShowcaseRepository;
  let accounts: AccountRepository;
  let imports: CatalogueImportRepository;
  const dataDir = tempDir();
  beforeAll(async () => {
    ({ ds, drop } = await openPglite());
    showcases = new ShowcaseRepository(ds);
    accounts = new AccountRepository(ds);
    imports = new CatalogueImportRepository(ds);
  });
  afterAll(() => drop());

  function service(): ImportsService {
    const pricing = { quote: () => ({ totalCents: 200 }) } as unknown as PricingPolicy;
    const config = { dataDir, showcases: { maxItems: 10_000, maxFileBytes: 1e6, maxFilesPerRequest: 20 } } as unknown as AppConfig;
    const runner = { track: () => undefined, untrack: () => undefined } as unknown as ImportRunner;
    return new ImportsService(showcases, imports, accounts, runner, {} as ItemEdits, pricing, {} as StoragePort, config);
  }

  async function setup(): Promise<{ p: Principal; showcaseId: string }> {
    const u = await accounts.createUser({ email: `s${Date.now()}${Math.random()}@x.co` });
    await ds.query(`UPDATE "users" SET "credits_cents" = 1000000 WHERE "id" = $1`, [u.id]);
    const { showcase } = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'still-image' },
    );
    return { p: { userId: u.id, keyType: 'user', scope: 'full' }, showcaseId: String(showcase.id) };
  }

  const json = (body: unknown) =>
    ({ headers: { 'content-type': 'application/json' }, isMultipart: () => false, body }) as unknown as FastifyRequest;

  /** A new item with `n` variants (no external_id: a dry run has nothing to look up, so nothing to wait on). */
  const item = (i: number, n: number) => ({
    image_url: `https://example.com/${i}.jpg`,
    title: `Work ${i}`,
    variants: Array.from({ length: n }, (_, k) => ({
      sku: `W${i}-${k}`,
      name: `Size ${k}`,
      price: `€${10 + k}`,
      width_cm: 20 + k,
      height_cm: 30 + k,
      frame: { style: 'classic', color: 'oak' },
    })),
  });

  it('a dry run of a large JSON body gives the event loop a turn while it checks the rows', async () => {
    const { p, showcaseId } = await setup();
    // 208 items x 24 variants: 4,992 rows, under the cap, every variant checked.
    const items = Array.from({ length: 208 }, (_, i) => item(i, 24));
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    const dry = service().start(p, showcaseId, json({ items }), { dry_run: 'true' });
    setImmediate(tick);
    let out: Awaited<typeof dry>;
    try {
      out = await dry;
    } finally {
      ticking = false;
    }
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ object: 'import_preview', counts: { rows: 208, invalid: 0, created: 208 }, price: { pictures: 208 } });
    // A turn at least every 20 rows (here: every item, 24 variants each); before, the whole check ran in one.
    expect(turns).toBeGreaterThanOrEqual(200);
  });

  it('refuses a body whose variants make more rows than an import has, before checking its items', async () => {
    const { p, showcaseId } = await setup();
    // 5,000 items x 24 variants: 120,000 variants, 5,000 items (the items cap alone lets it through).
    const items: unknown[] = Array.from({ length: 5000 }, (_, i) => item(i, 24));
    let touched = false;
    // The last item records any read: the count stops at the item past the cap, and nothing is checked.
    items[4999] = new Proxy(item(4999, 24), {
      get(target, key, receiver) {
        touched = true;
        return Reflect.get(target, key, receiver);
      },
    });
    for (const dryRun of ['true', 'false']) {
      const err = await service()
        .start(p, showcaseId, json({ items }), { dry_run: dryRun })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      // 208 items make 4,992 rows; the 209th (items[208]) takes them to 5,016.
      expect({ status: e.status, code: e.code, param: e.param }).toEqual({
        status: 400,
        code: 'too_many_rows',
        param: 'items[208].variants',
      });
      expect(e.message).toContain(`at most ${IMPORT_MAX_ROWS} rows, each variant of an item counting as one`);
      expect(touched).toBe(false);
    }
    // Nothing was stored: the real import was refused before it began.
    const n = await ds.query(`SELECT count(*) AS n FROM "catalogue_imports" WHERE "showcase_id" = $1`, [Number(showcaseId)]);
    expect(Number(n[0].n)).toBe(0);
  });
});

/**
 * On the Postgres server: an import racing a DELETE of its showcase (the showcase, and the import, which goes
 * with it, vanishes while the upload is read or just after the import started) answers 404, its background run
 * stops without a foreign-key violation and nothing is left behind; and the view's credits are net of refunds.
 */
describe('ImportsService on the Postgres server', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let showcases: ShowcaseRepository;
  let accounts: AccountRepository;
  const dataDir = tempDir();
  let errors: jest.SpyInstance;
  beforeAll(async () => {
    ({ ds, drop } = await openPostgres()());
    showcases = new ShowcaseRepository(ds);
    accounts = new AccountRepository(ds);
  });
  afterAll(() => drop());
  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => errors.mockRestore());

  const deleteShowcase = (id: number) => ds.query(`DELETE FROM "showcases" WHERE "id" = $1`, [id]);

  /** The service and a real runner over `imports` (the queue, item edits and storage stood in for). */
  function build(imports: CatalogueImportRepository, hooks: { track?: () => Promise<unknown> } = {}) {
    const config = {
      mode: 'scaled',
      dataDir,
      accountMaxActiveJobs: 0,
      showcases: { maxItems: 100, maxFileBytes: 1e6, maxFilesPerRequest: 20 },
    } as unknown as AppConfig;
    const admission = { admit: async () => 0, enqueue: async () => undefined } as unknown as JobAdmission;
    const routes = { pipelineFor: () => 'still-image' } as unknown as JobRoutes;
    const storage = { delete: async () => undefined } as unknown as StoragePort;
    const runner = new ImportRunner(
      imports,
      showcases,
      accounts,
      new JobRepository(ds),
      admission,
      routes,
      {} as ItemEdits,
      storage,
      config,
    );
    const pending: Promise<unknown>[] = [];
    if (hooks.track) {
      const track = runner.track.bind(runner);
      runner.track = (id: string) => {
        track(id);
        pending.push(hooks.track!());
      };
    }
    const pricing = { quote: () => ({ totalCents: 0 }) } as unknown as PricingPolicy;
    const service = new ImportsService(showcases, imports, accounts, runner, {} as ItemEdits, pricing, storage, config);
    return { service, runner, pending };
  }

  async function setup(): Promise<{ p: Principal; id: number }> {
    const u = await accounts.createUser({ email: `g${Date.now()}${Math.random()}@x.co` });
    const { showcase } = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'still-image' },
    );
    return { p: { userId: u.id, keyType: 'user', scope: 'full' }, id: showcase.id };
  }

  const json = (items: unknown[]) =>
    ({ headers: { 'content-type': 'application/json' }, isMultipart: () => false, body: { items } }) as unknown as FastifyRequest;
  const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ image_url: `https://example.com/g${i}.jpg`, title: `G${i}` }));
  // 250 invalid rows (more than one write of them) and new items.
  const body = () => json([...Array.from({ length: 250 }, () => ({ title: 'no picture' })), ...urls(30)]);

  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      () => ({ status: 202 }),
      (e: unknown) => (e instanceof ApiError ? { status: e.status, message: e.message } : { status: 500, message: String(e) }),
    );

  /** The spool files left (a run deletes its own once whenIdle has seen it end, so wait a moment for it). */
  async function spoolsLeft(): Promise<string[]> {
    for (let i = 0; i < 50 && (await ImportSpool.ids(dataDir)).length; i++) await new Promise((r) => setTimeout(r, 20));
    return ImportSpool.ids(dataDir);
  }

  async function leftOf(id: number) {
    const [items, imps] = await Promise.all([
      ds.query(`SELECT count(*) AS n FROM "showcase_items" WHERE "showcase_id" = $1`, [id]),
      ds.query(`SELECT count(*) AS n FROM "catalogue_imports" WHERE "showcase_id" = $1`, [id]),
    ]);
    return { items: Number(items[0].n), imports: Number(imps[0].n) };
  }

  it('deleted before the import is recorded: 404, nothing stored', async () => {
    const { p, id } = await setup();
    // The DELETE lands between the ownership check and the import's row.
    const racing = new (class extends ShowcaseRepository {
      override async findForOwner(...args: Parameters<ShowcaseRepository['findForOwner']>) {
        const s = await super.findForOwner(...args);
        await deleteShowcase(id);
        return s;
      }
    })(ds);
    const { runner } = build(new CatalogueImportRepository(ds));
    const service = new ImportsService(
      racing,
      new CatalogueImportRepository(ds),
      accounts,
      runner,
      {} as ItemEdits,
      { quote: () => ({ totalCents: 0 }) } as unknown as PricingPolicy,
      {} as StoragePort,
      { dataDir, showcases: { maxItems: 100, maxFileBytes: 1e6, maxFilesPerRequest: 20 } } as unknown as AppConfig,
    );
    expect(await outcome(service.start(p, String(id), body(), {}))).toEqual({ status: 404, message: `showcase ${id} not found` });
    expect(errors).not.toHaveBeenCalled();
  });

  it('deleted while the upload is read: 404, the spool and the import gone', async () => {
    const { p, id } = await setup();
    const { service, runner, pending } = build(new CatalogueImportRepository(ds), { track: () => deleteShowcase(id) });
    expect(await outcome(service.start(p, String(id), body(), {}))).toEqual({ status: 404, message: `showcase ${id} not found` });
    await Promise.all(pending);
    await runner.whenIdle();
    expect(await leftOf(id)).toEqual({ items: 0, imports: 0 });
    expect(await spoolsLeft()).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  it('deleted just after the import started: 404, and the background run stops without a foreign-key violation', async () => {
    const { p, id } = await setup();
    // The DELETE lands after the 202's work began, before its answer is read back.
    const imports = new (class extends CatalogueImportRepository {
      override async find(importId: string) {
        await deleteShowcase(id);
        return super.find(importId);
      }
    })(ds);
    const { service, runner } = build(imports);
    expect(await outcome(service.start(p, String(id), body(), {}))).toEqual({ status: 404, message: `showcase ${id} not found` });
    await runner.whenIdle();
    expect(await leftOf(id)).toEqual({ items: 0, imports: 0 });
    expect(await spoolsLeft()).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });

  it("the import's credits_charged is net of the refunds of its failed pictures", async () => {
    const { p, id } = await setup();
    await ds.query(`UPDATE "users" SET "credits_cents" = 1000 WHERE "id" = $1`, [p.userId]);
    const imports = new CatalogueImportRepository(ds);
    const { service } = build(imports);
    const showcase = (await showcases.findForOwner(id, p.userId))!;
    const made = await showcases.addItems(
      showcase,
      urls(2).map((u) => ({ source: 'url' as const, sourceUrl: u.image_url })),
      200,
      {
        pipeline: 'still-image',
        maxItems: 100,
      },
    );
    const imp = await imports.create(id, p.userId, { ...emptyCounts(), rows: 2 });
    const reports = made.items.map((it, i) => ({ row: i + 1, message: 'created', itemId: it.id, jobId: it.jobId }));
    await imports.progress(imp.id, reports, { ...emptyCounts(), rows: 2, created: 2, processed: 2, chargedCents: made.chargedCents });
    await imports.complete(imp.id, { ...emptyCounts(), rows: 2, created: 2, processed: 2, chargedCents: made.chargedCents });
    const view = () => service.get(p, imp.id, {}, undefined) as Promise<{ credits_charged: number; counts: { failed: number } }>;
    expect((await view()).credits_charged).toBe(4);
    // Both conversions fail and are refunded (RefundOnFailure): the import cost nothing.
    for (const it of made.items) {
      await ds.query(`UPDATE "jobs" SET "status" = 'failed', "error" = '{"code":"fetch_http_error","message":"404"}' WHERE "id" = $1`, [
        it.jobId,
      ]);
      await accounts.refund(it.jobId, 'showcase.picture');
    }
    expect(await view()).toMatchObject({ credits_charged: 0, counts: { failed: 2 } });
  });

  it('the background run of an import whose showcase is gone ends cleanly: nothing created or charged, no error', async () => {
    const { p, id } = await setup();
    await ds.query(`UPDATE "users" SET "credits_cents" = 10000 WHERE "id" = $1`, [p.userId]);
    const imports = new CatalogueImportRepository(ds);
    const { runner } = build(imports);
    const showcase = (await showcases.findForOwner(id, p.userId))!;
    const imp = await imports.create(id, p.userId);
    const spool = await ImportSpool.create(dataDir, imp.id);
    const { VariantRowGrouper } = await import('./import-rows');
    const rows = new VariantRowGrouper({}, { files: false, csv: false });
    for (const [i, it] of urls(30).entries()) for (const c of rows.push(i + 1, it)) await spool.write(c);
    for (const c of rows.end()) await spool.write(c);
    await spool.close();
    await deleteShowcase(id);
    runner.start({
      importId: imp.id,
      ownerId: p.userId,
      showcase,
      pictureCents: 200,
      spoolPath: spool.path,
      uploads: new Map(),
      counts: { ...imp.counts, rows: 30 },
    });
    await runner.whenIdle();
    expect(errors).not.toHaveBeenCalled();
    expect(await leftOf(id)).toEqual({ items: 0, imports: 0 });
    expect((await accounts.findUser(p.userId))?.creditsCents).toBe(10000);
    expect(Number((await ds.query(`SELECT count(*) AS n FROM "jobs" WHERE "owner_id" = $1`, [p.userId]))[0].n)).toBe(0);
    expect(await spoolsLeft()).toEqual([]);
  });
});
