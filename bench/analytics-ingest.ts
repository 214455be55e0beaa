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
 *
 * `node dist/bench/analytics-ingest.js flood [--seconds 60]` (not in the default run: a minute of load): a flood
 * through the real route of the embedded service, its limits raised for the run — 2,000 beacons/s, about
 * 1,000,000 distinct event ids from one client address that rotates its user agent on every beacon — with
 * legitimate visitors from 200 other addresses on another page (every beacon sent twice, as a retry would).
 * Measured: beacon and /healthz latency p50/p99 during the flood, the API process's RSS at start, middle and end,
 * and that every legitimate event was counted exactly once (GET /api/v2/analytics after the flush).
 * Results: bench/results/analytics-flood.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { callJson, createDatabase, round, sleep, startApi } from './bench-service';
import { RawHttpPool } from './raw-http-pool';

const REDIS_URL = 'redis://127.0.0.1:6379/8';
const OWNER = 'owner-key-for-the-analytics-ingest-bench';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
const args = process.argv.slice(2);
const FLOOD_IDS = 1_000_000;
/**
 * `--seconds N` when given, else BENCH_FLOOD_SECONDS, else 60. (An earlier version read `args[indexOf + 1]`,
 * which is `args[0]`, "flood", when the flag is absent: NaN seconds, nothing sent, and the targets "met".)
 */
function floodSeconds(): number {
  const at = args.indexOf('--seconds');
  const raw = at >= 0 ? args[at + 1] : (process.env.BENCH_FLOOD_SECONDS ?? '60');
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new Error(`analytics-ingest flood: --seconds must be a positive number, got ${JSON.stringify(raw)}`);
  return n;
}
const FLOOD_SECONDS = args[0] === 'flood' ? floodSeconds() : 0;
/** Keep-alive connections the flood's load generator holds open (all opened before the clock starts). */
const FLOOD_CONNECTIONS = 256;
/** One beacon in this many is a legitimate visitor's (100/s at 2,000/s). */
const LEGIT_EVERY = 20;

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
  app.get('/healthz', async () => ({ status: 'ok' }));
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

type FloodLoad = {
  beacons: LoadResult;
  healthz: { probes: number; p50_ms: number; p99_ms: number; max_ms: number };
  /** The load process's own event-loop delay: on a 2-core machine it shares the CPU with the API, and its lag counts as beacon latency. */
  generator_loop_delay_ms: { p99: number; max: number };
  p99_ms_every_5_s: number[];
  attack: { beacons: number; ok: number; events: number };
  legit: { beacons: number; ok: number; events: number; resent: number };
};

/**
 * The flood: open loop at `rate` beacons/s for `seconds`. Beacon i is a legitimate visitor's when
 * i % LEGIT_EVERY is 0 (one of 200 addresses, its own user agent, 1-3 views, sent twice), otherwise the
 * attacker's (one address, a new user agent each time, `perBeacon` new event ids). /healthz probed every 50 ms.
 */
