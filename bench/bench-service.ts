/**
 * What the service benches share: start the built API (or worker) as a child process, wait for it, call it,
 * make a throwaway Postgres database, and serve the pictures a showcase converts.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

/**
 * A throwaway self-signed certificate for 127.0.0.1 (one day), written as `key.pem` and `cert.pem` in `dir`: the
 * service fetches https only, so a bench's media origin needs one (its children trust it via NODE_EXTRA_CA_CERTS).
 */
export function selfSignedCert(dir: string): { key: string; cert: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}

export const PG_ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
/**
 * A picture's raw RGB pixels (`width` x `height`, 3 channels) with gaussian sensor-like noise (sigma 10) added in
 * place, as the benches' "photographs" have: noise keeps files and encodes as large as a camera's.
 */
export async function addSensorNoise(raw: Buffer, width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 10 } },
  })
    .raw()
    .toBuffer();
  for (let k = 0; k < raw.length; k++) raw[k] = Math.max(0, Math.min(255, raw[k] + noise[k] - 128));
  return raw;
}
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Spawns `dist/apps/<entry>/src/main.js` with a minimal environment plus `env`. */
/** A built entry point as a process; its log (stdout) dropped, or appended to `stdoutFile` to read if it dies. */
export function spawnEntry(entry: 'api' | 'worker', env: Record<string, string>, args: string[] = [], stdoutFile?: string): ChildProcess {
  const log = stdoutFile ? openSync(stdoutFile, 'a') : 'ignore';
  try {
    return spawn(process.execPath, [join(__dirname, `../apps/${entry}/src/main.js`), ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', log, 'inherit'],
    });
  } finally {
    if (typeof log === 'number') closeSync(log);
  }
}

export async function waitHealthy(base: string, proc: ChildProcess, path = '/healthz'): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (proc.exitCode !== null) throw new Error(`the process exited ${proc.exitCode}`);
    try {
      if ((await fetch(`${base}${path}`)).ok) return;
    } catch {
      /* not yet */
    }
    await sleep(100);
  }
  throw new Error(`${base} did not start`);
}

export async function callJson(base: string, method: string, path: string, key: string, body?: unknown): Promise<any> {
  const r = await fetch(base + path, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** Starts the API on a random port with the owner key given; makes a user with credits and a key for it. */
export async function startApi(owner: string, env: Record<string, string>, args: string[] = []) {
  const port = 43000 + Math.floor(Math.random() * 2000);
  const base = `http://127.0.0.1:${port}`;
  const proc = spawnEntry('api', { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, OWNER_API_KEY: owner, ...env }, args);
  await waitHealthy(base, proc);
  const user = await callJson(base, 'POST', '/api/admin/users', owner, { email: `bench-${Date.now()}@example.com`, credits: 1000 });
  const { key } = await callJson(base, 'POST', `/api/admin/users/${user.id}/keys`, owner, {});
  return { proc, base, key: key as string };
}

export async function createDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import('pg');
  const name = `${prefix}_${Date.now()}`;
  const admin = new Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Polls a showcase until every picture is converted (the created showcase as the API shows it); throws on a failed picture or after `timeoutMs`. */
export async function waitShowcaseReady(base: string, key: string, id: string, timeoutMs: number, pollMs = 100): Promise<any> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const showcase = await callJson(base, 'GET', `/api/v2/showcases/${id}`, key);
    if (showcase.items.every((i: any) => i.status === 'completed')) return showcase;
    if (showcase.items.some((i: any) => i.status === 'failed')) throw new Error('a picture failed to convert');
    if (Date.now() > end) throw new Error('timed out waiting for the pictures');
    await sleep(pollMs);
  }
}

/** Serves `sources[i]` as `/p<i>.jpg` on a free port (the pictures a bench's showcase converts): the server and its base URL. */
export async function servePictures(sources: readonly Buffer[]): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const i = Number(/\/p(\d+)\.jpg/.exec(req.url ?? '')?.[1] ?? -1);
    if (!sources[i]) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(sources[i]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Open loop: `rate` calls a second for `seconds`, each timed from when it was due (a stalled client or server
 * shows as waiting, not hidden). `call` answers an HTTP status; anything but 200 counts as an error.
 * Returns the sorted latencies in ms and the error count.
 */
export async function openLoop(call: () => Promise<number>, rate: number, seconds: number): Promise<{ times: number[]; errors: number }> {
  const times: number[] = [];
  let errors = 0;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  for (let i = 0; start + (i * 1000) / rate < deadline; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(call().then((s) => void (s !== 200 && errors++, times.push(performance.now() - due))));
  }
  await Promise.all(pending);
  return { times: times.sort((a, b) => a - b), errors };
}
