import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { JobEntity } from './job.entity';
import { WebhookDeliveryEntity, WebhookSecretEntity } from './webhook.entity';
import { MIGRATIONS } from './migrations';
import { createPglitePgModule } from './pglite-pg.adapter';

export const ENTITIES = [JobEntity, WebhookSecretEntity, WebhookDeliveryEntity];

export interface DatabaseOptions {
  /** Postgres server; when absent, PGlite on disk under `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  /** Run pending migrations on initialise (default true). */
  migrate?: boolean;
  poolSize?: number;
}

/** Options for TypeORM: Postgres from a URL, or PGlite through the pg-compatible adapter. */
export async function buildDataSourceOptions(opts: DatabaseOptions): Promise<DataSourceOptions> {
  const common = {
    type: 'postgres' as const,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: opts.migrate ?? true,
    migrationsTableName: 'migrations',
    synchronize: false,
    // Errors propagate to the caller; TypeORM's own logger would print SQL parameters.
    logging: false,
  };
  if (opts.databaseUrl) {
    return { ...common, url: opts.databaseUrl, poolSize: opts.poolSize ?? 10, applicationName: 'image-ar-service' };
  }
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  // Migrations take a lock through a transaction; with one session that's all it needs.
  return { ...common, driver: createPglitePgModule(db), migrationsTransactionMode: 'each' };
}

/** Creates and initialises the data source (running migrations unless told not to). */
export async function createDataSource(opts: DatabaseOptions): Promise<DataSource> {
  const ds = new DataSource(await buildDataSourceOptions(opts));
  try {
    await ds.initialize();
  } catch (err) {
    const where = opts.databaseUrl ? 'the Postgres server at DATABASE_URL' : `PGlite under ${opts.dataDir}`;
    throw new Error(`database: cannot open ${where}: ${(err as Error).message}`, { cause: err });
  }
  return ds;
}
