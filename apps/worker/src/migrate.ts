import 'reflect-metadata';
import { loadConfigFromProcess } from '@app/config';
import { createDataSource, runMigrationsLocked } from '@app/persistence';

/** `npm run migrate`: applies pending migrations to DATABASE_URL, or to PGlite under DATA_DIR. */
async function main(): Promise<void> {
  const config = loadConfigFromProcess();
  const ds = await createDataSource({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, migrate: false });
  const applied = await runMigrationsLocked(ds);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
  await ds.destroy();
}

main().catch((e) => {
  console.error(`migrate failed: ${(e as Error).message}`);
  process.exit(1);
});
