import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import { AccountRepository, DataDeletionRepository, JobRepository, ledgerPseudonym, ShowcaseRepository } from './index';

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres()],
])('DataDeletionRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let jobs: JobRepository;
  let accounts: AccountRepository;
  let repo: DataDeletionRepository;

  beforeAll(async () => {
    ({ ds, drop } = await open());
    jobs = new JobRepository(ds);
    accounts = new AccountRepository(ds);
    repo = new DataDeletionRepository(ds);
  });
  afterAll(() => drop());

  const DAY = 86_400_000;
  /** A job finished `ageDays` ago (null: still queued). */
  const job = async (ownerId: string | null, ageDays: number | null, status: 'completed' | 'failed' = 'completed') => {
    const j = await jobs.create({ kind: 'v2.item', pipeline: 'still-image', ownerId, input: {}, idPrefix: 'v2', withPublicPage: true });
    if (ageDays !== null)
      await ds.query(`UPDATE "jobs" SET "status" = $2, "finished_at" = $3 WHERE "id" = $1`, [
        j.id,
        status,
        new Date(Date.now() - ageDays * DAY),
      ]);
    return j;
  };

  it('returns expired finished jobs in batches, oldest first, never unfinished or recent ones', async () => {
    await ds.query(`DELETE FROM "jobs"`);
    const old = [await job('u1', 40), await job('u1', 35, 'failed'), await job('u2', 31)];
    await job('u1', 5);
    await job('u1', null);
    const before = new Date(Date.now() - 30 * DAY);
    const first = await repo.expiredJobs(before, 2);
    expect(first.map((j) => j.id)).toEqual([old[0].id, old[1].id]);
    expect(first[0]).toMatchObject({ status: 'completed', ownerId: 'u1', publicId: old[0].publicId, input: {}, checkpoints: {} });
    expect(
      await repo.deleteFinishedJobs(
        first.map((j) => j.id),
        'retention',
      ),
    ).toEqual(first.map((j) => j.id));
    const second = await repo.expiredJobs(before, 2);
    expect(second.map((j) => j.id)).toEqual([old[2].id]);
    await repo.deleteFinishedJobs(
      second.map((j) => j.id),
      'retention',
    );
    expect(await repo.expiredJobs(before, 2)).toEqual([]);
    expect(Number((await ds.query(`SELECT count(*) AS n FROM "jobs"`))[0].n)).toBe(2);
  });

  it('leaves a tombstone (by id and by public id) and refuses unfinished jobs', async () => {
    const done = await job('u3', 1);
    const running = await job('u3', null);
    expect(await repo.deleteFinishedJobs([done.id, running.id], 'owner')).toEqual([done.id]);
    expect(await jobs.find(done.id)).toBeNull();
    expect(await jobs.find(running.id)).not.toBeNull();
    expect(await repo.tombstone({ id: done.id })).toMatchObject({ id: done.id, publicId: done.publicId, ownerId: 'u3', reason: 'owner' });
    expect(await repo.tombstone({ publicId: done.publicId! })).toMatchObject({ id: done.id });
    expect(await repo.tombstone({ id: running.id })).toBeNull();
    // Deleting again is a no-op.
    expect(await repo.deleteFinishedJobs([done.id], 'owner')).toEqual([]);
  });

  it('deletes a user with keys, showcases and jobs, keeping the ledger anonymised', async () => {
    const u = await accounts.createUser({ email: `del${Date.now()}@x.co`, showcaseSlots: 1 });
    await accounts.addKey(u.id, { keyHash: 'a'.repeat(64), prefix: 'sk_live_aaaa' });
    await accounts.grant(u.id, 5000, 'welcome');
    const showcases = new ShowcaseRepository(ds);
    const sc = await showcases.create(
      { ownerId: u.id, layout: 'branded', logoUrl: null, description: null, customLinks: [], branding: {} },
      [{ source: 'url', sourceUrl: 'https://example.com/a.jpg' }],
      { enforceSlots: true, showcaseCents: 500, pictureCents: 200 },
      { pipeline: 'still-image' },
    );
    const itemJob = sc.items[0].jobId;
    await ds.query(`UPDATE "jobs" SET "status" = 'completed', "finished_at" = now() WHERE "id" = $1`, [itemJob]);
    const other = await accounts.createUser({ email: `keep${Date.now()}@x.co` });
    await accounts.grant(other.id, 100, null);
    const entries = Number((await ds.query(`SELECT count(*) AS n FROM "ledger_entries" WHERE "user_id" = $1`, [u.id]))[0].n);
    expect(entries).toBeGreaterThanOrEqual(3);

    expect((await repo.jobsOfOwner(u.id, 10)).map((j) => j.id)).toEqual([itemJob]);
    expect(await repo.unfinishedOfOwner(u.id)).toBe(0);
    expect(await repo.deleteUser(u.id)).toBe(true);

    expect(await accounts.findUser(u.id)).toBeNull();
    expect(await jobs.find(itemJob)).toBeNull();
    expect(await repo.tombstone({ id: itemJob })).toMatchObject({ reason: 'user_deleted', ownerId: null });
    for (const [table, col] of [
      ['api_keys', 'user_id'],
      ['showcases', 'owner_id'],
      ['ledger_entries', 'user_id'],
      ['deleted_jobs', 'owner_id'],
    ]) {
      expect(Number((await ds.query(`SELECT count(*) AS n FROM "${table}" WHERE "${col}" = $1`, [u.id]))[0].n)).toBe(0);
    }
    const kept: { user_pseudonym: string; job_id: string | null }[] = await ds.query(
      `SELECT "user_pseudonym", "job_id" FROM "ledger_entries" WHERE "user_pseudonym" = $1`,
      [ledgerPseudonym(u.id)],
    );
    expect(kept).toHaveLength(entries);
    expect(ledgerPseudonym(u.id)).toMatch(/^deleted_[0-9a-f]{24}$/);
    expect(ledgerPseudonym(u.id)).not.toContain(u.id);
    // Other users are untouched.
    expect((await accounts.findUser(other.id))!.creditsCents).toBe(100);
    expect(await repo.deleteUser(u.id)).toBe(false);
  });
});
