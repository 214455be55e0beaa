/**
 * Visitors' walls under strangers (`node dist/bench/visitor-walls.js`, after a build; `npm run bench` runs it):
 * the built API (embedded: PGlite, in-process queue, local storage) with a showcase of 12 wall pictures, then
 * one client polling `GET /api/v1/status/:id` (and one `/healthz`, each in a process of its own) alone, then again while 20 clients each ask
 * for new visitor walls (`GET /showcase/{id}/together/model.glb`, every request a set of 8-12 pictures no one
 * asked for before, so every one is a build; a 503 `busy` or a 429 waits a second and goes on). The strangers
 * share this machine's address, so the per-visitor limit is raised (WALL_VISITOR_BUILDS_PER_MINUTE) to let
 * each act as a visitor of its own; WALL_VISITOR_BUILDS stays at its default (1). Reports p50/p99/max of the
 * status and health polls with and without the builds, each build's latency, the answers, and the visitor
 * walls' bytes on disk at the end (held to WALL_VISITOR_MAX_MB_PER_SHOWCASE), and the API's own event-loop delay
 * in each phase (from its `/metrics`). BENCH_SECONDS (default 30) is
 * the length of each phase; BENCH_DIST runs another build's API (its `dist` folder: a before/after comparison
 * on the same machine; BENCH_LABEL names its results file). Results: bench/results/visitor-walls.json.
 * BENCH_MODE=scaled runs the scaled mode instead (`visitor-walls-scaled.json`): the API as `--role api` on a Postgres
 * database of its own and Redis, a worker process for the pictures' conversions (both on the same DATA_DIR's local
 * storage): the same API code with no database in its thread.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { callJson, createDatabase, round, servePictures, sleep, spawnEntry, waitHealthy, waitShowcaseReady } from './bench-service';

const OWNER = 'owner-key-for-the-visitor-walls-bench';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const STRANGERS = 20;
const PICTURES = 12;
const DIST = process.env.BENCH_DIST ?? join(__dirname, '..');
const SCALED = process.env.BENCH_MODE === 'scaled';
const REDIS_URL = 'redis://127.0.0.1:6379/8';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : 0;
};
const stats = (xs: number[]) => ({ n: xs.length, p50: round(pct(xs, 0.5)), p99: round(pct(xs, 0.99)), max: round(Math.max(0, ...xs)) });

/** A noisy photograph-like JPEG (sensor noise keeps the files as large as real ones). */
async function photo(i: number): Promise<Buffer> {
  const [w, h] = i % 3 === 0 ? [2400, 1800] : i % 3 === 1 ? [1800, 2400] : [2000, 2000];
  const grain = await sharp({
    create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
  })
    .png()
    .toBuffer();
  return sharp({
    create: { width: w, height: h, channels: 3, background: { r: (i * 53) % 256, g: (i * 97 + 60) % 256, b: (i * 151 + 120) % 256 } },
  })
    .composite([{ input: grain, blend: 'soft-light' }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** Every set of 8 to 12 of the 12 pictures, in a fixed shuffled order: each request a wall no one asked for before. */
function sets(ids: number[]): number[][] {
  const out: number[][] = [];
  for (let mask = 0; mask < 1 << ids.length; mask++) {
    const picked = ids.filter((_, i) => mask & (1 << i));
    if (picked.length >= 8) out.push(picked);
  }
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Polls `url` one request at a time (a pause of `gapMs` between) until `until()`; each latency in ms. */
async function poll(url: string, headers: Record<string, string>, gapMs: number, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const t = performance.now();
    const r = await fetch(url, { headers });
    await r.arrayBuffer();
    times.push(performance.now() - t);
    await sleep(gapMs);
  }
  return times;
}

/**
 * {@link poll} in a process of its own for `seconds`: the latencies an unrelated client sees, not delayed by this
 * process's own work (the 20 strangers' downloads of multi-MB models and the picture server run here: measured
 * in this process, the status p99 while strangers built was the bench's event loop as much as the API's).
 * Returns the latencies and the poller's own event-loop delay p99 (ms), which shows the poller was idle.
 */
function pollIn(
  url: string,
  headers: Record<string, string>,
  gapMs: number,
  seconds: number,
): Promise<{ times: number[]; own_loop_p99_ms: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--poll', url, JSON.stringify(headers), String(gapMs), String(seconds)], { stdio: 'inherit' });
    let out: { times: number[]; own_loop_p99_ms: number } | undefined;
    child.on('message', (m) => (out = m as typeof out));
    child.on('exit', (code) => (out ? resolve(out) : reject(new Error(`visitor-walls poller exited ${code}`))));
  });
}

async function pollChild(): Promise<void> {
  const [, , , url, headers, gapMs, seconds] = process.argv;
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const stop = Date.now() + Number(seconds) * 1000;
  const times = await poll(url, JSON.parse(headers), Number(gapMs), () => Date.now() > stop);
  lag.disable();
  process.send?.({ times, own_loop_p99_ms: round(lag.percentile(99) / 1e6) }, () => process.exit(0));
}

/**
 * The API's own event-loop delay since the last scrape (prom-client resets its histogram on each `/metrics`):
 * p99 and max in ms. Tells a blocked event loop apart from a main thread waiting for a CPU core.
 */
async function loopLag(base: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: round(read('nodejs_eventloop_lag_p99_seconds')), max: round(read('nodejs_eventloop_lag_max_seconds')) };
}

