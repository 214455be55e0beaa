import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import { AccountRepository, AnalyticsRepository, type AnalyticsCountRow, JobRepository, ShowcaseRepository } from './index';

const free = { enforceSlots: false, showcaseCents: 0, pictureCents: 0 };
const showcase = (ownerId: string) => ({ ownerId, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} });

/** The daily counts: batches applied once with their cursor, visitors counted once a day, the API's reads. */
describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('AnalyticsRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let repo: AnalyticsRepository;
  let ownerId: string;
  let showcaseId: number;
  let publicId: string;
  let items: number[];
  beforeAll(async () => {
    ({ ds, drop } = await open());
    repo = new AnalyticsRepository(ds);
    const u = await new AccountRepository(ds).createUser({ email: `a${Date.now()}@x.co` });
    ownerId = u.id;
    const created = await new ShowcaseRepository(ds).create(
      showcase(u.id),
      [0, 1].map((i) => ({ source: 'url' as const, sourceUrl: `https://example.com/${i}.jpg`, presentation: { title: `Work ${i}` } })),
      free,
      { pipeline: 'showcase-picture' },
    );
    showcaseId = created.showcase.id;
    publicId = created.showcase.publicId;
    items = created.items.map((i) => i.id);
  });
  afterAll(() => drop());

  const row = (over: Partial<AnalyticsCountRow>): AnalyticsCountRow => ({
    day: '2026-11-24',
    ownerId,
    showcaseId,
    itemId: 0,
    surface: 'showcase',
    variant: '',
    event: 'view',
    platform: '',
    referrerHost: '',
    count: 1,
    ...over,
  });

  it('adds a batch once: a second apply from the same cursor writes nothing', async () => {
    const log = `log-${Date.now()}`;
    const rows = [
      row({ count: 3 }),
      row({ itemId: items[0], surface: 'item', count: 2 }),
      row({ itemId: items[0], event: 'ar_launch', platform: 'quick_look' }),
    ];
    const visitors = [
      { day: '2026-11-24', ownerId, showcaseId, itemId: 0, n: 2 },
      { day: '2026-11-24', ownerId, showcaseId, itemId: items[0], n: 1 },
    ];
    expect(await repo.cursor(log)).toBeNull();
    expect(await repo.applyBatch(log, null, '0001', rows, visitors)).toBe(true);
    expect(await repo.applyBatch(log, null, '0001', rows, visitors)).toBe(false);
    expect(await repo.cursor(log)).toBe('0001');
    // The next batch, without new visitors.
    expect(await repo.applyBatch(log, '0001', '0002', [row({ count: 1 })], [])).toBe(true);
    expect(await repo.applyBatch(log, '0001', '0003', [row({ count: 1 })], [])).toBe(false);

    const t = await repo.totals({ ownerId, from: '2026-11-24', to: '2026-11-24' });
    expect(t).toEqual({ counts: { view: 6, ar_launch: 1 }, visitors: 2, groups: null });
    const item = await repo.totals({ ownerId, from: '2026-11-01', to: '2026-11-30', showcaseId, itemId: items[0] });
    expect(item).toMatchObject({ counts: { view: 2, ar_launch: 1 }, visitors: 1 });
    const byItem = await repo.totals({ ownerId, from: '2026-11-24', to: '2026-11-24' }, 'item');
    expect(byItem.groups).toEqual([{ key: String(items[0]), counts: { view: 2, ar_launch: 1 }, visitors: 1, showcaseId, title: 'Work 0' }]);
    const byPlatform = await repo.totals({ ownerId, from: '2026-11-24', to: '2026-11-24' }, 'platform');
    expect(byPlatform.groups).toEqual([
      { key: '', counts: { view: 6 }, visitors: null },
      { key: 'quick_look', counts: { ar_launch: 1 }, visitors: null },
    ]);
    const byDay = await repo.totals({ ownerId: null, from: '2026-11-23', to: '2026-11-25' }, 'day');
    expect(byDay.groups).toEqual([{ key: '2026-11-24', counts: { view: 6, ar_launch: 1 }, visitors: 2 }]);
    // Another account sees none of it.
    expect((await repo.totals({ ownerId: 'usr_other', from: '2026-11-24', to: '2026-11-24' })).counts).toEqual({});
  });

  it('looks up whose page a site id is, and the switch per showcase', async () => {
    expect(await repo.siteOfShowcase(publicId)).toEqual({ showcaseId, ownerId, enabled: true });
    expect(await repo.siteOfShowcase('shw_nope')).toBeNull();
    const embed = (
      await ds.query(`SELECT j."public_id" FROM "jobs" j JOIN "showcase_items" i ON i."job_id" = j."id" WHERE i."id" = $1`, [items[1]])
    )[0].public_id;
    expect(await repo.siteOfEmbed(embed)).toEqual({ showcaseId, itemId: items[1], ownerId, enabled: true });
    expect([...(await repo.itemsOf(showcaseId)).keys()]).toEqual(expect.arrayContaining(items));
    await repo.setShowcaseAnalytics(showcaseId, false);
    expect((await repo.siteOfShowcase(publicId))?.enabled).toBe(false);
    await repo.setShowcaseAnalytics(showcaseId, true);
  });

  it("counts a v1 conversion's embed pages as its job: its own rows and visitors, read by job, in its owner's totals", async () => {
    const jobs = new JobRepository(ds);
    const v1 = (owner: string | null) =>
      jobs.create({ kind: 'v1.convert', pipeline: 'still-image', ownerId: owner, input: {}, idPrefix: 'api', withPublicPage: true });
    const [a, b, orphan] = [await v1(ownerId), await v1(ownerId), await v1(null)];
    // Its emb_ id is the job's site: the owner, no showcase; one without an owner counts nowhere.
    expect(await repo.siteOfEmbed(a.publicId!)).toEqual({ jobId: a.id, ownerId, enabled: true });
    expect(await repo.siteOfEmbed(orphan.publicId!)).toBeNull();
    expect(await repo.siteOfEmbed('emb_nope')).toBeNull();

    const day = '2026-10-05';
    const job = (jobId: string, over: Partial<AnalyticsCountRow> = {}) => row({ day, showcaseId: 0, jobId, surface: 'embed', ...over });
    const log = `log-jobs-${Date.now()}`;
    // The same day and dimension for two jobs: two rows, not one (the job is part of the key).
    expect(
      await repo.applyBatch(
        log,
        null,
        '0001',
        [job(a.id, { count: 3 }), job(b.id, { count: 5 }), job(a.id, { event: 'ar_launch', platform: 'quick_look', surface: 'widget' })],
        [
          { day, ownerId, showcaseId: 0, itemId: 0, jobId: a.id, n: 2 },
          { day, ownerId, showcaseId: 0, itemId: 0, jobId: b.id, n: 4 },
        ],
      ),
    ).toBe(true);
    // A second batch adds to each job's own rows.
    expect(await repo.applyBatch(log, '0001', '0002', [job(a.id)], [{ day, ownerId, showcaseId: 0, itemId: 0, jobId: a.id, n: 1 }])).toBe(
      true,
    );
    const f = { ownerId, from: day, to: day };
    expect(await repo.totals({ ...f, jobId: a.id })).toEqual({ counts: { view: 4, ar_launch: 1 }, visitors: 3, groups: null });
    expect(await repo.totals({ ...f, jobId: b.id })).toEqual({ counts: { view: 5 }, visitors: 4, groups: null });
    expect((await repo.totals({ ...f, jobId: a.id }, 'platform')).groups).toEqual([
      { key: '', counts: { view: 4 }, visitors: null },
      { key: 'quick_look', counts: { ar_launch: 1 }, visitors: null },
    ]);
    // Per conversion, with its visitors: the account's v1 pictures side by side.
    expect((await repo.totals(f, 'job')).groups).toEqual(
      [
        { key: a.id, counts: { view: 4, ar_launch: 1 }, visitors: 3 },
        { key: b.id, counts: { view: 5 }, visitors: 4 },
      ].sort((x, y) => x.key.localeCompare(y.key)),
    );
    // The account's totals hold both jobs; no showcase holds them; another account sees nothing.
    expect(await repo.totals(f)).toMatchObject({ counts: { view: 9, ar_launch: 1 }, visitors: 7 });
    expect((await repo.totals({ ...f, showcaseId })).counts).toEqual({});
    expect((await repo.totals({ ...f, ownerId: 'usr_other', jobId: a.id })).counts).toEqual({});
    expect((await repo.totals({ ownerId: null, from: day, to: day, jobId: b.id })).counts).toEqual({ view: 5 });
  });
});
