/**
 * Analytics ingest (`node dist/bench/analytics-ingest.js [embedded|api]`, after a build): beacons as pages send
 * them (text/plain JSON, one event each, an iPhone user agent, no key) to POST /api/events of the real API
 * process — embedded (PGlite, in-process buffer) and scaled (`--role api`, Postgres + Redis stream) — from a
 * separate load process:
 * - open loop at 2,000 beacons/s for 10 s, after 3 s of warm-up on the same page: latency p50/p99 measured from when each request was due, and then
 *   the count check: every beacon answered 204 must be in GET /api/v2/analytics once the flusher caught up
 *   (sent = counted, nothing lost, nothing twice);
 * - closed loop (32 connections) for the most beacons per second the process takes.
 * Next to a floor in the same run: bare Fastify taking the same text/plain body, JSON.parse and a push onto an
 * array (no validation, owner lookup, hashing, dedupe or buffer). Results: bench/results/analytics-ingest.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callJson, createDatabase, round, sleep, startApi } from './bench-service';

const REDIS_URL = 'redis://127.0.0.1:6379/8';
const OWNER = 'owner-key-for-the-analytics-ingest-bench';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const args = process.argv.slice(2);

type LoadResult = { sent: number; ok: number; errors: number; rps: number; p50_ms: number; p99_ms: number; max_ms: number };
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** Bare Fastify: the same body type, parsed and kept. */
async function floorServer(port: number): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ bodyLimit: 16 * 1024 });
  const kept: unknown[] = [];
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/api/events', async (req, reply) => {
    kept.push(JSON.parse(req.body as string));
    if (kept.length > 100_000) kept.length = 0;
    return reply.code(204).send();
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.send?.('ready');
}

/** Beacons for `seconds`: open loop at `n`/s, or closed loop over `n` connections. */
async function load(url: string, site: string, items: number[], mode: 'open' | 'closed', n: number, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: mode === 'closed' ? n : 256 });
  const u = new URL(url);
  let seq = 0;
  const post = () =>
    new Promise<number>((resolve) => {
      const i = seq++;
      const body = JSON.stringify({
        site,
        referrer: 'https://gallery.example/prints',
        events: [
          {
            id: `b${process.pid}x${i}xx`,
            kind: i % 10 === 0 ? 'ar_launch' : 'view',
            platform: i % 10 === 0 ? 'quick_look' : undefined,
            surface: 'item',
            item_id: items[i % items.length],
          },
        ],
      });
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          agent,
          // A few hundred visitors: each its own user agent, as on a busy page.
          headers: {
            'content-type': 'text/plain;charset=UTF-8',
            'content-length': Buffer.byteLength(body),
            'user-agent': `${IPHONE} v${i % 300}`,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const times: number[] = [];
  let ok = 0;
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  const done = (s: number, t: number) => {
    if (s === 204) ok++;
    else errors++;
    times.push(t);
  };
  if (mode === 'closed') {
    await Promise.all(
      Array.from({ length: n }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          done(await post(), performance.now() - t);
        }
      }),
    );
  } else {
    const pending: Promise<void>[] = [];
    const start = performance.now();
    for (let i = 0; start + (i * 1000) / n < deadline; i++) {
      const due = start + (i * 1000) / n;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(
        post().then((s) => {
          done(s, performance.now() - due);
          if (process.env.BENCH_TRACE && performance.now() - due > 100)
            console.log(`slow: due +${round(due - start, 0)} ms took ${round(performance.now() - due, 0)} ms`);
        }),
      );
    }
    await Promise.all(pending);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return {
    sent: times.length,
    ok,
    errors,
    rps: round(times.length / seconds, 0),
    p50_ms: round(pct(times, 50), 2),
    p99_ms: round(pct(times, 99), 2),
    max_ms: round(times[times.length - 1] ?? 0, 1),
  };
}

function runChild<T>(childArgs: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, childArgs, { stdio: 'inherit' });
    let out: T | undefined;
    c.on('message', (m) => (out = m as T));
    c.on('exit', (code) => (code === 0 && out !== undefined ? resolve(out) : reject(new Error(`analytics-ingest child exited ${code}`))));
  });
}

const loadIn = (url: string, site: string, items: number[], mode: 'open' | 'closed', n: number, seconds = SECONDS) =>
  runChild<LoadResult>(['--load', url, site, items.join(','), mode, String(n), String(seconds)]);

/** A showcase with 20 items (their pictures never convert: only the item rows matter here). */
async function site(base: string, key: string) {
  const s = await callJson(base, 'POST', '/api/v2/showcases', key, {
    image_urls: Array.from({ length: 20 }, (_, i) => `http://127.0.0.1:9/none-${i}.jpg`),
  });
  const full = await callJson(base, 'GET', `/api/v2/showcases/${s.id}`, key);
  return {
    id: s.id as number,
    site: new URL(s.url).pathname.split('/').pop() as string,
    items: full.items.map((i: { id: number }) => i.id) as number[],
  };
}