const bytesUnder = (dir: string): number =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .reduce((n, f) => {
      const s = statSync(join(dir, f));
      return s.isFile() ? n + s.size : n;
    }, 0);

async function main() {
  const load0 = loadavg().map((v) => round(v, 2));
  const sources = await Promise.all(Array.from({ length: PICTURES }, (_, i) => photo(i)));
  const { server: media, base: mediaBase } = await servePictures(sources);
  const dataDir = mkdtempSync(join(tmpdir(), 'visitor-walls-bench-'));
  const port = 45000 + Math.floor(Math.random() * 2000);
  const base = `http://127.0.0.1:${port}`;
  const db = SCALED ? await createDatabase('ar_bench_walls') : null;
  const env: Record<string, string> = {
    ...(db ? { DATABASE_URL: db.url, REDIS_URL, QUEUE_NAME: `bench-walls-${Date.now()}` } : {}),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: base,
    OWNER_API_KEY: OWNER,
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_KEY: '1000000',
    WALL_VISITOR_BUILDS_PER_MINUTE: '10000',
  };
  // BENCH_NODE_ARGS: e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where the API's main thread spends its time.
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const proc: ChildProcess = spawn(
    process.execPath,
    [...nodeArgs, join(DIST, 'apps/api/src/main.js'), ...(SCALED ? ['--role', 'api'] : [])],
    {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  // The scaled mode's worker converts the pictures (and nothing while the phases run: walls are built in the API).
  const worker = SCALED ? spawnEntry('worker', env) : null;
  try {
    await waitHealthy(base, proc);
    const created = await callJson(base, 'POST', '/api/v2/showcases', OWNER, {
      items: sources.map((_, i) => ({
        image_url: `${mediaBase}/p${i}.jpg`,
        title: `Picture ${i}`,
        width_inches: i % 3 === 1 ? 18 : 24,
        height_inches: i % 3 === 0 ? 18 : 24,
        frame: { style: ['classic', 'thin', 'float'][i % 3], color: ['oak', 'black', 'walnut', 'white'][i % 4] },
        ...(i % 2 ? { mat: { width_inches: 2 } } : {}),
      })),
    });
    const showcase = await waitShowcaseReady(base, OWNER, created.id, 600_000, 200);
    const site = new URL(showcase.url).pathname.split('/').pop();
    const ids: number[] = showcase.items.map((i: any) => i.id);
    const { job_id } = await callJson(base, 'POST', '/api/v1/convert', OWNER, { image_url: `${mediaBase}/p0.jpg` });
    const statusUrl = `${base}/api/v1/status/${job_id}`;
    const auth = { 'x-api-key': OWNER };

    // Alone.
    await loopLag(base);
    const [aloneStatus, aloneHealth] = await Promise.all([
      pollIn(statusUrl, auth, 20, SECONDS),
      pollIn(`${base}/healthz`, {}, 100, SECONDS),
    ]);

    const aloneLag = await loopLag(base);
    // While 20 strangers build walls.
    const queue = sets(ids);
    const builds: number[] = [];
    const answers: Record<string, number> = {};
    let bytes = 0;
    const stop = Date.now() + SECONDS * 1000;
    const stranger = async () => {
      while (Date.now() < stop && queue.length) {
        const set = queue.shift()!;
        const t = performance.now();
        const r = await fetch(`${base}/showcase/${site}/together/model.glb?items=${set.join(',')}`);
        const body = Buffer.from(await r.arrayBuffer());
        answers[r.status] = (answers[r.status] ?? 0) + 1;
        if (r.ok) {
          builds.push(performance.now() - t);
          bytes = Math.max(bytes, body.length);
        } else await sleep(1000);
      }
    };
    const [loadStatus, loadHealth] = await Promise.all([
      pollIn(statusUrl, auth, 20, SECONDS),
      pollIn(`${base}/healthz`, {}, 100, SECONDS),
      ...Array.from({ length: STRANGERS }, stranger),
    ]);
    const loadLag = await loopLag(base);
    // What is still in flight when the phase ends finishes before the files are counted.
    await sleep(3000);
    const walls = join(dataDir, 'storage', 'walls', 'visitor');
    let stored = 0;
    try {
      stored = bytesUnder(walls);
    } catch {
      stored = bytesUnder(dataDir);
    }

    const result = {
      when: new Date().toISOString(),
      machine: { cpus: cpus().length, loadavg_before: load0, loadavg_after: loadavg().map((v) => round(v, 2)) },
      api: DIST === join(__dirname, '..') ? 'this build' : DIST,
      setup: `${SCALED ? 'scaled mode (API --role api on Postgres + Redis, a worker process)' : 'embedded API'}, showcase of ${PICTURES} framed wall pictures (noisy JPEGs 2000-2400 px); WALL_VISITOR_BUILDS default (1); ${STRANGERS} strangers, each request a new set of 8-12 pictures; ${SECONDS} s per phase`,
      pollers: 'each in a process of its own (its own event-loop delay p99 beside its figures)',
      alone: {
        status_ms: { ...stats(aloneStatus.times), poller_loop_p99: aloneStatus.own_loop_p99_ms },
        healthz_ms: { ...stats(aloneHealth.times), poller_loop_p99: aloneHealth.own_loop_p99_ms },
        event_loop_delay_ms: aloneLag,
      },
      strangers_building: {
        status_ms: { ...stats(loadStatus.times), poller_loop_p99: loadStatus.own_loop_p99_ms },
        event_loop_delay_ms: loadLag,
        healthz_ms: { ...stats(loadHealth.times), poller_loop_p99: loadHealth.own_loop_p99_ms },
        build_ms: stats(builds),
        answers,
        largest_glb_mb: round(bytes / 1024 / 1024, 2),
        visitor_walls_on_disk_mb: round(stored / 1024 / 1024, 1),
      },
    };
    mkdirSync(join(__dirname, '../../bench/results'), { recursive: true });
    const label = process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL}` : SCALED ? '-scaled' : '';
    writeFileSync(join(__dirname, `../../bench/results/visitor-walls${label}.json`), `${JSON.stringify(result, null, 2)}\n`);
    console.log(JSON.stringify(result, null, 2));
  } finally {
    // A clean stop first (a CPU profile is written on exit), then no mercy.
    proc.kill('SIGTERM');
    for (let i = 0; i < 100 && proc.exitCode === null && proc.signalCode === null; i++) await sleep(100);
    proc.kill('SIGKILL');
    worker?.kill('SIGKILL');
    await db?.drop().catch(() => undefined);
    media.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--poll') void pollChild();
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
