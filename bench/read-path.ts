/**
 * API read-path benchmark (`npm run bench`, or `node dist/bench/read-path.js` after a build).
 *
 * `GET /api/v1/status/:id` with a per-user key against the real API process (scaled: Postgres + Redis,
 * `--role api`; and embedded: PGlite), next to its floor: bare Fastify + pg answering the same route with the
 * same one `SELECT * FROM jobs WHERE id = $1`, started in the same run against the same database. The load
 * comes from a separate process: closed loop (32 connections, keep-alive) for requests per second, then an
 * open loop at 200 requests/s for latency p50/p99. Rounds alternate floor and service so that the machine's
 * noise hits both. Results: bench/results/read-path.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callJson, createDatabase, median, openLoop, round, startApi } from './bench-service';

const REDIS_URL = 'redis://127.0.0.1:6379/7';
const OWNER = 'owner-key-for-the-read-path-bench';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 32;
const RATE = 200;

type LoadResult = { requests: number; rps: number; errors: number; p50_ms: number; p99_ms: number };

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

// ---------------------------------------------------------------------------------------------- children

/** Bare Fastify + pg: the same route, the same SELECT, JSON out. */
async function floorServer(dbUrl: string, port: number): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { Pool } = await import('pg');
  const pool = new Pool({ connectionString: dbUrl, max: 10 });
  const app = Fastify();
  app.get<{ Params: { id: string } }>('/api/v1/status/:id', async (req, reply) => {
    const { rows } = await pool.query('SELECT * FROM "jobs" WHERE "id" = $1', [req.params.id]);
    if (!rows[0]) return reply.code(404).send({ error: 'not found' });
    return { job_id: rows[0].id, status: rows[0].status, progress: Number(rows[0].progress) };
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.send?.('ready');
}

/** Closed loop (`closed`, N connections) or open loop (`open`, N requests/s) for `seconds`. */
async function load(url: string, key: string, mode: 'closed' | 'open', n: number, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: mode === 'closed' ? n : 64 });
  const u = new URL(url);
  const get = () =>
    new Promise<number>((resolve) => {
      const req = request({ host: u.hostname, port: u.port, path: u.pathname, agent, headers: { 'x-api-key': key } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  if (mode === 'open') {
    const { times, errors } = await openLoop(get, n, seconds);
    agent.destroy();
    return summary(times, errors, seconds);
  }
  const times: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        if ((await get()) !== 200) errors++;
        times.push(performance.now() - t);
      }
    }),
  );
  agent.destroy();
  return summary(
    times.sort((a, b) => a - b),
    errors,
    seconds,
  );
}

function summary(times: number[], errors: number, seconds: number): LoadResult {
  return {
    requests: times.length,
    rps: round(times.length / seconds, 0),
    errors,
    p50_ms: round(pct(times, 50), 2),
    p99_ms: round(pct(times, 99), 2),
  };
}

// ---------------------------------------------------------------------------------------------- main

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, args, { stdio: 'inherit' });
    let out: T | undefined;
    c.on('message', (m) => (out = m as T));
    c.on('exit', (code) =>
      code === 0 && out !== undefined ? resolve(out) : reject(new Error(`read-path child ${args[0]} exited ${code}`)),
    );
  });
}

/** Starts the API with a user, a key and one (queued) job; returns what the load needs. */
async function startService(env: Record<string, string>, args: string[]) {
  const api = await startApi(OWNER, { RATE_LIMIT_PER_KEY: '1000000', ...env }, args);
  const { job_id } = await callJson(api.base, 'POST', '/api/v1/convert', api.key, { image_url: 'https://example.com/picture.jpg' });
  return { ...api, jobId: job_id as string };
}

async function measure(url: string, key: string) {
  return runChild<LoadResult>(['--load', url, key, 'closed', String(CONNECTIONS), String(SECONDS)]);
}