async function floodLoad(
  url: string,
  attackSite: string,
  legitSite: string,
  attackItems: number[],
  legitItems: number[],
  rate: number,
  seconds: number,
): Promise<FloodLoad> {
  const u = new URL(url);
  const attackBeacons = Math.ceil(((rate * seconds) / LEGIT_EVERY) * (LEGIT_EVERY - 1));
  const perBeacon = Math.min(20, Math.ceil(FLOOD_IDS / attackBeacons));
  // The connections are opened before the clock starts, as wrk and autocannon do, and a lean client writes on
  // them (bench/raw-http-pool): with Node's http client the generator opened its connections during the flood
  // (66 in the first second, then 12-33 a second, up to 260 ms each from connect to first bytes, measured: the
  // whole of the first 10 s tail in session 19), and it spent more CPU per beacon than the service did, on the
  // two cores they share.
  const pool = await RawHttpPool.open(u.origin, FLOOD_CONNECTIONS);
  const probePool = await RawHttpPool.open(u.origin, 1);
  const send = (path: string, method: string, body: string | null, headers: Record<string, string>, p: RawHttpPool) =>
    p.request(method, path, headers, body ?? '');
  const beacon = (i: number): { body: string; headers: Record<string, string>; legit: boolean; events: number } => {
    const legit = i % LEGIT_EVERY === 0;
    const n = legit ? 1 + (i % 3) : perBeacon;
    const items = legit ? legitItems : attackItems;
    const body = JSON.stringify({
      site: legit ? legitSite : attackSite,
      events: Array.from({ length: n }, (_, j) => ({
        id: `${legit ? 'l' : 'a'}${process.pid}x${i}x${j}`,
        kind: 'view',
        surface: 'item',
        item_id: items[(i + j) % items.length],
      })),
    });
    const ip = legit ? `203.0.113.${(i / LEGIT_EVERY) % 200}` : '198.51.100.7';
    return {
      body,
      legit,
      events: n,
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': legit ? `${IPHONE} visitor${(i / LEGIT_EVERY) % 200}` : `${IPHONE} a${i}`,
        'x-forwarded-for': ip,
      },
    };
  };
  const times: number[] = [];
  /** Beacon latencies by the 5 s window they were due in: where in the flood the tail is. */
  const windows: number[][] = [];
  const probes: number[] = [];
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const attack = { beacons: 0, ok: 0, events: 0 };
  const legitimate = { beacons: 0, ok: 0, events: 0, resent: 0 };
  let errors = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const probing = (async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await send('/healthz', 'GET', null, {}, probePool);
      probes.push(performance.now() - t);
      await sleep(50);
    }
  })();
  const pending: Promise<void>[] = [];
  for (let i = 0; start + (i * 1000) / rate < deadline; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const b = beacon(i);
    pending.push(
      send(u.pathname, 'POST', b.body, b.headers, pool).then(async (status) => {
        const took = performance.now() - due;
        times.push(took);
        const w = Math.floor((due - start) / 5000);
        (windows[w] ??= []).push(took);
        const tally = b.legit ? legitimate : attack;
        tally.beacons++;
        if (status !== 204) {
          errors++;
          return;
        }
        tally.ok++;
        tally.events += b.events;
        // A legitimate page's retry: the same beacon again, which must not count twice.
        if (b.legit && (await send(u.pathname, 'POST', b.body, b.headers, pool)) === 204) legitimate.resent++;
      }),
    );
  }
  await Promise.all(pending);
  await probing;
  lag.disable();
  pool.close();
  probePool.close();
  times.sort((a, b) => a - b);
  probes.sort((a, b) => a - b);
  return {
    beacons: {
      sent: times.length,
      ok: attack.ok + legitimate.ok,
      errors,
      rps: round(times.length / seconds, 0),
      p50_ms: round(pct(times, 50), 2),
      p99_ms: round(pct(times, 99), 2),
      max_ms: round(times[times.length - 1] ?? 0, 1),
    },
    healthz: {
      probes: probes.length,
      p50_ms: round(pct(probes, 50), 2),
      p99_ms: round(pct(probes, 99), 2),
      max_ms: round(probes[probes.length - 1] ?? 0, 1),
    },
    generator_loop_delay_ms: { p99: round(lag.percentile(99) / 1e6, 1), max: round(lag.max / 1e6, 1) },
    p99_ms_every_5_s: windows.map((w) =>
      round(
        pct(
          w.sort((a, b) => a - b),
          99,
        ),
        1,
      ),
    ),
    attack,
    legit: legitimate,
  };
}

/** CPU time a process has used so far (user + system), in ms (Linux: /proc/<pid>/stat, clock ticks of 10 ms). */
const cpuMs = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** The resident set of a process, in MB (Linux). */
const rssMb = (pid: number): number =>
  round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024, 0);

