import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import {
  AccountRepository,
  InsufficientCreditsError,
  NoShowcaseSlotsError,
  ShowcaseFullError,
  ShowcaseItemRepository,
  ShowcaseRepository,
} from './index';

const showcase = (ownerId: string) => ({ ownerId, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} });
const billing = { enforceSlots: true, showcaseCents: 500, pictureCents: 200 };
const opts = { pipeline: 'still-image' };
const urls = (n: number) => Array.from({ length: n }, (_, i) => ({ source: 'url' as const, sourceUrl: `https://example.com/${i}.jpg` }));

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('ShowcaseRepository and ShowcaseItemRepository.addItems on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let accounts: AccountRepository;
  let showcases: ShowcaseRepository;
  let showcaseItems: ShowcaseItemRepository;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    accounts = new AccountRepository(ds);
    showcases = new ShowcaseRepository(ds);
    showcaseItems = new ShowcaseItemRepository(ds);
  });
  afterAll(() => drop());

  const count = async (table: string) => Number((await ds.query(`SELECT count(*) AS n FROM "${table}"`))[0].n);

  it('writes the showcase, its jobs, items and charges together', async () => {
    const u = await accounts.createUser({ email: `a${Date.now()}@x.co`, showcaseSlots: 1 });
    await accounts.grant(u.id, 1000, null);
    const out = await showcases.create(showcase(u.id), urls(2), billing, opts);
    expect(out.chargedCents).toBe(900);
    expect(out.items.map((i) => i.jobId)).toEqual([expect.stringMatching(/^v2_/), expect.stringMatching(/^v2_/)]);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(100);
    const items = await showcaseItems.items(out.showcase.id);
    expect(items.map((i) => [i.status, i.source, i.embedId?.slice(0, 4)])).toEqual([
      ['queued', 'url', 'emb_'],
      ['queued', 'url', 'emb_'],
    ]);
    expect(
      (await accounts.ledger(u.id, 10)).filter((e) => e.kind === 'charge').map((e) => [e.operation, e.amountCents, e.balanceAfterCents]),
    ).toEqual([
      ['showcase.picture', 200, 100],
      ['showcase.picture', 200, 300],
      ['showcase.create', 500, 500],
    ]);
  });

  it("lists an owner's showcases newest first with item counts, updates page fields, and deletes only an empty one", async () => {
    const u = await accounts.createUser({ email: `l${Date.now()}@x.co` });
    const free = { enforceSlots: false, showcaseCents: 0, pictureCents: 0 };
    const a = (await showcases.create(showcase(u.id), urls(2), free, opts)).showcase;
    const b = (await showcases.create(showcase(u.id), [], free, opts)).showcase;
    expect((await showcases.listForOwner(u.id, 10)).map((s) => [s.id, s.itemCount])).toEqual([
      [b.id, 0],
      [a.id, 2],
    ]);
    expect((await showcases.listForOwner(u.id, 10, b.id)).map((s) => s.id)).toEqual([a.id]);
    expect(await showcases.listForOwner('usr_nobody', 10)).toEqual([]);

    const changed = await showcases.update(b.id, {
      layout: 'dark',
      logoUrl: null,
      description: 'new',
      customLinks: [{ title: 'Shop', url: 'https://s.example/' }],
      branding: { tagline: 't' },
      presentationDefaults: { frame: 'thin' },
    });
    expect(changed).toMatchObject({
      id: b.id,
      layout: 'dark',
      description: 'new',
      customLinks: [{ title: 'Shop', url: 'https://s.example/' }],
      branding: { tagline: 't' },
      presentationDefaults: { frame: 'thin' },
    });
    expect(
      await showcases.update(2_000_000_000, { layout: 'dark', logoUrl: null, description: null, customLinks: [], branding: {} }),
    ).toBeNull();

    expect(await showcases.deleteIfEmpty(a.id)).toBe('not_empty');
    expect(await showcases.deleteIfEmpty(b.id)).toBe('deleted');
    expect(await showcases.deleteIfEmpty(b.id)).toBe('missing');
    expect(await showcases.findForOwner(a.id, u.id)).not.toBeNull();
  });

  it('writes nothing when the credits do not cover everything', async () => {
    const u = await accounts.createUser({ email: `b${Date.now()}@x.co`, showcaseSlots: 1 });
    await accounts.grant(u.id, 899, null);
    const [jobs, items, shows] = [await count('jobs'), await count('showcase_items'), await count('showcases')];
    await expect(showcases.create(showcase(u.id), urls(2), billing, opts)).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect([await count('jobs'), await count('showcase_items'), await count('showcases')]).toEqual([jobs, items, shows]);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(899);
  });

  it('lets exactly one of several concurrent creates take the last slot', async () => {
    const u = await accounts.createUser({ email: `c${Date.now()}@x.co`, showcaseSlots: 1 });
    await accounts.grant(u.id, 10_000, null);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => showcases.create(showcase(u.id), urls(1), billing, opts)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof NoShowcaseSlotsError),
    ).toBe(true);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(10_000 - 700);
    expect(await showcases.countForOwner(u.id)).toBe(1);
  });

  it('never lets concurrent additions take a showcase past its item cap', async () => {
    const u = await accounts.createUser({ email: `full${Date.now()}@x.co`, showcaseSlots: 1 });
    await accounts.grant(u.id, 10_000, null);
    const { showcase: sc } = await showcases.create(showcase(u.id), [], billing, opts);
    const [jobs, balance] = [await count('jobs'), (await accounts.findUser(u.id))!.creditsCents];
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => showcaseItems.addItems(sc, urls(1), 200, { ...opts, maxItems: 3 })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
    expect(refused).toHaveLength(3);
    for (const e of refused) expect(e).toEqual(expect.objectContaining({ name: 'ShowcaseFullError', max: 3, have: 3 }));
    expect(refused.every((e) => e instanceof ShowcaseFullError)).toBe(true);
    expect(await showcaseItems.countItems(sc.id)).toBe(3);
    // Refused additions wrote no job and charged nothing.
    expect(await count('jobs')).toBe(jobs + 3);
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(balance - 3 * 200);
    // A batch that would pass the cap is refused whole, naming what the showcase has.
    const { showcase: two } = await showcases.create(showcase(u.id), [], { ...billing, enforceSlots: false }, opts);
    await showcaseItems.addItems(two, urls(2), 200, { ...opts, maxItems: 3 });
    await expect(showcaseItems.addItems(two, urls(2), 200, { ...opts, maxItems: 3 })).rejects.toMatchObject({
      name: 'ShowcaseFullError',
      have: 2,
    });
    expect(await showcaseItems.countItems(two.id)).toBe(2);
  });

  it('refunds a failed picture once, and finds failures whose refund was lost', async () => {
    const u = await accounts.createUser({ email: `d${Date.now()}@x.co`, showcaseSlots: 1 });
    await accounts.grant(u.id, 700, null);
    const out = await showcases.create(showcase(u.id), urls(1), billing, opts);
    const jobId = out.items[0].jobId;
    await ds.query(`UPDATE "jobs" SET "status" = 'failed', "finished_at" = now() WHERE "id" = $1`, [jobId]);
    expect(await accounts.unrefundedFailures('v2.picture', 'showcase.picture')).toContain(jobId);
    await accounts.refund(jobId, 'showcase.picture');
    await accounts.refund(jobId, 'showcase.picture');
    expect((await accounts.findUser(u.id))!.creditsCents).toBe(200);
    expect(await accounts.unrefundedFailures('v2.picture', 'showcase.picture')).not.toContain(jobId);
  });
});
