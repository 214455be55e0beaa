/**
 * Public SKU lookup (`npm run bench`, or `node dist/bench/showcase-skus.js` after a build): what a shop's product
 * pages cost the service. `GET /showcase/{public_id}/skus` with a batch of 5 SKUs as the widget asks them (three
 * variants of one print, a plain work by its external_id, one the showcase does not have), no key, against the
 * real API process (embedded: PGlite in the process), from a separate load process: an open loop at 500
 * requests/s for 30 s, latency p50/p99 measured from when each request was due, after 5 s of warm-up. Floor in
 * the same run: a plain node http server answering the same JSON bytes from memory with the same headers.
 * Also the widget's weight (gzipped, minified as a CDN would serve it, and as served). Results:
 * bench/results/showcase-skus.json.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { callJson, openLoop, round, servePictures, sleep, startApi } from './bench-service';

const OWNER = 'owner-key-for-the-showcase-skus-bench';
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = 5;
const SKUS = ['PRINT-S', 'PRINT-M', 'PRINT-L', 'PLAIN-1', 'NOT-THERE'];

type LoadResult = { requests: number; ok: number; errors: number; rps: number; p50_ms: number; p99_ms: number; max_ms: number };
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** The floor: the same bytes and headers, from memory. */
async function floorServer(port: number, body: string, etag: string): Promise<void> {
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=60',
      etag,
    });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  process.send?.('ready');
}

/** Open loop: `rate` GETs a second for `seconds`, each timed from when it was due. */
async function load(url: string, rate: number, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const u = new URL(url);
  const get = () =>
    new Promise<number>((resolve) => {
      const req = request(
        { host: u.hostname, port: u.port, path: u.pathname + u.search, agent, headers: { origin: 'https://shop.example' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end();
    });
  const { times, errors } = await openLoop(get, rate, seconds);
  agent.destroy();
  return {
    requests: times.length,
    ok: times.length - errors,
    errors,
    rps: round(times.length / seconds, 0),
    p50_ms: round(pct(times, 50), 2),
    p99_ms: round(pct(times, 99), 2),
    max_ms: round(times[times.length - 1] ?? 0, 2),
  };
}

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, args, { stdio: 'inherit' });
    let out: T | undefined;
    c.on('message', (m) => (out = m as T));
    c.on('exit', (code) => (code === 0 && out !== undefined ? resolve(out) : reject(new Error(`showcase-skus child exited ${code}`))));
  });
}

