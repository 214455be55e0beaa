import { existsSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@app/config';
import { ROOT, tempDir } from '@app/testing';
import type { ApiAppOptions } from '../../apps/api/src/main';
import { createTestDatabase, freePort, REDIS_URL, seedEmbeddedDatabase, type SpawnOptions } from './app-process';

/**
 * The service in the test's own process (n8n's setupTestServer): the built API (dist/, `npm run build`)
 * made by the same `createApiApp` as `npm start`, listening on a free port, with the worker in process
 * (embedded mode, role `all`) or without it (`role: 'api'`, scaled mode with a spawned worker). No process
 * to spawn and no second module load: files whose subject is not a process, a signal or a mode use it;
 * the others spawn the built entry point (app-process.ts).
 *
 * The built code rather than the sources: the app's worker threads and static assets live beside the
 * compiled files, and the same bytes as production answer.
 */
export interface TestApp {
  base: string;
  port: number;
  app: NestFastifyApplication;
  config: Readonly<AppConfig>;
  /** Everything the app logged so far (JSON lines), as a spawned app's output. */
  output: () => string;
  close: () => Promise<void>;
}

export interface TestAppOptions extends SpawnOptions {
  role?: 'all' | 'api';
  /**
   * Where the app keeps its data. `embedded` (default): PGlite in DATA_DIR, the in-process queue and buffers, as
   * `npm start` runs. `postgres`: a Postgres database cloned from the migrated template and Redis under a queue
   * name of its own (the scaled mode's stores, API and worker still in this process): the same service without
   * PGlite's WebAssembly in the test's thread — about a third less CPU for a file that converts and queries a lot
   * (catalogue-import e2e: 199 CPU-s embedded, 133 with Postgres, its server included). Files whose subject is
   * not the embedded mode and that are heavy ask for it; TEST_APP_DATABASE=postgres runs the files that do not
   * choose on Postgres too.
   */
  database?: 'embedded' | 'postgres';
}

interface BuiltApi {
  createApiApp: (config: AppConfig, opts?: ApiAppOptions) => Promise<NestFastifyApplication>;
}
interface BuiltConfig {
  loadConfig: (env: Record<string, string | undefined>, argv?: readonly string[], cwd?: string, isTty?: boolean) => Readonly<AppConfig>;
}
interface BuiltRuntime {
  loadPricingPolicy: (config: AppConfig) => unknown;
}

/**
 * Node's own loader, not Jest's module registry: Jest loads modules into each test file's sandbox anew, about
 * three times slower than Node, and patches `createRequire` to do the same. `Module._load` is Node's loader
 * itself: the app's modules load once per Jest worker, and every later file in that worker starts its app
 * in a fraction of a second. (The app talks to the test only over HTTP: sharing the test's realm is not needed.)
 */
const NodeModule = Module as unknown as { _load: (request: string, parent: null, isMain: boolean) => unknown };

function built<T>(path: string): T {
  const file = join(ROOT, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: npm run build first (npm test does)`);
  return NodeModule._load(file, null, false) as T;
}

/**
 * Starts the app on `env` as the process would read it. PORT is chosen here (and PUBLIC_BASE_URL defaults
 * to it) unless given; an embedded DATA_DIR without a database gets the migrated template.
 */
export async function startTestApp(env: Record<string, string>, opts: TestAppOptions = {}): Promise<TestApp> {
  // Read by Node itself when a process starts, not by the service's configuration: they would be ignored here.
  const processOnly = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS', 'TZ'].filter((k) => k in env);
  if (processOnly.length) throw new Error(`startTestApp: ${processOnly.join(', ')} take effect only in a new process: use spawnApp`);
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const host = env.HOST ?? '127.0.0.1';
  const full: Record<string, string> = { HOST: host, PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...env, PORT: String(port) };
  let dropDatabase: (() => Promise<void>) | undefined;
  const database = opts.database ?? (process.env.TEST_APP_DATABASE === 'postgres' ? 'postgres' : 'embedded');
  if (database === 'postgres' && !full.DATABASE_URL) {
    const db = await createTestDatabase({ migrated: true });
    dropDatabase = db.drop;
    full.DATABASE_URL = db.url;
    full.REDIS_URL ??= REDIS_URL;
    full.QUEUE_NAME ??= `test-app-${process.pid}-${port}-${Date.now()}`;
  }
  // A job still running when the file closes its app holds the close for the grace: 1 s here, not the default 30 s
  // (embedded apps too: a file whose last job was still converting waited up to 30 s idle in its afterAll).
  full.SHUTDOWN_TIMEOUT_MS ??= '1000';
  seedEmbeddedDatabase(full, opts);
  const { loadConfig } = built<BuiltConfig>('libs/config/src/index.js');
  const { loadPricingPolicy } = built<BuiltRuntime>('libs/runtime/src/index.js');
  const { createApiApp } = built<BuiltApi>('apps/api/src/main.js');
  const config = loadConfig(full, ['--role', opts.role ?? 'all'], ROOT, false);
  loadPricingPolicy(config as AppConfig);
  let out = '';
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const app = await createApiApp(config as AppConfig, { logDestination });
  try {
    await app.listen({ port, host });
  } catch (e) {
    await app.close().catch(() => undefined);
    throw e;
  }
  let closed: Promise<void> | undefined;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    app,
    config,
    output: () => out,
    close: () => (closed ??= app.close().finally(() => dropDatabase?.().catch(() => undefined))),
  };
}

/**
 * The app as most files start it: a DATA_DIR of its own, the owner's key `ownerKey`, and private networks allowed
 * (the tests' media and callback servers listen on 127.0.0.1, which the service refuses to fetch from or call
 * otherwise). `env` adds to or overrides these (a file's own DATA_DIR, limits); PORT, HOST and PUBLIC_BASE_URL
 * are startTestApp's (`app.base`), and `opts` goes to it as given.
 */
export function startServiceApp(ownerKey: string, env: Record<string, string> = {}, opts: TestAppOptions = {}): Promise<TestApp> {
  return startTestApp({ DATA_DIR: env.DATA_DIR ?? tempDir(), OWNER_API_KEY: ownerKey, ALLOW_PRIVATE_NETWORKS: 'true', ...env }, opts);
}
