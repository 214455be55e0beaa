/**
 * Hosted motion benchmark (`npm run bench`, last): the cost of our side of a hosted operation — one
 * status request plus copying the provider's result video into storage — for videos of 20, 100 and 200
 * MB (VIDEO_MAX_BYTES), against the floor: the same bytes fetched and streamed to a file, nothing else.
 * The provider is a local server speaking Runway's task protocol and streaming the video from one
 * 1 MB chunk (it holds no video in memory), so the RSS growth is ours. Results:
 * bench/results/hosted-motion.json.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createHostedMotionProvider, type MotionContext, type MotionRequest, runwayApi } from '@app/plugins';
import { LocalStorageAdapter } from '@app/storage';

const SIZES_MB = [20, 100, 200];
const RUNS = 3;
const CHUNK = Buffer.alloc(1024 * 1024, 0x5a);

async function main(): Promise<void> {
  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const video = url.pathname.match(/^\/video\/(\d+)$/);
    if (video) {
      const mb = Number(video[1]);
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(mb * CHUNK.length) });
      let sent = 0;
      const pump = () => {
        while (sent < mb) {
          sent++;
          if (!res.write(CHUNK)) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    const task = url.pathname.match(/^\/v1\/tasks\/(\d+)$/);
    if (task) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ id: task[1], status: 'SUCCEEDED', output: [`${base}/video/${task[1]}`] }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-hosted-'));
  const storage = new LocalStorageAdapter(join(dir, 'storage'), 'http://localhost');
  const provider = createHostedMotionProvider(
    runwayApi({ id: 'runway', apiKey: 'bench', keyEnv: 'RUNWAYML_API_SECRET', baseUrl: `${base}/v1` }, '2024-11-06'),
    [{ id: 'runway:gen4_turbo', model: 'gen4_turbo', displayName: 'Runway', input: {} }],
    { storage, pollIntervalMs: 1000, requestTimeoutMs: 600_000, maxVideoBytes: 300 * 1024 * 1024 },
  );
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  const ctx: MotionContext = { signal: new AbortController().signal, log, storage, progress: () => undefined };

  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const measure = async (fn: () => Promise<void>) => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    peak = before;
    const t = performance.now();
    await fn();
    return { ms: performance.now() - t, rssGrowthMb: Math.max(0, peak - before) / 1048576 };
  };

  const rows = [];
  for (const mb of SIZES_MB) {
    const floor: { ms: number; rssGrowthMb: number }[] = [];
    const ours: { ms: number; rssGrowthMb: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      floor.push(
        await measure(async () => {
          const res = await fetch(`${base}/video/${mb}`);
          await pipeline(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), createWriteStream(join(dir, `floor-${mb}.mp4`)));
        }),
      );
      ours.push(
        await measure(async () => {
          const req = { jobId: `v2_bench${mb}x${i}`, model: 'runway:gen4_turbo' } as MotionRequest;
          const r = await provider.poll({ id: String(mb) }, req, ctx);
          if (r.state !== 'succeeded') throw new Error(`bench: ${JSON.stringify(r)}`);
        }),
      );
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const row = {
      video_mb: mb,
      floor_ms: Math.round(median(floor.map((f) => f.ms))),
      ours_ms: Math.round(median(ours.map((f) => f.ms))),
      ratio_to_floor: Number((median(ours.map((f) => f.ms)) / median(floor.map((f) => f.ms))).toFixed(2)),
      throughput_mb_s: Math.round(mb / (median(ours.map((f) => f.ms)) / 1000)),
      floor_rss_growth_mb: Math.round(Math.max(...floor.map((f) => f.rssGrowthMb))),
      ours_rss_growth_mb: Math.round(Math.max(...ours.map((f) => f.rssGrowthMb))),
    };
    rows.push(row);
    console.log(JSON.stringify(row));
  }
  clearInterval(sampler);
  server.close();
  rmSync(dir, { recursive: true, force: true });
  const out = join(__dirname, '../../bench/results');
  mkdirSync(out, { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    what: 'one status request + copying the result video into local storage (streamed, byte-capped, hashed for the ETag) vs fetch streamed to a file',
    runs: RUNS,
    results: rows,
  };
  writeFileSync(join(out, 'hosted-motion.json'), JSON.stringify(report, null, 2) + '\n');
  console.log('written to bench/results/hosted-motion.json');
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
