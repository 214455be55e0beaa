import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT, TEST_NODE_FLAGS } from './paths';

/**
 * Migrated databases made once per run and copied per test file (Immich's template databases): a fresh
 * PGlite takes ~10 s to initialise and migrate, a copy of a migrated one ~0.1 s; Postgres
 * clones a migrated template with `CREATE DATABASE … TEMPLATE`. Tests whose subject is a first start or
 * a migration keep asking for an empty database (createTestDatabase, `fresh: true`).
 *
 * A template is named by a hash of the migrations' sources and the PGlite version, so a changed or new
 * migration makes a new template rather than reusing a stale one; templates survive between runs.
 */
// Outlives a run (keyed by the migrations): in the machine's temporary folder, not the run's own (scripts/run-tests.mjs).
const TEMPLATES = join(process.env.TEST_SHARED_TMPDIR ?? tmpdir(), 'ar-test-templates');

let key: string | undefined;
/** Hash of libs/persistence/src/migrations/* (names and contents) and the PGlite package version. */
export function templateKey(): string {
  if (key) return key;
  const dir = join(ROOT, 'libs/persistence/src/migrations');
  const h = createHash('sha256');
  for (const f of readdirSync(dir).sort()) h.update(f).update(readFileSync(join(dir, f)));
  h.update(JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version);
  key = h.digest('hex').slice(0, 12);
  return key;
}

const pgliteTemplate = () => join(TEMPLATES, `pglite-${templateKey()}`);

/**
 * Copies a template's `pglite` folder (~1,100 files, 40 MB) to `to`, which must not exist yet: with the system's
 * `cp -R` where there is one, else Node's cpSync. Measured per copy: `cp` 0.05 CPU-s, cpSync 0.19 (one call per file
 * from JavaScript); a run makes ~100 copies, one per embedded app.
 */
function copyTemplateSync(from: string, to: string): void {
  try {
    execFileSync('cp', ['-R', '--', from, to], { stdio: 'pipe' });
  } catch {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
}

/**
 * Moves a finished template into place. Two jest workers may build one at the same time: the first
 * rename wins, the other copy is thrown away.
 */
function publish(building: string, final: string): void {
  try {
    renameSync(building, final);
  } catch {
    rmSync(building, { recursive: true, force: true });
  }
}

/**
 * Copies the migrated PGlite template into `dataDir/pglite` (as the service lays it out), building the
 * template first with the built migrate command (dist/, `npm run build`) when this run has none.
 * Synchronous so that spawning an app stays synchronous.
 */
export function seedPgliteSync(dataDir: string): void {
  const tpl = pgliteTemplate();
  if (!existsSync(tpl)) {
    const building = join(TEMPLATES, `building-${randomUUID()}`);
    mkdirSync(building, { recursive: true });
    execFileSync(process.execPath, [...TEST_NODE_FLAGS, join(ROOT, 'dist/apps/worker/src/migrate.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATA_DIR: building },
      stdio: 'pipe',
    });
    publish(building, tpl);
  }
  copyTemplateSync(join(tpl, 'pglite'), join(dataDir, 'pglite'));
}

/** The same from inside a test process (no build needed): migrates a PGlite in-process when there is no template yet. */
export async function seedPglite(dataDir: string): Promise<void> {
  const tpl = pgliteTemplate();
  if (!existsSync(tpl)) {
    const building = join(TEMPLATES, `building-${randomUUID()}`);
    mkdirSync(building, { recursive: true });
    const { createDataSource } = await import('@app/persistence');
    const ds = await createDataSource({ dataDir: building });
    await ds.destroy();
    publish(building, tpl);
  }
  copyTemplateSync(join(tpl, 'pglite'), join(dataDir, 'pglite'));
}

/** Key of the advisory lock under which one jest worker builds the Postgres template. */
const TEMPLATE_LOCK = 7_361_524_894;

/**
 * The name of a migrated Postgres database to clone, made once per migration set. Built under another
 * name and renamed when complete, so a clone never copies a half-migrated template.
 */
export async function postgresTemplate(pgUrl: string): Promise<string> {
  const name = `ar_template_${templateKey()}`;
  const admin = new Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    const exists = async () => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (await exists()) return name;
    await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK]);
    try {
      if (await exists()) return name;
      const building = `${name}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const url = new URL(pgUrl);
      url.pathname = `/${building}`;
      const { createDataSource } = await import('@app/persistence');
      const ds = await createDataSource({ databaseUrl: url.toString(), dataDir: '', poolSize: 1 });
      await ds.destroy();
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK]);
    }
  } finally {
    await admin.end();
  }
}
