import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@app/persistence';
import { createTestDatabase } from './test-database';

export type OpenDataSource = () => Promise<{ ds: DataSource; drop: () => Promise<void> }>;

/** A migrated data source on a throwaway database of the real Postgres server. */
export function openPostgres(poolSize?: number): OpenDataSource {
  return async () => {
    const db = await createTestDatabase();
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

/** A migrated data source on PGlite in a temporary folder. */
export const openPglite: OpenDataSource = async () => {
  const ds = await createDataSource({ dataDir: mkdtempSync(join(tmpdir(), 'pgl-')) });
  return { ds, drop: () => ds.destroy() };
};
