/**
 * Still conversion end to end through the service (`npm run bench`, or `node dist/bench/still-e2e.js [runs]`).
 *
 * A 12-megapixel JPEG, served from this process over HTTP, is converted through `POST /api/v1/convert` with
 * a per-user key, one job at a time, in embedded mode (one process, PGlite, in-process queue) and scaled
 * mode (`--role api` + a worker, Postgres + Redis/Bull). The time is the server's own: the job's created_at
 * to its finish (`updated_at` of the completed job). Next to it, in the same run: the floor (sharp decoding
 * + resizing to the texture size + encoding the same picture, in this process, between jobs) and the stage
 * breakdown from the process's `job_stage_duration_seconds` (difference of the histogram sums before and
 * after). Results: bench/results/still-e2e.json.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { callJson, createDatabase, median, round, sleep, spawnEntry, startApi, waitHealthy } from './bench-service';
import { photo12mp, stillFloor } from './still-inputs';

const OWNER = 'owner-key-for-the-still-e2e-bench';
const REDIS_URL = 'redis://127.0.0.1:6379/8';
const RUNS = Number(process.argv[2] ?? 8);

/** `job_stage_duration_seconds_sum` per stage, ms. */
async function stageSums(metricsUrl: string, token?: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl, token ? { headers: { authorization: `Bearer ${token}` } } : {})).text();
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^job_stage_duration_seconds_sum\{stage="([^"]+)"\} ([0-9.e+-]+)$/gm)) out[m[1]] = Number(m[2]) * 1000;
  return out;
}

interface Run {
  e2e_ms: number;
  floor_ms: number;
  stages_ms: Record<string, number>;
  /** Scaled mode (read from Postgres): created -> a worker started it, and started -> finished. */
  queued_ms?: number;
  running_ms?: number;
}

type Query = (sql: string, params: unknown[]) => Promise<{ rows: any[] }>;

async function convertOnce(base: string, key: string, imageUrl: string, metricsUrl: string, query?: Query): Promise<Omit<Run, 'floor_ms'>> {
  const before = await stageSums(metricsUrl);
  const { job_id } = await callJson(base, 'POST', '/api/v1/convert', key, { image_url: imageUrl });
  for (;;) {
    const s = await callJson(base, 'GET', `/api/v1/status/${job_id}`, key);
    if (s.status === 'failed') throw new Error(`job ${job_id} failed: ${JSON.stringify(s.error)}`);
    if (s.status === 'completed') {
      // Stage metrics are recorded before the job's final write, so they are in by now.
      const after = await stageSums(metricsUrl);
      const stages = Object.fromEntries(
        Object.entries(after)
          .map(([k, v]) => [k, round(v - (before[k] ?? 0))])
          .filter(([, v]) => (v as number) > 0),
      );
      const e2e = Date.parse(s.updated_at) - Date.parse(s.created_at);
      if (!query) return { e2e_ms: e2e, stages_ms: stages };
      const { rows } = await query('SELECT created_at, started_at, finished_at FROM jobs WHERE id = $1', [job_id]);
      const [c, st, f] = [rows[0].created_at, rows[0].started_at, rows[0].finished_at].map((d: Date) => d.getTime());
      return { e2e_ms: e2e, stages_ms: stages, queued_ms: st - c, running_ms: f - st };
    }
    // Server timestamps time the job, so polling slowly costs nothing but takes less CPU from it.
    await sleep(100);
  }
}

