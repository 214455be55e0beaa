import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { seedPglite } from '@app/testing';
import { PglitePool } from './pglite-pg.adapter';

describe('PglitePool', () => {
  it('lets the event loop run between two statements (a long chain of queries does not hold every request)', async () => {
    // A copy of the migrated template, not a new in-memory database: initdb took ~15 s of this file's 15.6.
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-pool-'));
    await seedPglite(dataDir);
    const db = new PGlite(join(dataDir, 'pglite'));
    const pool = new PglitePool(db);
    try {
      await pool.query('CREATE TABLE t (a int)');
      // A timer due now stands for a request that arrived: it must run while the statements go on, not after.
      const order: string[] = [];
      setTimeout(() => order.push('timer'), 0);
      for (let i = 0; i < 20; i++) {
        await pool.query('INSERT INTO t SELECT g FROM generate_series(1, 10) g');
        order.push(`q${i}`);
      }
      expect(order.indexOf('timer')).toBeGreaterThanOrEqual(0);
      expect(order.indexOf('timer')).toBeLessThan(order.length - 1);
      expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows).toEqual([{ n: 200 }]);
    } finally {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
