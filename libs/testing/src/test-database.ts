import { Client } from 'pg';
import { postgresTemplate } from './db-templates';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabaseOptions {
  /**
   * A copy of the migrated template (db-templates.ts) instead of an empty database: what a test gets when
   * migrating is not its subject. Empty by default, as the service finds a new database.
   */
  migrated?: boolean;
}

/** A throwaway Postgres database for one test file. */
export async function createTestDatabase(opts: TestDatabaseOptions = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ar_e2e_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const template = opts.migrated ? await postgresTemplate(PG_URL) : undefined;
  const admin = new Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
