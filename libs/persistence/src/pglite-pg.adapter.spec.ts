import { PGlite } from '@electric-sql/pglite';
import { PglitePool } from './pglite-pg.adapter';

describe('PglitePool', () => {
  it('lets the event loop run between two statements (a long chain of queries does not hold every request)', async () => {
    const db = new PGlite();
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
    }
  });
});
