import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { seedPglite } from './db-templates';
import { createTestDatabase } from './test-database';

/**
 * @app/persistence (TypeORM and the entities) when a spec opens a database, not when it imports @app/testing: loading
 * it costs ~0.6 CPU-s in each spec file's own Jest registry.
 */
const persistence = () => import('@app/persistence');

export type OpenDataSource = () => Promise<{ ds: DataSource; drop: () => Promise<void> }>;

/** A migrated data source on a throwaway database of the real Postgres server (a copy of the migrated template). */
export function openPostgres(poolSize?: number): OpenDataSource {
  return async () => {
    const db = await createTestDatabase({ migrated: true });
    const { createDataSource } = await persistence();
    const ds = await createDataSource({ databaseUrl: db.url, dataDir: '', poolSize });
    return {
      ds,
      drop: async () => {
        await ds.destroy();
        await db.drop();
      },
    };
  };
}

/** A migrated data source on PGlite in a temporary folder (a copy of the migrated template). */
export const openPglite: OpenDataSource = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pgl-'));
  await seedPglite(dataDir);
  const { createDataSource } = await persistence();
  const ds = await createDataSource({ dataDir });
  return { ds, drop: () => ds.destroy() };
};