async function measureMode(name: string, base: string, key: string, imageUrl: string, metricsUrl: string, photo: Buffer, query?: Query) {
  await convertOnce(base, key, imageUrl, metricsUrl, query); // warm-up: first-run code paths and pools
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    await sleep(300); // let the service finish what follows a job (listeners, GC) before the floor runs
    const floor = await stillFloor(photo, 'jpeg');
    const r = await convertOnce(base, key, imageUrl, metricsUrl, query);
    runs.push({ ...r, floor_ms: round(floor) });
    console.log(`${name} ${i + 1}: ${r.e2e_ms} ms end to end (floor ${round(floor)} ms): ${JSON.stringify(r.stages_ms)}`);
  }
  const e2e = median(runs.map((r) => r.e2e_ms));
  const floor = median(runs.map((r) => r.floor_ms));
  const stageNames = [...new Set(runs.flatMap((r) => Object.keys(r.stages_ms)))];
  const stages = Object.fromEntries(stageNames.map((s) => [s, round(median(runs.map((r) => r.stages_ms[s] ?? 0)))]));
  const inStages = Object.values(stages).reduce((a, b) => a + b, 0);
  const timestamps =
    runs[0].queued_ms === undefined
      ? {}
      : {
          queued_p50_ms: median(runs.map((r) => r.queued_ms!)),
          running_p50_ms: median(runs.map((r) => r.running_ms!)),
        };
  return {
    e2e_p50_ms: e2e,
    floor_p50_ms: floor,
    ratio: round(e2e / floor, 2),
    breakdown_p50_ms: { ...stages, outside_stages: round(e2e - inStages), ...timestamps },
    runs,
  };
}

async function main(): Promise<void> {
  sharp.cache(false);
  const photo = await photo12mp();
  const media = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.length });
    res.end(photo);
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  const imageUrl = `http://127.0.0.1:${(media.address() as { port: number }).port}/photo.jpg`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-still-e2e-'));
  const db = await createDatabase('ar_bench_still_e2e');
  const started: ChildProcess[] = [];
  const common = { ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_KEY: '1000000' };
  try {
    const emb = await startApi(OWNER, { ...common, DATA_DIR: join(dataDir, 'embedded') });
    started.push(emb.proc);
    const embedded = await measureMode('embedded', emb.base, emb.key, imageUrl, `${emb.base}/metrics`, photo);
    emb.proc.kill('SIGTERM');

    const shared = { ...common, DATABASE_URL: db.url, REDIS_URL, DATA_DIR: join(dataDir, 'scaled') };
    const api = await startApi(OWNER, shared, ['--role', 'api']);
    started.push(api.proc);
    const metricsPort = 46000 + Math.floor(Math.random() * 1000);
    const worker = spawnEntry('worker', { ...shared, OWNER_API_KEY: OWNER, PUBLIC_BASE_URL: api.base, METRICS_PORT: String(metricsPort) });
    started.push(worker);
    await waitHealthy(`http://127.0.0.1:${metricsPort}`, worker, '/metrics');
    const { Client } = await import('pg');
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    const scaled = await measureMode(
      'scaled',
      api.base,
      api.key,
      imageUrl,
      `http://127.0.0.1:${metricsPort}/metrics`,
      photo,
      (sql, params) => pg.query(sql, params),
    );
    await pg.end();

    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      input: { name: '12MP JPEG (4000x3000)', bytes: photo.length, served: 'HTTP from the bench process (the fetch stage downloads it)' },
      timing: 'server timestamps: created_at -> finish of the completed job; floor: sharp decode + resize to 2048 + encode, same run',
      runs: RUNS,
      embedded,
      scaled,
      targets: { ratio_max: 1.5 },
    };
    console.log(
      `still end to end: embedded ${embedded.e2e_p50_ms} ms = ${embedded.ratio}x the floor (${embedded.floor_p50_ms} ms); scaled ${scaled.e2e_p50_ms} ms = ${scaled.ratio}x (${scaled.floor_p50_ms} ms)`,
    );
    console.log(`breakdown embedded ${JSON.stringify(embedded.breakdown_p50_ms)}; scaled ${JSON.stringify(scaled.breakdown_p50_ms)}`);
    const out = join(__dirname, '../../bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'still-e2e.json'), JSON.stringify(report, null, 2) + '\n');
    console.log('written to bench/results/still-e2e.json');
  } finally {
    for (const p of started) if (p.exitCode === null) p.kill('SIGKILL');
    media.close();
    await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
