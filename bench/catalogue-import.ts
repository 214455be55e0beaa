/**
 * Catalogue import (`node dist/bench/catalogue-import.js [rows...] [api|embedded]`, after a build): a CSV of
 * `rows` works (default 1,000, and 5,000 to show that memory does not grow with the file), 7.5 % of them
 * invalid (every 20th row an unreadable width, every 40th from the 10th no URL), POSTed as text/csv to /api/v2/showcases/{id}/imports with a per-user key: the dry run's time, the
 * time to the 202 (upload read, every row checked and spooled), and to the import's `completed` (every row
 * processed: items created in charges of 20, jobs queued), with the API process's peak resident set while it
 * ran (VmRSS sampled every 20 ms; VmHWM for the whole life).
 *
 * Modes (both by default): `api`: `--role api` with Postgres + Redis and no worker, so the jobs only queue and the
 * numbers are the import's alone; `embedded`: one process (PGlite, in-process worker), which starts converting
 * the pictures while the import runs, as a real deployment does. ACCOUNT_MAX_ACTIVE_JOBS is off in both
 * (with the default 250 the import goes at the pace of the conversions, by design: fair share).
 * Results: bench/results/catalogue-import.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { callJson, createDatabase, round, sleep, spawnEntry, waitHealthy } from './bench-service';

const OWNER = 'owner-key-for-the-catalogue-import-bench';
const REDIS_URL = 'redis://127.0.0.1:6379/9';
const args = process.argv.slice(2);
const MODES = (
  args.some((a) => a === 'api' || a === 'embedded') ? args.filter((a) => a === 'api' || a === 'embedded') : ['api', 'embedded']
) as ('api' | 'embedded')[];
const ROWS = args.filter((a) => /^\d+$/.test(a)).map(Number);
const SIZES = ROWS.length ? ROWS : [1000, 5000];

function status(pid: number): { rss: number; hwm: number } {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+) kB`).exec(s)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

/** A gallery's catalogue: labels, sizes in cm, frames; 7.5 % invalid (an unreadable width, a missing URL). */
function catalogue(media: string, rows: number): string {
  const lines = ['Image URL,Title,Artist,Year,Medium,Width CM,Height CM,frame,frame_color,price,availability,external_id,position'];
  for (let i = 1; i <= rows; i++) {
    const c = [
      `${media}/work.jpg?n=${i}`,
      `"Study no. ${i}, for the ""Sea"" series"`,
      i % 2 ? 'Hilma af Klint' : 'Gabriele Münter',
      String(1890 + (i % 60)),
      'Oil on canvas',
      (40 + (i % 30)).toFixed(1),
      (30 + (i % 20)).toFixed(1),
      i % 3 ? 'classic' : 'thin',
      i % 3 ? 'oak' : 'black',
      `€${1000 + i}`,
      i % 7 ? 'available' : 'sold',
      `INV-${i}`,
      String(i),
    ];
    if (i % 20 === 0) c[5] = 'wide';
    if (i % 40 === 10) c[0] = '';
    lines.push(c.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The API's V8 heap in use now (its /metrics). */
async function heapUsedMb(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return round(Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1] ?? NaN) / 2 ** 20, 0);
}

async function post(base: string, path: string, key: string, body: string) {
  const r = await fetch(base + path, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'text/csv' }, body });
  if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
  return r.json() as Promise<any>;
}

async function startService(dataDir: string, dbUrl: string | undefined): Promise<{ base: string; proc: ChildProcess }> {
  const port = 43000 + Math.floor(Math.random() * 2000);
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_KEY: '1000000',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    OWNER_API_KEY: OWNER,
    DATA_DIR: dataDir,
    SHOWCASE_MAX_ITEMS: '10000',
    ACCOUNT_MAX_ACTIVE_JOBS: '0',
    ...(dbUrl ? { DATABASE_URL: dbUrl, REDIS_URL, QUEUE_NAME: `catalogue-import-bench-${Date.now()}` } : {}),
  };
  const proc = spawnEntry('api', env, dbUrl ? ['--role', 'api'] : []);
  await waitHealthy(base, proc);
  return { base, proc };
}

