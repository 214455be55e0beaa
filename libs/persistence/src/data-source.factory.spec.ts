import { createTestDatabase } from '@app/testing';
import { createDataSource, isDatabaseUnavailable, MIGRATIONS } from './index';

describe('createDataSource on a Postgres server', () => {
  it('lets processes that start together on an empty database migrate one at a time (advisory lock)', async () => {
    const db = await createTestDatabase();
    try {
      // Without the lock, concurrent CREATE TABLEs fail with "duplicate key value violates unique
      // constraint pg_type_typname_nsp_index" and the process only recovers by retrying.
      const all = await Promise.allSettled([1, 2, 3, 4].map(() => createDataSource({ databaseUrl: db.url, dataDir: '', poolSize: 2 })));
      const failed = all.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
      expect(failed).toEqual([]);
      const sources = all.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof createDataSource>>>).value);
      const rows: { name: string }[] = await sources[0].query('SELECT "name" FROM "migrations" ORDER BY "id"');
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      for (const ds of sources) await ds.destroy();
    } finally {
      await db.drop();
    }
  });

  it('bounds a query on a server that stopped answering, and reports it as unavailable', async () => {
    const db = await createTestDatabase();
    const ds = await createDataSource({ databaseUrl: db.url, dataDir: '', poolSize: 1, queryTimeoutMs: 300 });
    try {
      const t0 = Date.now();
      const err = await ds.query('SELECT pg_sleep(5)').catch((e: unknown) => e);
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });
});

describe('isDatabaseUnavailable', () => {
  it('tells connection failures from query errors', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseUnavailable({ driverError: { code: '57P01' } })).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}))).toBe(
      true,
    );
    expect(isDatabaseUnavailable({ code: '23505', message: 'duplicate key value violates unique constraint' })).toBe(false);
    expect(isDatabaseUnavailable(new Error('syntax error at or near "SELEC"'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
