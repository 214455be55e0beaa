import type { DataSource } from 'typeorm';
import { openPglite, openPostgres } from '@app/testing';
import { IdempotencyRepository } from './index';

describe.each([
  ['PGlite (embedded)', openPglite],
  ['Postgres server (scaled)', openPostgres(20)],
])('IdempotencyRepository on %s', (_name, open) => {
  let ds: DataSource;
  let drop: () => Promise<void>;
  let repo: IdempotencyRepository;
  const DAY = 24 * 3600_000;
  beforeAll(async () => {
    ({ ds, drop } = await open());
    repo = new IdempotencyRepository(ds);
  });
  afterAll(() => drop());

  it('lets one request claim a key, then replays its answer and refuses a different body', async () => {
    expect(await repo.claim('u1', 'k1', 'f'.repeat(64), DAY)).toEqual({ state: 'claimed' });
    expect(await repo.claim('u1', 'k1', 'f'.repeat(64), DAY)).toEqual({ state: 'in_progress' });
    await repo.complete('u1', 'k1', 202, { job_id: 'api_x', n: 1.5 });
    expect(await repo.claim('u1', 'k1', 'f'.repeat(64), DAY)).toEqual({
      state: 'done',
      status: 202,
      response: { job_id: 'api_x', n: 1.5 },
    });
    expect(await repo.claim('u1', 'k1', 'e'.repeat(64), DAY)).toEqual({ state: 'mismatch' });
    // Keys are per user.
    expect(await repo.claim('u2', 'k1', 'e'.repeat(64), DAY)).toEqual({ state: 'claimed' });
  });

  it('tells whether a key has a kept answer, without claiming it', async () => {
    expect(await repo.answered('u6', 'k', DAY)).toBe(false);
    await repo.claim('u6', 'k', 'a'.repeat(64), DAY);
    expect(await repo.answered('u6', 'k', DAY)).toBe(false); // still running
    await repo.complete('u6', 'k', 202, { ok: true });
    expect(await repo.answered('u6', 'k', DAY)).toBe(true);
    expect(await repo.answered('u7', 'k', DAY)).toBe(false);
    await ds.query(`UPDATE "idempotency_keys" SET "created_at" = now() - interval '25 hours' WHERE "user_id" = 'u6'`);
    expect(await repo.answered('u6', 'k', DAY)).toBe(false);
    expect(await repo.answered('u6', 'k', 2 * DAY)).toBe(true);
    await ds.query(`DELETE FROM "idempotency_keys" WHERE "user_id" = 'u6'`); // the purge test counts the old rows
  });

  it('has exactly one winner among concurrent claims', async () => {
    const claims = await Promise.all(Array.from({ length: 10 }, () => repo.claim('u3', 'race', 'a'.repeat(64), DAY)));
    expect(claims.filter((c) => c.state === 'claimed')).toHaveLength(1);
    expect(claims.filter((c) => c.state === 'in_progress')).toHaveLength(9);
  });

  it('frees a claim whose request never finished after 10 minutes', async () => {
    await repo.claim('u5', 'k', 'a'.repeat(64), DAY);
    expect((await repo.claim('u5', 'k', 'a'.repeat(64), DAY)).state).toBe('in_progress');
    await ds.query(`UPDATE "idempotency_keys" SET "created_at" = now() - interval '11 minutes' WHERE "user_id" = 'u5'`);
    expect(await repo.claim('u5', 'k', 'a'.repeat(64), DAY)).toEqual({ state: 'claimed' });
  });

  it('frees a released key and forgets keys older than the TTL', async () => {
    await repo.claim('u4', 'k', 'a'.repeat(64), DAY);
    await repo.release('u4', 'k');
    expect(await repo.claim('u4', 'k', 'b'.repeat(64), DAY)).toEqual({ state: 'claimed' });
    await repo.complete('u4', 'k', 201, { ok: true });
    await ds.query(`UPDATE "idempotency_keys" SET "created_at" = now() - interval '25 hours' WHERE "user_id" = 'u4'`);
    // Still within a 48 h TTL, expired for 24 h.
    expect((await repo.claim('u4', 'k', 'c'.repeat(64), 2 * DAY)).state).toBe('mismatch');
    expect(await repo.claim('u4', 'k', 'c'.repeat(64), DAY)).toEqual({ state: 'claimed' });
    await ds.query(`UPDATE "idempotency_keys" SET "created_at" = now() - interval '25 hours' WHERE "user_id" = 'u1'`);
    expect(await repo.purgeExpired(DAY)).toBe(1);
  });
});