async function measure(base: string, pid: number, key: string, media: string, rows: number) {
  const csv = catalogue(media, rows);
  const { id } = await callJson(base, 'POST', '/api/v2/showcases', key, { frame: 'thin' });
  // Warm-up: the code paths of a small import, in a showcase of its own.
  const warm = await callJson(base, 'POST', '/api/v2/showcases', key, {});
  await post(base, `/api/v2/showcases/${warm.id}/imports`, key, catalogue(media, 20));
  await sleep(1000);
  const before = status(pid);
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, status(pid).rss)), 20);
  try {
    const d0 = Date.now();
    const dry = await post(base, `/api/v2/showcases/${id}/imports?dry_run=true`, key, csv);
    const dryMs = Date.now() - d0;
    const t0 = Date.now();
    const started = await post(base, `/api/v2/showcases/${id}/imports`, key, csv);
    const acceptedMs = Date.now() - t0;
    let done: any;
    for (;;) {
      done = await callJson(base, 'GET', `/api/v2/imports/${started.id}`, key);
      if (done.status === 'completed') break;
      await sleep(50);
    }
    const processedMs = Date.now() - t0;
    const heap = await heapUsedMb(base);
    return {
      rows,
      csv_bytes: Buffer.byteLength(csv),
      dry_run: { ms: dryMs, counts: dry.counts, credits: dry.price.credits },
      accepted_ms: acceptedMs,
      processed_ms: processedMs,
      rows_per_s: round(rows / (processedMs / 1000), 0),
      counts: done.counts,
      credits_charged: done.credits_charged,
      rss_mb: { before: round(before.rss, 0), peak_during_import: round(peak, 0), vmhwm_after: round(status(pid).hwm, 0) },
      heap_used_mb_after: heap,
    };
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  const picture = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6ea5' } })
    .jpeg()
    .toBuffer();
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/jpeg' }).end(picture));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const media = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const out = join(__dirname, '../../bench/results');
  mkdirSync(out, { recursive: true });
  const file = join(out, 'catalogue-import.json');
  let report: Record<string, unknown> = {};
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // first run
  }
  try {
    for (const mode of MODES) report = { ...report, [mode]: await measureMode(mode, media) };
  } finally {
    server.close();
  }
  report = {
    ...report,
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    input:
      'CSV, 13 columns (labels, sizes in cm, frames, price, availability, external_id, position), 7.5 % invalid rows; pictures by URL (64x48 JPEG)',
    timing:
      'dry_run: the ?dry_run=true POST; accepted: POST to its 202 (upload read, rows checked and spooled); processed: POST to the import completed (items created, charged and queued)',
  };
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
  console.log('written to bench/results/catalogue-import.json');
}

async function measureMode(mode: 'api' | 'embedded', media: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'import-bench-'));
  const db = mode === 'api' ? await createDatabase('import_bench') : undefined;
  const { base, proc } = await startService(dataDir, db?.url);
  const results = [];
  try {
    for (const rows of SIZES) {
      const user = await callJson(base, 'POST', '/api/admin/users', OWNER, {
        email: `import-${rows}-${Date.now()}@example.com`,
        credits: rows * 3,
        showcase_slots: 3,
      });
      const { key } = await callJson(base, 'POST', `/api/admin/users/${user.id}/keys`, OWNER, {});
      const loadBefore = loadavg()[0];
      const r = await measure(base, proc.pid!, key, media, rows);
      results.push({ ...r, load: { before: round(loadBefore, 2), after: round(loadavg()[0], 2) } });
      console.log(
        `${mode} ${rows} rows: dry run ${r.dry_run.ms} ms, 202 after ${r.accepted_ms} ms, processed after ${r.processed_ms} ms ` +
          `(${r.rows_per_s} rows/s); API RSS ${r.rss_mb.before} -> peak ${r.rss_mb.peak_during_import} MB, heap used after ${r.heap_used_mb_after} MB`,
      );
    }
  } finally {
    proc.kill('SIGKILL');
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return {
    mode:
      mode === 'api'
        ? '--role api, Postgres + Redis, no worker (jobs only queue: the import alone)'
        : 'embedded: one process, PGlite (one connection, on the main thread), in-process worker converting the earlier imports meanwhile',
    account_max_active_jobs: 0,
    results,
  };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
