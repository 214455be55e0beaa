import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import {
  AccountRepository,
  DataDeletionRepository,
  InsufficientCreditsError,
  ShowcaseRepository,
  ShowcaseWallRepository,
  type WallBuild,
} from './index';

const showcase = (ownerId: string) => ({ ownerId, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} });
const build = (name: string, arrangement = 'row'): WallBuild => ({
  name,
  spec: { items: [{ item_id: 1 }, { item_id: 2 }], arrangement },
  layout: { items: [], outer_dimensions: { width_inches: 50, height_inches: 20, depth_inches: 1 } },
  input: { showcase_id: 0, wall: { arrangement } },
  pipeline: 'gallery-wall',
});

/** Saved walls and visitors' walls on both databases: the charge with the job, the rebuild's embed id, deletion. */
describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('ShowcaseWallRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let accounts: AccountRepository;
  let showcases: ShowcaseRepository;
  let walls: ShowcaseWallRepository;
  let deletions: DataDeletionRepository;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    accounts = new AccountRepository(ds);
    showcases = new ShowcaseRepository(ds);
    walls = new ShowcaseWallRepository(ds);
    deletions = new DataDeletionRepository(ds);
  });
  afterAll(() => drop());

  async function owner(cents: number) {
    const u = await accounts.createUser({ email: `w${Date.now()}${Math.random()}@x.co` });
    if (cents) await accounts.grant(u.id, cents, null);
    const { showcase: s } = await showcases.create(
      showcase(u.id),
      [],
      { enforceSlots: false, showcaseCents: 0, pictureCents: 0 },
      { pipeline: 'showcase-picture' },
    );
    return { userId: u.id, s };
  }
  const job = async (id: string) => (await ds.query(`SELECT * FROM "jobs" WHERE "id" = $1`, [id]))[0];

  it('creates a wall, its queued picture job and its charge in one transaction; all or nothing', async () => {
    const { userId, s } = await owner(150);
    const { wall, chargedCents } = await walls.create(s, build('Hall'), 100);
    expect(chargedCents).toBe(100);
    expect(wall).toMatchObject({ showcaseId: s.id, name: 'Hall', status: 'queued', result: null });
    expect(wall.publicId).toMatch(/^wall_[a-z2-7]{24}$/);
    expect(wall.embedId).toMatch(/^emb_/);
    const j = await job(wall.jobId);
    expect([j.kind, j.pipeline, j.owner_id]).toEqual(['v2.picture', 'gallery-wall', userId]);
    expect((await accounts.findUser(userId))!.creditsCents).toBe(50);
    // The charge is the job's: refunded as a failed picture job's would be.
    expect(await accounts.jobCredits(wall.jobId)).toEqual({ chargedCents: 100, refundedCents: 0 });
    await expect(walls.create(s, build('Too dear'), 100)).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect((await walls.list(s.id)).map((w) => w.name)).toEqual(['Hall']);
    expect(await walls.find(s.id, wall.publicId)).toMatchObject({ id: wall.id });
    expect(await walls.find(s.id + 1, wall.publicId)).toBeNull();
    expect(await walls.find(s.id, `${wall.publicId}' OR 1=1`)).toBeNull();
  });

  it('renames; rebuilds with a new job that takes the embed id, once, when the wall is still served by the old one', async () => {
    const { userId, s } = await owner(0);
    const { wall } = await walls.create(s, build('A'), 0);
    expect((await walls.rename(wall.id, 'B'))!.name).toBe('B');
    await ds.query(`UPDATE "jobs" SET "status" = 'completed', "finished_at" = now() WHERE "id" = $1`, [wall.jobId]);
    const out = await walls.rebuild(wall.id, userId, wall.jobId, build('B', 'grid'));
    expect(out!.replacedJobId).toBe(wall.jobId);
    expect(out!.wall).toMatchObject({ name: 'B', status: 'queued', embedId: wall.embedId, spec: { arrangement: 'grid' } });
    expect(out!.wall.jobId).not.toBe(wall.jobId);
    expect((await job(wall.jobId)).public_id).not.toBe(wall.embedId);
    // A second edit made from the old state changes nothing.
    expect(await walls.rebuild(wall.id, userId, wall.jobId, build('C'))).toBeNull();
    expect(await walls.jobIds(s.id)).toEqual([out!.wall.jobId]);
    // Deleting the wall's job deletes the wall; the replaced job's deletion leaves it.
    await ds.query(`UPDATE "jobs" SET "status" = 'completed', "finished_at" = now() WHERE "id" = $1`, [out!.wall.jobId]);
    await deletions.deleteFinishedJobs([wall.jobId], 'owner');
    expect(await walls.list(s.id)).toHaveLength(1);
    await deletions.deleteFinishedJobs([out!.wall.jobId], 'owner');
    expect(await walls.list(s.id)).toEqual([]);
  });

  it("records visitors' walls and finds them by showcase, by item and by owner", async () => {
    const { userId, s } = await owner(0);
    const other = await owner(0);
    await walls.recordVisitorWall(s.id, 'walls/visitor/a/1', [11, 12]);
    await walls.recordVisitorWall(s.id, 'walls/visitor/a/1', [11, 12]);
    await walls.recordVisitorWall(s.id, 'walls/visitor/a/2', [12, 13]);
    await walls.recordVisitorWall(other.s.id, 'walls/visitor/b/1', [11, 14]);
    // A showcase deleted meanwhile: nothing recorded, nothing thrown.
    await walls.recordVisitorWall(999_999, 'walls/visitor/z/1', [1, 2]);
    expect((await deletions.visitorWalls({ showcaseId: s.id })).sort()).toEqual(['walls/visitor/a/1', 'walls/visitor/a/2']);
    expect(await deletions.visitorWalls({ showcaseId: s.id, itemId: 11 })).toEqual(['walls/visitor/a/1']);
    expect(await deletions.visitorWalls({ showcaseId: s.id, itemId: 14 })).toEqual([]);
    expect(await deletions.visitorWalls({ ownerId: other.userId })).toEqual(['walls/visitor/b/1']);
    await deletions.forgetVisitorWalls(['walls/visitor/a/1']);
    expect(await deletions.visitorWalls({ ownerId: userId })).toEqual(['walls/visitor/a/2']);
    expect(await deletions.deleteUser(userId)).toBe(true);
    expect(await deletions.visitorWalls({ showcaseId: s.id })).toEqual([]);
  });
  it("keeps visitors' walls' sizes and last use: the byte cap's least recently used, the age limit's idle ones", async () => {
    const { s } = await owner(0);
    const other = await owner(0);
    const base = (k: string) => `walls/visitor/cap/${k}`;
    const at = (k: string, minutesAgo: number) =>
      ds.query(`UPDATE "visitor_walls" SET "last_used_at" = now() - $2 * interval '1 minute' WHERE "base" = $1`, [base(k), minutesAgo]);
    for (const [k, bytes] of [
      ['a', 300],
      ['b', 300],
      ['c', 300],
      ['d', 300],
    ] as const)
      await walls.recordVisitorWall(s.id, base(k), [1], bytes);
    await walls.recordVisitorWall(other.s.id, 'walls/visitor/other/x', [1], 5000);
    await at('a', 90);
    await at('b', 10);
    await at('c', 200);
    await at('d', 0);
    expect(await walls.visitorWallUsage(s.id)).toEqual({ bytes: 1200, walls: 4 });
    // 700 bytes: d (kept: the one just built) and the most recently used others that fit; another showcase's walls never count.
    expect((await walls.visitorWallsPastCap(s.id, 700, base('d'))).sort()).toEqual([base('a'), base('c')]);
    expect(await walls.visitorWallsPastCap(s.id, 1200, base('d'))).toEqual([]);
    // The one kept is kept even when it alone is over.
    expect((await walls.visitorWallsPastCap(s.id, 100, base('c'))).sort()).toEqual([base('a'), base('b'), base('d')]);
    // Served again: used now, but written at most once within the window.
    await walls.touchVisitorWall(base('c'));
    expect((await walls.visitorWallsPastCap(s.id, 700, base('d'))).sort()).toEqual([base('a'), base('b')]);
    const used = async (k: string) =>
      new Date((await ds.query(`SELECT "last_used_at" FROM "visitor_walls" WHERE "base" = $1`, [base(k)]))[0].last_used_at).getTime();
    const first = await used('c');
    await walls.touchVisitorWall(base('c'), new Date(first + 60_000));
    expect(await used('c')).toBe(first);
    await walls.touchVisitorWall(base('c'), new Date(first + 2 * 3_600_000));
    expect(await used('c')).toBe(first + 2 * 3_600_000);
    // A rebuild of the same base takes its new size and is used now.
    await walls.recordVisitorWall(s.id, base('a'), [1], 50);
    expect(await walls.visitorWallUsage(s.id)).toEqual({ bytes: 950, walls: 4 });
    // The age limit: idle since before the cutoff, least recently used first, in batches.
    await at('b', 60 * 24 * 40);
    await at('d', 60 * 24 * 31);
    const cutoff = new Date(Date.now() - 30 * 86_400_000);
    expect(await deletions.expiredVisitorWalls(cutoff, 10)).toEqual([base('b'), base('d')]);
    expect(await deletions.expiredVisitorWalls(cutoff, 1)).toEqual([base('b')]);
  });
});
