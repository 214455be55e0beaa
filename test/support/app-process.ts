import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { contractFor } from './openapi-contract';

export const ROOT = resolve(__dirname, '../..');
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

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

export function tempDir(prefix = 'ar-e2e-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A throwaway Postgres database for one test file. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ar_e2e_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
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

export function writeConfigFile(dir: string, config: unknown): string {
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

export interface AppProcess {
  proc: ChildProcess;
  output: () => string;
  kill: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** Spawns a built entry point (npm run build first) and collects its output. */
export function spawnApp(entry: 'api' | 'worker', env: Record<string, string>, args: string[] = []): AppProcess {
  const script = join(ROOT, `dist/apps/${entry}/src/main.js`);
  const proc = spawn(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  return {
    proc,
    output: () => out,
    kill: async (signal = 'SIGTERM') => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

export async function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}

export async function waitHealthy(base: string, app: AppProcess, timeoutMs = 40_000): Promise<void> {
  await waitFor(async () => {
    if (app.proc.exitCode !== null) throw new Error(`process exited: ${app.output()}`);
    const r = await fetch(`${base}/healthz`);
    return r.ok;
  }, timeoutMs, `${base}/healthz\n${app.output()}`);
}

export class Api {
  /** contract: validate every JSON answer against the service's OpenAPI document (off only for raw protocol probes). */
  constructor(readonly base: string, readonly key: string, readonly contract = process.env.OPENAPI_CONTRACT !== 'off') {}

  async req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; headers: Headers }> {
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
    if (this.contract) (await contractFor(this.base)).check(method, path, r.status, r.headers.get('content-type'), parsed);
    return { status: r.status, body: parsed, headers: r.headers };
  }

  async waitStatus(jobId: string, wanted: string[], timeoutMs = 30_000): Promise<any> {
    return waitFor(async () => {
      const r = await this.req('GET', `/api/v1/status/${jobId}`);
      return wanted.includes(r.body.status) ? r.body : undefined;
    }, timeoutMs, `job ${jobId} to reach ${wanted.join('|')}`);
  }
}
