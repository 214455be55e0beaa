import { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { DataSource } from 'typeorm';
import type { PricingPolicy } from '@app/billing';
import type { AppConfig } from '@app/config';
import {
  AccountRepository,
  CatalogueImportRepository,
  emptyCounts,
  JobRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
} from '@app/persistence';
import type { JobRoutes } from '@app/runtime';
import type { StoragePort } from '@app/storage';
import { openPostgres, tempDir } from '@app/testing';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/principal';
import type { JobAdmission } from '../jobs/job-admission.service';
import type { ItemEdits } from '../showcases/item-edits.service';
import { ImportIntake } from './import-intake.service';
import { ImportRunner } from './import-runner.service';
import { ImportSpool } from './import-spool';
import { ImportsService } from './imports.service';

/**
 * On the Postgres server: an import racing a DELETE of its showcase (the showcase, and the import, which goes
 * with it, vanishes while the upload is read or just after the import started) answers 404, its background run
 * stops without a foreign-key violation and nothing is left behind; and the view's credits are net of refunds.
 */
describe('ImportsService on the Postgres server', () => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let showcases: ShowcaseRepository;
  let showcaseItems: ShowcaseItemRepository;
  let accounts: AccountRepository;
  const dataDir = tempDir();
  let errors: jest.SpyInstance;
  beforeAll(async () => {
    ({ ds, drop } = await openPostgres()());
    showcases = new ShowcaseRepository(ds);
    showcaseItems = new ShowcaseItemRepository(ds);
    accounts = new AccountRepository(ds);
  });
  afterAll(() => drop());
  beforeEach(() => {
    errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => errors.mockRestore());

  /**
   * A showcase deleted as the service's own deletions do: its row locked first, as every item insert locks it. A bare
   * DELETE raced the background run's item insert (seen once under load): its cascade missed the item committed
   * meanwhile, and the foreign key check failed the DELETE itself.
   */
  const deleteShowcase = (id: number) =>
    ds.transaction(async (m) => {
      await m.query(`SELECT "id" FROM "showcases" WHERE "id" = $1 FOR UPDATE`, [id]);
      await m.query(`DELETE FROM "showcases" WHERE "id" = $1`, [id]);
    });

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
      showcaseItems,
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
    const intake = new ImportIntake(showcaseItems, imports, accounts, runner, {} as ItemEdits, storage, config);
    const service = new ImportsService(showcases, imports, intake, runner, pricing);
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
    const imports = new CatalogueImportRepository(ds);
    const intake = new ImportIntake(
      showcaseItems,
      imports,
      accounts,
      runner,
      {} as ItemEdits,
      {} as StoragePort,
      { dataDir, showcases: { maxItems: 100, maxFileBytes: 1e6, maxFilesPerRequest: 20 } } as unknown as AppConfig,
    );
    const service = new ImportsService(racing, imports, intake, runner, { quote: () => ({ totalCents: 0 }) } as unknown as PricingPolicy);
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
    const made = await showcaseItems.addItems(
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
