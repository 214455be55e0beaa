/**
 * The NestJS CLI (nest-cli.json: monorepo, SWC builder) builds the same runnable apps as `npm run build`:
 * `nest build api` and `nest build worker` into a scratch folder, then the api started from there answers
 * /healthz and the worker's entry point runs (and refuses to start without DATABASE_URL, as it should).
 *
 * The scratch folder is never dist/: the other e2e files run the apps from dist/ at the same time. The
 * outDir comes from a scratch tsconfig (`nest build -p`), which extends the repository's, so the path
 * aliases (tsconfig.json's `paths`) are the ones `npm run build` uses.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type AppProcess, freePort, ROOT, spawnNode, tempDir, waitHealthy } from './support/app-process';
import { seedPgliteSync } from '@app/testing';

const NEST = join(ROOT, 'node_modules/@nestjs/cli/bin/nest.js');
const OWNER = 'owner-key-for-nest-cli-0123456789';

/** The exit code, or null where it had to be killed after timeoutMs. */
async function exitOf(p: AppProcess, timeoutMs: number): Promise<number | null> {
  const timer = setTimeout(() => void p.kill('SIGKILL'), timeoutMs);
  try {
    return await p.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** The files under a folder, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)));
}

describe('nest-cli.json', () => {
  const config = JSON.parse(readFileSync(join(ROOT, 'nest-cli.json'), 'utf8'));

  it('is a monorepo with the apps and the libraries as projects, built by SWC', () => {
    expect(config.monorepo).toBe(true);
    expect(config.compilerOptions.builder.type).toBe('swc');
    for (const app of ['api', 'worker', 'cli']) {
      expect(config.projects[app]).toMatchObject({
        type: 'application',
        root: `apps/${app}`,
        sourceRoot: `apps/${app}/src`,
        entryFile: 'main',
      });
      expect(existsSync(join(ROOT, `apps/${app}/src/main.ts`))).toBe(true);
    }
    // libs/testing holds the tests' helpers: never built (scripts/build.js), so not a project.
    const libs = readdirSync(join(ROOT, 'libs')).filter((l) => l !== 'testing');
    for (const lib of libs) {
      expect(config.projects[lib]).toMatchObject({
        type: 'library',
        root: `libs/${lib}`,
        sourceRoot: `libs/${lib}/src`,
        entryFile: 'index',
      });
    }
  });
});

describe('nest build (SWC) into a scratch folder', () => {
  // Inside the repository, as dist/ is: the built apps find node_modules and the repository root (the
  // nearest package.json) by walking up from their own folder.
  const scratchRoot = join(ROOT, '.nest-build');
  let scratch: string;
  let out: string;
  let tsconfig: string;
  const apps: AppProcess[] = [];

  beforeAll(() => {
    mkdirSync(scratchRoot, { recursive: true });
    scratch = mkdtempSync(join(scratchRoot, 'e2e-'));
    out = join(scratch, 'out');
    const file = join(scratch, 'tsconfig.json');
    writeFileSync(file, JSON.stringify({ extends: relative(scratch, join(ROOT, 'tsconfig.json')), compilerOptions: { outDir: out } }));
    // The CLI joins the working directory and this path, so it must be relative.
    tsconfig = relative(ROOT, file);
  });

  afterEach(async () => {
    for (const a of apps.splice(0)) await a.kill('SIGKILL');
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    // The folder itself only where no other run is using it (rmdir refuses a non-empty folder).
    try {
      rmdirSync(scratchRoot);
    } catch {
      // another run's scratch folder is still there
    }
  });

  async function nestBuild(app: string): Promise<void> {
    const build = spawnNode([NEST, 'build', app, '-p', tsconfig]);
    apps.push(build);
    expect({ code: await exitOf(build, 45_000), output: build.output() }).toMatchObject({ code: 0 });
  }

  it('nest build api: the api starts from the scratch folder and answers /healthz', async () => {
    await nestBuild('api');
    const main = join(out, 'apps/api/src/main.js');
    expect(existsSync(main)).toBe(true);
    // The path aliases are rewritten to relative requires, as in `npm run build`'s output.
    expect(readFileSync(main, 'utf8')).not.toMatch(/require\("@app\//);
    expect(readFileSync(main, 'utf8')).toMatch(/require\("\.\.\/\.\.\/\.\.\/libs\/config\/src"\)/);
    // Nothing `npm run build` leaves out (libs/testing, the console's browser code that esbuild bundles):
    // each file nest wrote is one that npm run build (run before the e2e tier) wrote into dist/ too.
    const extra = filesUnder(out).filter((f) => !existsSync(join(ROOT, 'dist', f)));
    expect(extra).toEqual([]);

    const dataDir = tempDir('nest-cli-');
    // A copy of the migrated database (as spawnApp gives): the first start's migrations cost ~10 s.
    seedPgliteSync(dataDir);
    const port = await freePort();
    const api = spawnNode([main], { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, OWNER_API_KEY: OWNER });
    apps.push(api);
    await waitHealthy(`http://127.0.0.1:${port}`, api);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    expect(api.output()).toContain('embedded mode');
  });

  it('nest build worker: the worker entry point runs (without DATABASE_URL it names the problem and exits 2)', async () => {
    await nestBuild('worker');
    const main = join(out, 'apps/worker/src/main.js');
    expect(existsSync(main)).toBe(true);
    const worker = spawnNode([main], { DATA_DIR: tempDir('nest-cli-') });
    apps.push(worker);
    expect(await exitOf(worker, 20_000)).toBe(2);
    expect(worker.output()).toMatch(/--role worker runs a separate process and needs DATABASE_URL and REDIS_URL/);
  });
});
