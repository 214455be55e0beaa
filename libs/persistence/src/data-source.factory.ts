import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions, MigrationExecutor } from 'typeorm';
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
  /** Postgres: how long to wait for a connection (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Postgres: a query without an answer after this long fails, so a hung server can't hold requests (default 30000 ms). */
  queryTimeoutMs?: number;
}

/** Key of the advisory lock that serialises migrations between processes (any constant; "ar-migrations"). */
export const MIGRATION_LOCK_KEY = 7_361_524_893;

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
    const queryTimeout = opts.queryTimeoutMs ?? 30_000;
    return {
      ...common,
      // Run under an advisory lock by initializeDataSource: processes starting together on an empty
      // database must not create the same tables at once.
      migrationsRun: false,
      url: opts.databaseUrl,
      poolSize: opts.poolSize ?? 10,
      applicationName: 'image-ar-service',
      extra: {
        connectionTimeoutMillis: opts.connectTimeoutMs ?? 5000,
        // Server side for a slow query, client side for a server that stopped answering at all.
        statement_timeout: queryTimeout,
        query_timeout: queryTimeout + 1000,
      },
    };
  }
  const dir = join(opts.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  // Migrations take a lock through a transaction; with one session that's all it needs.
  return { ...common, driver: createPglitePgModule(db), migrationsTransactionMode: 'each' };
}

/**
 * Initialises a data source and, on a Postgres server, runs pending migrations while holding an
 * advisory lock, so API and workers starting together migrate one after the other (the later ones
 * find nothing left to do). PGlite has one session: its migrations run inside `initialize`.
 */
export async function initializeDataSource(ds: DataSource, opts: DatabaseOptions): Promise<DataSource> {
  try {
    await ds.initialize();
    if (opts.databaseUrl && (opts.migrate ?? true)) await runMigrationsLocked(ds);
  } catch (err) {
    if (ds.isInitialized) await ds.destroy().catch(() => undefined);
    const where = opts.databaseUrl ? 'the Postgres server at DATABASE_URL' : `PGlite under ${opts.dataDir}`;
    throw new Error(`database: cannot open ${where}: ${(err as Error).message}`, { cause: err });
  }
  return ds;
}

/** Applies pending migrations under the migration advisory lock; returns the names applied. */
export async function runMigrationsLocked(ds: DataSource): Promise<string[]> {
  const runner = ds.createQueryRunner();
  try {
    // Polled try-lock rather than pg_advisory_lock: a blocking wait would run into the query timeout
    // while another process runs a long migration.
    for (;;) {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS "locked"', [MIGRATION_LOCK_KEY])) as { locked: boolean }[];
      if (row?.locked) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    try {
      // On the lock's own connection: a second one could be more than a pool of one can give.
      const executor = new MigrationExecutor(ds, runner);
      executor.transaction = 'each';
      return (await executor.executePendingMigrations()).map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

/** Creates and initialises the data source (running migrations unless told not to). */
export async function createDataSource(opts: DatabaseOptions): Promise<DataSource> {
  return initializeDataSource(new DataSource(await buildDataSourceOptions(opts)), opts);
}