/** The widget's weight: gzipped source, minified (esbuild, as a CDN would) and as the service serves it (every locale's messages). */
async function widgetWeight(): Promise<Record<string, number>> {
  const root = join(__dirname, '../..');
  const source = readFileSync(join(root, 'apps/api/assets/widget.js'), 'utf8');
  const { transform } = await import('esbuild');
  const min = (await transform(source, { minify: true })).code;
  const { widgetScript, BUILT_WIDGET } = await import('../apps/api/src/public-pages/widget-script');
  return {
    source_gzip_bytes: gzipSync(source).length,
    minified_gzip_bytes: gzipSync(min).length,
    // What the service serves since the build minifies it (scripts/build.js, dist/widget/widget.js).
    served_gzip_bytes: gzipSync(readFileSync(join(root, BUILT_WIDGET))).length,
    served_unminified_gzip_bytes: gzipSync(widgetScript(source)).length,
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-skus-'));
  const started: ChildProcess[] = [];
  const pictures = await servePictures([readFileSync(join(__dirname, '../../test/fixtures/media/photo-street.jpg'))]);
  try {
    const api = await startApi(OWNER, { DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' });
    started.push(api.proc);
    const s = await callJson(api.base, 'POST', '/api/v2/showcases', OWNER, {
      layout_choice: 'grid',
      items: [
        {
          image_url: `${pictures.base}/p0.jpg`,
          title: 'Print',
          variants: [
            { sku: 'PRINT-S', width_inches: 12, height_inches: 16, price: '$40', default: true },
            { sku: 'PRINT-M', width_inches: 18, height_inches: 24, price: '$80' },
            { sku: 'PRINT-L', width_inches: 24, height_inches: 32, price: '$140' },
          ],
        },
        { image_url: `${pictures.base}/p0.jpg`, title: 'Plain', external_id: 'PLAIN-1', price: '$120' },
      ],
    });
    for (const end = Date.now() + 180_000; ; await sleep(200)) {
      const r = await callJson(api.base, 'GET', `/api/v2/showcases/${s.id}`, OWNER);
      if (r.items.every((i: any) => i.status === 'completed' && !i.variants?.some((v: any) => v.status !== 'ready'))) break;
      if (Date.now() > end) throw new Error('the showcase was not built in time');
    }
    const publicId = String(s.url).split('/').pop();
    const url = `${api.base}/showcase/${publicId}/skus?${SKUS.map((k) => `sku=${k}`).join('&')}`;
    const first = await fetch(url);
    const body = await first.text();
    const answered = Object.values(JSON.parse(body).skus).filter(Boolean).length;
    if (first.status !== 200 || answered !== 4) throw new Error(`unexpected lookup answer ${first.status}: ${body}`);
    console.log(`showcase ${publicId} built; a lookup of ${SKUS.length} SKUs answers ${body.length} bytes`);

    const floorPort = 46500 + Math.floor(Math.random() * 1000);
    const floor = fork(__filename, ['--floor', String(floorPort), body, first.headers.get('etag') ?? '""'], { stdio: 'inherit' });
    started.push(floor);
    await new Promise((r) => floor.once('message', r));
    const floorUrl = `http://127.0.0.1:${floorPort}/showcase/${publicId}/skus?${SKUS.map((k) => `sku=${k}`).join('&')}`;

    await runChild<LoadResult>(['--load', url, String(RATE), String(WARMUP_SECONDS)]);
    await runChild<LoadResult>(['--load', floorUrl, String(RATE), String(WARMUP_SECONDS)]);
    const service = await runChild<LoadResult>(['--load', url, String(RATE), String(SECONDS)]);
    const floorRun = await runChild<LoadResult>(['--load', floorUrl, String(RATE), String(SECONDS)]);
    const widget = await widgetWeight();
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      route: `GET /showcase/{public_id}/skus, ${SKUS.length} SKUs a request (3 variants, 1 external_id, 1 unknown), no key`,
      mode: 'embedded (PGlite in the API process)',
      load: { open_loop_rate: RATE, seconds: SECONDS, warmup_seconds: WARMUP_SECONDS },
      service,
      floor: floorRun,
      p99_over_floor_ms: round(service.p99_ms - floorRun.p99_ms, 2),
      widget,
      targets: { p99_ms_at_500_rps_max: 25, errors: 0 },
    };
    console.log(
      `SKU lookup at ${RATE}/s for ${SECONDS} s: service p50 ${service.p50_ms} ms p99 ${service.p99_ms} ms (${service.errors} errors); floor p50 ${floorRun.p50_ms} p99 ${floorRun.p99_ms}; widget ${JSON.stringify(widget)}`,
    );
    const out = join(__dirname, '../../bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'showcase-skus.json'), JSON.stringify(report, null, 2) + '\n');
    console.log('written to bench/results/showcase-skus.json');
  } finally {
    for (const p of started) if (p.exitCode === null) p.kill('SIGTERM');
    pictures.server.close();
    await sleep(500);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const [, , role, a, b, c] = process.argv;
const run =
  role === '--floor'
    ? floorServer(Number(a), b!, c!)
    : role === '--load'
      ? load(a!, Number(b), Number(c)).then((r) =>
          process.send ? void process.send(r, () => process.disconnect()) : console.log(JSON.stringify(r)),
        )
      : main();
run.catch((err) => {
  console.error(err);
  process.exit(1);
});