async function main(): Promise<void> {
  const db = await createDatabase('ar_bench_read');
  const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-read-'));
  const started: ChildProcess[] = [];
  try {
    // Scaled API (Postgres + Redis) and its floor on the same database.
    const svc = await startService({ DATABASE_URL: db.url, REDIS_URL, DATA_DIR: join(dataDir, 'scaled') }, ['--role', 'api']);
    started.push(svc.proc);
    console.log(`scaled API up on ${svc.base}, job ${svc.jobId}`);
    const floorPort = 45500 + Math.floor(Math.random() * 1000);
    const floor = fork(__filename, ['--floor', db.url, String(floorPort)], { stdio: 'inherit' });
    started.push(floor);
    await new Promise((r) => floor.once('message', r));
    const svcUrl = `${svc.base}/api/v1/status/${svc.jobId}`;
    const floorUrl = `http://127.0.0.1:${floorPort}/api/v1/status/${svc.jobId}`;
    await measure(floorUrl, svc.key); // warm-up both
    await measure(svcUrl, svc.key);
    const rounds: Array<{ floor: LoadResult; service: LoadResult }> = [];
    for (let i = 0; i < ROUNDS; i++) {
      const f = await measure(floorUrl, svc.key);
      const s = await measure(svcUrl, svc.key);
      rounds.push({ floor: f, service: s });
      console.log(`round ${i + 1}: floor ${f.rps} rps, service ${s.rps} rps (${round(s.rps / f.rps, 2)}), errors ${f.errors}/${s.errors}`);
    }
    const open = {
      floor: await runChild<LoadResult>(['--load', floorUrl, svc.key, 'open', String(RATE), String(SECONDS)]),
      service: await runChild<LoadResult>(['--load', svcUrl, svc.key, 'open', String(RATE), String(SECONDS)]),
    };
    console.log(
      `open loop ${RATE}/s: service p50 ${open.service.p50_ms} ms p99 ${open.service.p99_ms} ms; floor p50 ${open.floor.p50_ms} p99 ${open.floor.p99_ms}`,
    );
    svc.proc.kill('SIGTERM');
    floor.kill('SIGTERM');

    // Embedded (PGlite in the API process), against the same Postgres floor for scale.
    const emb = await startService({ DATA_DIR: join(dataDir, 'embedded') }, []);
    started.push(emb.proc);
    const embUrl = `${emb.base}/api/v1/status/${emb.jobId}`;
    await measure(embUrl, emb.key);
    const embRuns: LoadResult[] = [];
    for (let i = 0; i < ROUNDS; i++) embRuns.push(await measure(embUrl, emb.key));
    const embOpen = await runChild<LoadResult>(['--load', embUrl, emb.key, 'open', String(RATE), String(SECONDS)]);
    emb.proc.kill('SIGTERM');

    const floorRps = median(rounds.map((r) => r.floor.rps));
    const serviceRps = median(rounds.map((r) => r.service.rps));
    const embeddedRps = median(embRuns.map((r) => r.rps));
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      route: 'GET /api/v1/status/:id, per-user key',
      load: { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, open_loop_rate: RATE },
      scaled: { floor_rps: floorRps, service_rps: serviceRps, ratio: round(serviceRps / floorRps, 2), rounds, open_loop: open },
      embedded: { service_rps: embeddedRps, ratio_to_postgres_floor: round(embeddedRps / floorRps, 2), runs: embRuns, open_loop: embOpen },
      targets: { ratio_min: 0.6, p99_ms_at_200_rps_max: 25 },
    };
    console.log(
      `read path: scaled ${serviceRps} rps vs floor ${floorRps} rps = ${report.scaled.ratio}; embedded ${embeddedRps} rps; p99 at ${RATE}/s ${open.service.p99_ms} ms (embedded ${embOpen.p99_ms} ms)`,
    );
    const out = join(__dirname, '../../bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'read-path.json'), JSON.stringify(report, null, 2) + '\n');
    console.log('written to bench/results/read-path.json');
  } finally {
    for (const p of started) if (p.exitCode === null) p.kill('SIGKILL');
    await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const [, , role, a, b, c, d, e] = process.argv;
const run =
  role === '--floor'
    ? floorServer(a, Number(b))
    : role === '--load'
      ? load(a, b, c as 'closed' | 'open', Number(d), Number(e)).then((r) =>
          process.send ? void process.send(r, () => process.disconnect()) : console.log(JSON.stringify(r)),
        )
      : main();
run.catch((err) => {
  console.error(err);
  process.exit(1);
});