async function floodBench(dataDir: string) {
  const api = await startApi(OWNER, {
    DATA_DIR: join(dataDir, 'flood'),
    // Raised for this run: the flood is meant to reach the dedupe, not to be stopped at the limits.
    ANALYTICS_EVENTS_PER_MINUTE: '10000000',
    ANALYTICS_SITE_EVENTS_PER_MINUTE: '100000000',
    ANALYTICS_FLUSH_MS: '500',
    // The load process is the loopback "proxy" that says which client each beacon is from.
    TRUST_PROXY: 'loopback',
    // e.g. --cpu-prof --cpu-prof-dir=/tmp/prof to see where the API's time goes.
    ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
  });
  try {
    const pid = api.proc.pid as number;
    const attack = await site(api.base, OWNER);
    const legit = await site(api.base, OWNER);
    const url = `${api.base}/api/events`;
    // Warm-up: the attacked page's lookup cached, connections and JIT warm.
    const warmed = await loadIn(url, attack.site, attack.items, 'open', 500, 2);
    const warm = (await counted(api.base, OWNER, attack.id, warmed.ok)).counted;
    const rss: { start: number; middle: number; end: number; after_flush?: number; every_5_s: number[] } = {
      start: 0,
      middle: 0,
      end: 0,
      every_5_s: [],
    };
    // The machine's floor in the same run: bare Fastify taking the same beacons (and a bare /healthz).
    const floorPort = 46500 + Math.floor(Math.random() * 1000);
    const floorProc = fork(__filename, ['--floor', String(floorPort)], { stdio: 'inherit' });
    await new Promise((r) => floorProc.once('message', r));
    // The same load for the floor and for the service: only the URL differs.
    const floodArgs = (target: string) => [
      '--flood',
      target,
      attack.site,
      legit.site,
      attack.items.join(','),
      legit.items.join(','),
      String(RATE),
      String(FLOOD_SECONDS),
    ];
    const floorCpu0 = cpuMs(floorProc.pid as number);
    let floorCpu = 0;
    const floor = await runChild<FloodLoad>(floodArgs(`http://127.0.0.1:${floorPort}/api/events`)).finally(() => {
      floorCpu = cpuMs(floorProc.pid as number) - floorCpu0;
      floorProc.kill('SIGKILL');
    });
    rss.start = rssMb(pid);
    const cpu0 = cpuMs(pid);
    const middle = setTimeout(() => (rss.middle = rssMb(pid)), (FLOOD_SECONDS * 1000) / 2);
    const sampling = setInterval(() => rss.every_5_s.push(rssMb(pid)), 5000);
    const r = await runChild<FloodLoad>(floodArgs(url));
    // CPU per beacon is what the tail follows on a shared machine, and it is steadier than the latency itself.
    const cpu = cpuMs(pid) - cpu0;
    clearTimeout(middle);
    clearInterval(sampling);
    rss.end = rssMb(pid);
    const legitCount = await counted(api.base, OWNER, legit.id, r.legit.events);
    const attackCount = await counted(api.base, OWNER, attack.id, warm + r.attack.events);
    rss.after_flush = rssMb(pid);
    return {
      mode: 'flood (embedded)',
      rate_per_s: RATE,
      seconds: FLOOD_SECONDS,
      distinct_event_ids: r.attack.events + r.legit.events,
      load_generator: {
        client: 'bench/raw-http-pool (one socket a request in flight)',
        keep_alive_connections: FLOOD_CONNECTIONS,
        opened_before_the_clock: true,
      },
      beacons: r.beacons,
      healthz: r.healthz,
      generator_loop_delay_ms: r.generator_loop_delay_ms,
      p99_ms_every_5_s: r.p99_ms_every_5_s,
      floor: {
        beacons: floor.beacons,
        healthz: floor.healthz,
        generator_loop_delay_ms: floor.generator_loop_delay_ms,
        p99_ms_every_5_s: floor.p99_ms_every_5_s,
      },
      rss_mb: rss,
      // The API's CPU time through the flood (its flushes included) per beacon answered, against the floor's.
      cpu_ms_per_beacon: { api: round(cpu / Math.max(1, r.beacons.ok), 3), floor: round(floorCpu / Math.max(1, floor.beacons.ok), 3) },
      attacker: { beacons: r.attack.beacons, answered_204: r.attack.ok, events: r.attack.events, counted: attackCount.counted - warm },
      legitimate: {
        beacons: r.legit.beacons,
        answered_204: r.legit.ok,
        resent_204: r.legit.resent,
        events: r.legit.events,
        counted: legitCount.counted,
        every_event_counted_once: legitCount.counted === r.legit.events,
        flush_lag_ms: legitCount.lag_ms,
      },
      targets: floodTargets(r, RATE * FLOOD_SECONDS, legitCount.counted === r.legit.events),
    };
  } finally {
    // SIGTERM first so that a profiled run (BENCH_API_NODE_OPTIONS=--cpu-prof) writes its profile on exit.
    api.proc.kill('SIGTERM');
    const killer = setTimeout(() => api.proc.kill('SIGKILL'), 15_000);
    await new Promise((r) => (api.proc.exitCode !== null || api.proc.signalCode !== null ? r(null) : api.proc.once('exit', r)));
    clearTimeout(killer);
  }
}

/**
 * The verdict. A run only counts when the load really went out (at least 95 % of the beacons due were sent and
 * answered 204) and every legitimate event was counted once: a run that sends nothing has no latency to meet.
 */
function floodTargets(r: Pick<FloodLoad, 'beacons' | 'healthz'>, due: number, legitCountedOnce: boolean) {
  const sentShare = due > 0 ? r.beacons.ok / due : 0;
  const loadDelivered = sentShare >= 0.95;
  return {
    p99_ms: 20,
    beacons_due: due,
    answered_204_share: round(sentShare, 3),
    load_delivered: loadDelivered,
    legit_counted_once: legitCountedOnce,
    p99_met: loadDelivered && legitCountedOnce && r.beacons.p99_ms < 20 && r.healthz.p99_ms < 20,
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
      ANALYTICS_EVENTS_PER_MINUTE: '10000000',
      ANALYTICS_SITE_EVENTS_PER_MINUTE: '100000000',
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
  if (args[0] === 'flood') {
    const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-analytics-'));
    try {
      const r = await floodBench(dataDir);
      console.log(JSON.stringify(r, null, 2));
      // Not a measurement at all: the load did not go out, or events were lost or counted twice.
      if (!r.targets.load_delivered || !r.targets.legit_counted_once) {
        process.exitCode = 1;
        console.error('analytics-ingest flood: INVALID RUN (see targets); results not written');
        return;
      }
      mkdirSync('bench/results', { recursive: true });
      writeFileSync(
        'bench/results/analytics-flood.json',
        `${JSON.stringify({ date: new Date().toISOString(), machine: { cpus: cpus().length, load: loadavg().map((l) => round(l, 2)) }, result: r }, null, 2)}\n`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    return;
  }
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
else if (args[0] === '--flood') {
  const [, url, attackSite, legitSite, attackItems, legitItems, rate, seconds] = args;
  const ids = (list: string) => list.split(',').map(Number);
  void floodLoad(url, attackSite, legitSite, ids(attackItems), ids(legitItems), Number(rate), Number(seconds)).then((r) => {
    process.send?.(r);
    process.exit(0);
  });
} else if (args[0] === '--load') {
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
