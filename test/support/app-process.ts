import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { contractFor } from './openapi-contract';

import { ROOT, seedPgliteSync, TEST_NODE_FLAGS } from '@app/testing';

export { createTestDatabase, PG_URL, REDIS_URL, ROOT, tempDir } from '@app/testing';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function freePort(): Promise<number> {
  return new Promise((ok, no) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
    s.on('error', no);
  });
}

export function writeConfigFile(dir: string, config: unknown): string {
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

export interface AppProcess {
  proc: ChildProcess;
  output: () => string;
  /** The exit code once the process has exited (null when a signal ended it). */
  exited: Promise<number | null>;
  kill: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export interface SpawnOptions {
  /**
   * Start the embedded database empty, as on a first start. By default an embedded app whose DATA_DIR has
   * no database yet gets a copy of the migrated template (db-templates.ts): ~10 s less per start.
   */
  freshDatabase?: boolean;
}

/** Gives an embedded app's DATA_DIR the migrated template unless it has a database, runs scaled, or asks for none. */
export function seedEmbeddedDatabase(env: Record<string, string>, opts: SpawnOptions = {}): void {
  if (!opts.freshDatabase && !env.DATABASE_URL && env.DATA_DIR && !existsSync(join(env.DATA_DIR, 'pglite'))) seedPgliteSync(env.DATA_DIR);
}

/**
 * Node's on-disk compile cache (V8 code cache) for the spawned processes: a run spawns the same built entry points
 * dozens of times, and each start compiled the same ~2,200 modules anew (loading them: 1.8 CPU-s of a start's ~5;
 * 1.5 with the cache). Keyed by each file's contents, so a rebuild that changes a file recompiles just that one.
 */
const COMPILE_CACHE = join(ROOT, 'node_modules/.cache/node-compile-cache');

/** Runs `node <args>` (the tests' own Node) in the repository with only `env` and collects its output. */
export function spawnNode(args: string[], env: Record<string, string> = {}): AppProcess {
  const proc = spawn(process.execPath, [...TEST_NODE_FLAGS, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      // The run's own temporary folder (scripts/run-tests.mjs), removed with what the app left there.
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      NO_COLOR: '1',
      NODE_COMPILE_CACHE: COMPILE_CACHE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    proc,
    exited,
    output: () => out,
    kill: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/** Spawns a built entry point (npm run build first) and collects its output. */
export function spawnApp(entry: 'api' | 'worker', env: Record<string, string>, args: string[] = [], opts: SpawnOptions = {}): AppProcess {
  seedEmbeddedDatabase(env, opts);
  return spawnNode([join(ROOT, `dist/apps/${entry}/src/main.js`), ...args], env);
}

/**
 * Calls `fn` until it returns something truthy (returned) or `timeoutMs` ran out (thrown, with `fn`'s last error),
 * `intervalMs` apart. A wait of many seconds on a busy service may poll less often: each poll is a request or two
 * the service answers with the same CPU its conversions are using.
 */
export async function waitFor<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  what = 'condition',
  intervalMs = 100,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(intervalMs);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

export async function waitHealthy(base: string, app: AppProcess, timeoutMs = 40_000): Promise<void> {
  await waitFor(
    async () => {
      if (app.proc.exitCode !== null) throw new Error(`process exited: ${app.output()}`);
      const r = await fetch(`${base}/healthz`);
      return r.ok;
    },
    timeoutMs,
    `${base}/healthz\n${app.output()}`,
  );
}

export class Api {
  /** contract: validate every JSON answer against the service's OpenAPI document (off only for raw protocol probes). */
  constructor(
    readonly base: string,
    readonly key: string,
    readonly contract = process.env.OPENAPI_CONTRACT !== 'off',
  ) {}

  async req(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: any; headers: Headers }> {
    const r = await fetch(`${this.base}${path}`, {
      method,
      headers: { 'x-api-key': this.key, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    // Every JSON answer must be what the published OpenAPI document says (test/support/openapi-contract.ts).
    if (this.contract) {
      const sentType = Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? 'application/json';
      const request = body !== undefined ? { contentType: sentType, body } : undefined;
      (await contractFor(this.base)).check(method, path, r.status, r.headers.get('content-type'), parsed, request);
    }
    return { status: r.status, body: parsed, headers: r.headers };
  }

  async waitStatus(jobId: string, wanted: string[], timeoutMs = 30_000): Promise<any> {
    return waitFor(
      async () => {
        const r = await this.req('GET', `/api/v1/status/${jobId}`);
        return wanted.includes(r.body.status) ? r.body : undefined;
      },
      timeoutMs,
      `job ${jobId} to reach ${wanted.join('|')}`,
    );
  }
}