/** The showcase's counted views + AR launches, once the flusher has taken `expected` (or 30 s passed). */
async function counted(base: string, key: string, showcaseId: number, expected: number): Promise<{ counted: number; lag_ms: number }> {
  const t = performance.now();
  let n = 0;
  while (performance.now() - t < 30_000) {
    const r = await callJson(base, 'GET', `/api/v2/analytics?showcase_id=${showcaseId}`, key);
    n = r.totals.views + r.totals.ar_launches;
    if (n >= expected) break;
    await sleep(100);
  }
  return { counted: n, lag_ms: round(performance.now() - t, 0) };
}

async function bench(mode: 'embedded' | 'api', dataDir: string) {
  const db = mode === 'api' ? await createDatabase('ar_bench_analytics') : null;
  const started: ChildProcess[] = [];
  try {
    const env: Record<string, string> = {
      DATA_DIR: join(dataDir, mode),
      ANALYTICS_EVENTS_PER_MINUTE: '1000000',
      ANALYTICS_FLUSH_MS: '500',
      ...(db ? { DATABASE_URL: db.url, REDIS_URL, QUEUE_NAME: `bench-analytics-${Date.now()}` } : {}),
    };
    const api = await startApi(OWNER, env, mode === 'api' ? ['--role', 'api'] : []);
    started.push(api.proc);
    const floorPort = 46500 + Math.floor(Math.random() * 1000);
    const floor = fork(__filename, ['--floor', String(floorPort)], { stdio: 'inherit' });
    started.push(floor);
    await new Promise((r) => floor.once('message', r));
    const url = `${api.base}/api/events`;
    const floorUrl = `http://127.0.0.1:${floorPort}/api/events`;

    // Warm-up on the site measured (its lookup cached, connections and JIT warm), then what it counted so far.
    const open = await site(api.base, OWNER);
    const warm = await loadIn(url, open.site, open.items, 'open', RATE, 3);
    await loadIn(floorUrl, open.site, open.items, 'open', RATE, 3);
    const base0 = (await counted(api.base, OWNER, open.id, warm.ok)).counted;
    const floorOpen = await loadIn(floorUrl, open.site, open.items, 'open', RATE);
    const serviceOpen = await loadIn(url, open.site, open.items, 'open', RATE);
    const check = await counted(api.base, OWNER, open.id, base0 + serviceOpen.ok);
    check.counted -= base0;

    const closed = await site(api.base, OWNER);
    const floorClosed = await loadIn(floorUrl, closed.site, closed.items, 'closed', CONNECTIONS);
    const serviceClosed = await loadIn(url, closed.site, closed.items, 'closed', CONNECTIONS);
    const checkClosed = await counted(api.base, OWNER, closed.id, serviceClosed.ok);
    return {
      mode,
      open_loop: {
        rate_per_s: RATE,
        seconds: SECONDS,
        service: serviceOpen,
        floor: floorOpen,
        p99_ratio: round(serviceOpen.p99_ms / Math.max(0.01, floorOpen.p99_ms), 2),
        answered_204: serviceOpen.ok,
        counted: check.counted,
        every_event_counted: check.counted === serviceOpen.ok,
        flush_lag_ms: check.lag_ms,
      },
      closed_loop: {
        connections: CONNECTIONS,
        service: serviceClosed,
        floor: floorClosed,
        throughput_ratio: round(serviceClosed.rps / Math.max(1, floorClosed.rps), 2),
        counted: checkClosed.counted,
        every_event_counted: checkClosed.counted === serviceClosed.ok,
      },
    };
  } finally {
    for (const p of started) p.kill('SIGKILL');
    await db?.drop();
  }
}

async function main(): Promise<void> {
  const modes = (args.some((a) => a === 'api' || a === 'embedded') ? args : ['embedded', 'api']) as ('embedded' | 'api')[];
  const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-analytics-'));
  const results = [];
  try {
    for (const m of modes) {
      const r = await bench(m, dataDir);
      console.log(JSON.stringify(r, null, 2));
      results.push(r);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/analytics-ingest.json',
    `${JSON.stringify({ date: new Date().toISOString(), machine: { cpus: cpus().length, load: loadavg().map((l) => round(l, 2)) }, results }, null, 2)}\n`,
  );
}

if (args[0] === '--floor') void floorServer(Number(args[1]));
else if (args[0] === '--load') {
  const [, url, siteId, items, mode, n, seconds] = args;
  void load(url, siteId, items.split(',').map(Number), mode as 'open' | 'closed', Number(n), Number(seconds)).then((r) => {
    process.send?.(r);
    process.exit(0);
  });
} else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
