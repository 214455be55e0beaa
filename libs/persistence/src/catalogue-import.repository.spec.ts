import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import {
  AccountRepository,
  CatalogueImportRepository,
  emptyCounts,
  rowStatus,
  ShowcaseGoneError,
  ShowcaseItemRepository,
  ShowcaseRepository,
} from './index';

const showcase = (ownerId: string) => ({ ownerId, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} });
const free = { enforceSlots: false, showcaseCents: 0, pictureCents: 0 };
const opts = { pipeline: 'still-image' };

describe('rowStatus', () => {
  it('reads a row from its columns', () => {
    expect(rowStatus({ field: 'width_cm', message: 'must be a number' })).toBe('invalid');
    expect(rowStatus({ field: '', message: 'must be an object' })).toBe('invalid');
    expect(rowStatus({ field: null, message: 'created', jobStatus: 'queued' })).toBe('created');
    expect(rowStatus({ field: null, message: 'created', jobStatus: 'failed' })).toBe('failed');
    expect(rowStatus({ field: null, message: 'unchanged' })).toBe('unchanged');
    expect(rowStatus({ field: null, message: 'insufficient_credits' })).toBe('skipped');
  });
});

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(5)],
])('CatalogueImportRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let imports: CatalogueImportRepository;
  let showcases: ShowcaseRepository;
  let showcaseItems: ShowcaseItemRepository;
  let accounts: AccountRepository;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    imports = new CatalogueImportRepository(ds);
    showcases = new ShowcaseRepository(ds);
    showcaseItems = new ShowcaseItemRepository(ds);
    accounts = new AccountRepository(ds);
  });
  afterAll(() => drop());

  async function setup(items = 0) {
    const u = await accounts.createUser({ email: `i${Date.now()}${Math.random()}@x.co` });
    const pictures = Array.from({ length: items }, (_, i) => ({
      source: 'url' as const,
      sourceUrl: `https://example.com/${i}.jpg`,
      catalogue: { externalId: `INV-${i}` },
    }));
    const created = await showcases.create(showcase(u.id), pictures, free, opts);
    return { userId: u.id, showcase: created.showcase, items: created.items };
  }

  it('creates an import for its owner only, and records progress with its report rows', async () => {
    const { userId, showcase: s, items } = await setup(2);
    const imp = await imports.create(s.id, userId, { ...emptyCounts(), rows: 5, invalid: 1 });
    expect(imp).toMatchObject({ id: expect.stringMatching(/^imp_[a-z2-7]{24}$/), status: 'running', showcaseId: s.id, finishedAt: null });
    expect(imp.counts).toMatchObject({ rows: 5, invalid: 1, created: 0, heartbeatMs: expect.any(Number) });
    expect(await imports.findForOwner(imp.id, userId)).toMatchObject({ id: imp.id });
    expect(await imports.findForOwner(imp.id, 'usr_other')).toBeNull();

    await imports.addRows(imp.id, [{ row: 2, field: 'width_cm', message: 'must be a number' }]);
    const counts = { ...emptyCounts(), rows: 5, invalid: 1, created: 2, skipped: 1, processed: 4 };
    expect(
      await imports.progress(
        imp.id,
        [
          { row: 1, message: 'created', itemId: items[0].id, jobId: items[0].jobId },
          { row: 3, message: 'created', itemId: items[1].id, jobId: items[1].jobId },
          { row: 4, message: 'insufficient_credits' },
        ],
        counts,
      ),
    ).toBe(true);
    expect(await imports.jobStates(imp.id)).toEqual({ queued: 2, completed: 0, failed: 0 });

    await ds.query(`UPDATE "jobs" SET "status" = 'failed', "error" = $2 WHERE "id" = $1`, [
      items[1].jobId,
      JSON.stringify({ code: 'fetch_http_error', message: 'fetch: the source answered HTTP 404' }),
    ]);
    expect(await imports.jobStates(imp.id)).toEqual({ queued: 1, completed: 0, failed: 1 });
    const problems = await imports.report(imp.id, { problems: true });
    expect(problems.map((r) => [r.row, r.status, r.field, r.message, r.itemId])).toEqual([
      [2, 'invalid', 'width_cm', 'must be a number', null],
      [3, 'failed', null, 'conversion failed: fetch: the source answered HTTP 404', items[1].id],
      [4, 'skipped', null, 'insufficient_credits', null],
    ]);
    expect((await imports.report(imp.id, { problems: false })).map((r) => r.status)).toEqual(['created', 'invalid', 'failed', 'skipped']);
    expect((await imports.report(imp.id, { problems: false, afterRow: 2, limit: 1 })).map((r) => r.row)).toEqual([3]);

    expect(await imports.complete(imp.id, { ...counts, processed: 5 })).toBe(true);
    expect(await imports.complete(imp.id, counts)).toBe(false);
    expect(await imports.progress(imp.id, [{ row: 5, message: 'created' }], counts)).toBe(false);
    const done = (await imports.find(imp.id))!;
    expect(done).toMatchObject({ status: 'completed', finishedAt: expect.any(Date) });
    expect(done.counts.processed).toBe(5);
  });

  it('finds abandoned imports by their heartbeat and completes them, reporting every row not dealt with as skipped', async () => {
    const { userId, showcase: s } = await setup();
    const imp = await imports.create(s.id, userId, { ...emptyCounts(), rows: 4, invalid: 1 });
    await imports.addRows(imp.id, [{ row: 3, field: 'image_url', message: 'required' }]);
    await imports.progress(imp.id, [{ row: 1, message: 'created' }], { ...emptyCounts(), rows: 4, invalid: 1, created: 1, processed: 2 });
    expect(await imports.abandoned(60_000)).not.toContain(imp.id);
    expect(await imports.abandoned(0)).toContain(imp.id);
    await ds.query(`UPDATE "catalogue_imports" SET "counts" = jsonb_set("counts", '{heartbeatMs}', '1') WHERE "id" = $1`, [imp.id]);
    expect(await imports.abandoned(60_000)).toContain(imp.id);
    await imports.heartbeat([imp.id]);
    expect(await imports.abandoned(60_000)).not.toContain(imp.id);
    expect(await imports.running([imp.id, 'imp_none'])).toEqual(new Set([imp.id]));

    expect(await imports.abandon(imp.id, 'interrupted')).toBe(2);
    expect(await imports.abandon(imp.id, 'interrupted')).toBeNull();
    const done = (await imports.find(imp.id))!;
    expect(done.status).toBe('completed');
    expect(done.counts).toMatchObject({ rows: 4, invalid: 1, created: 1, skipped: 2, processed: 4 });
    expect((await imports.report(imp.id, { problems: true })).map((r) => [r.row, r.status, r.message])).toEqual([
      [2, 'skipped', 'interrupted'],
      [3, 'invalid', 'required'],
      [4, 'skipped', 'interrupted'],
    ]);
    expect(await imports.running([imp.id])).toEqual(new Set());
  });

  it("counts the refunds of the pictures it created, a group's picture once: the import's charge net of them", async () => {
    const { userId, showcase: s } = await setup();
    await ds.query(`UPDATE "users" SET "credits_cents" = 1000 WHERE "id" = $1`, [userId]);
    const pictures = [0, 1, 2].map((i) => ({ source: 'url' as const, sourceUrl: `https://example.com/r${i}.jpg` }));
    const created = await showcaseItems.addItems(s, pictures, 200, { pipeline: 'still-image', maxItems: 100 });
    expect(created.chargedCents).toBe(600);
    const [a, b, c] = created.items;
    const imp = await imports.create(s.id, userId, { ...emptyCounts(), rows: 5 });
    const counts = { ...emptyCounts(), rows: 5, created: 4, updated: 1, processed: 5, chargedCents: 600 };
    const rows = [
      // Rows 1 and 2: one item's variant rows, one picture.
      { row: 1, message: 'created', itemId: a.id, jobId: a.jobId },
      { row: 2, message: 'created', itemId: a.id, jobId: a.jobId },
      { row: 3, message: 'created', itemId: b.id, jobId: b.jobId },
      { row: 4, message: 'created', itemId: c.id, jobId: c.jobId },
      // An update whose rebuild job failed: free, nothing to net.
      { row: 5, message: 'updated', itemId: c.id, jobId: c.jobId },
    ];
    expect(await imports.progress(imp.id, rows, counts)).toBe(true);
    expect(await imports.refundedCents(imp.id)).toBe(0);
    // Both failed pictures are refunded (a replayed refund is written once).
    await accounts.refund(a.jobId, 'showcase.picture');
    await accounts.refund(b.jobId, 'showcase.picture');
    await accounts.refund(b.jobId, 'showcase.picture');
    expect(await imports.refundedCents(imp.id)).toBe(400);
    expect((await accounts.findUser(userId))?.creditsCents).toBe(800);
  });

  it('refuses an import or new items for a deleted showcase with ShowcaseGoneError, not a foreign-key violation', async () => {
    const { userId, showcase: s } = await setup();
    await ds.query(`DELETE FROM "showcases" WHERE "id" = $1`, [s.id]);
    await expect(imports.create(s.id, userId)).rejects.toBeInstanceOf(ShowcaseGoneError);
    const picture = { source: 'url' as const, sourceUrl: 'https://example.com/gone.jpg' };
    await expect(showcaseItems.addItems(s, [picture], 0, { pipeline: 'still-image', maxItems: 10 })).rejects.toBeInstanceOf(
      ShowcaseGoneError,
    );
  });

  it('finds items by external id within one showcase, and removes an import with its report', async () => {
    const { userId, showcase: s, items } = await setup(3);
    const other = await setup(1);
    expect(await imports.itemIdsByExternalId(s.id, ['INV-0', 'INV-2', 'INV-9'])).toEqual(
      new Map([
        ['INV-0', items[0].id],
        ['INV-2', items[2].id],
      ]),
    );
    expect(await imports.itemIdsByExternalId(other.showcase.id, ['INV-1'])).toEqual(new Map());
    expect(await imports.itemIdsByExternalId(s.id, [])).toEqual(new Map());
    const imp = await imports.create(s.id, userId);
    await imports.addRows(imp.id, [{ row: 1, message: 'created' }]);
    await imports.remove(imp.id);
    expect(await imports.find(imp.id)).toBeNull();
    expect(Number((await ds.query(`SELECT count(*) AS n FROM "catalogue_import_rows" WHERE "import_id" = $1`, [imp.id]))[0].n)).toBe(0);
  });
});
