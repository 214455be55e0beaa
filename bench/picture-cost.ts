/**
 * The fixed cost of one showcase picture (`node dist/bench/picture-cost.js [runs]`, after a build): the
 * showcase-picture pipeline's steps after fetch (normalise, scene, GLB and USDZ writers, the 6 variants a shop
 * sells it in, publish, thumbnails), each stage called as the runner calls it, its files stored on the local disk,
 * for a 24 x 32 px JPEG (what the shop-store test converts 500 of a mode) and a 2000 x 1500 photograph. Per stage:
 * CPU (process.cpuUsage, libvips' threads included) and wall time, the mean over `runs` (default 10) after two
 * warm-ups. For the small picture, in the same run: the thumbnails it no longer gets (a poster under
 * MIN_THUMBNAIL_POSTER_PX), rendered anyway from the same poster pixels, i.e. what they cost before.
 * Results: bench/results/picture-cost.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import type { AppConfig } from '@app/config';
import type { StageContext, StageProvider } from '@app/pipeline';
import {
  createNormaliseStage,
  createPublishStage,
  createThumbnailsStage,
  createVariantsStage,
  glbWriterStage,
  renderThumbnails,
  type SceneOutput,
  sceneStage,
  SHOWCASE_PICTURE_PIPELINE,
  usdzWriterStage,
} from '@app/plugins';
import { LocalStorageAdapter } from '@app/storage';
import { addSensorNoise } from './bench-service';

const RUNS = Number(process.argv[2] ?? 10);
const PHOTO = join(__dirname, '../../test/fixtures/media/photo-street.jpg');
const config = { images: { maxTexturePx: 2048, maxInputPixels: 100_000_000 } } as unknown as AppConfig;
const round = (v: number, d = 0) => Math.round(v * 10 ** d) / 10 ** d;

/** A product of the shop-store test: its own size and six print sizes in cm, unframed. */
const INPUT = {
  width_inches: 20 / 2.54,
  height_inches: 30 / 2.54,
  variants: [0, 1, 2, 3, 4, 5].map((j) => ({
    id: `var_size${j}cm`,
    width_inches: (20 + 5 * j) / 2.54,
    height_inches: (30 + 5 * j) / 2.54,
  })),
};

/** A 2000 x 1500 photograph with sensor-like noise, saved as a camera would. */
async function photograph(): Promise<Buffer> {
  const [W, H] = [2000, 1500];
  const base = await sharp(readFileSync(PHOTO)).resize(W, H, { fit: 'cover' }).raw().toBuffer();
  await addSensorNoise(base, W, H);
  return sharp(base, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** A stage context as the runner gives one (silent log, in-memory checkpoints). */
function context(jobId: string, outputs: Record<string, unknown>): StageContext {
  const saved = new Map<string, unknown>();
  return {
    job: { id: jobId, kind: 'v2.picture', ownerId: null, input: INPUT, attempt: 1 },
    outputs,
    options: {},
    progress: () => undefined,
    signal: new AbortController().signal,
    log: { info: () => undefined, warn: (m: string) => console.warn(m), error: () => undefined },
    status: 'converting',
    checkpoints: { get: <T>(k: string) => saved.get(k) as T | undefined, set: async (k, v) => void saved.set(k, v) },
    io: (work) => work(),
  };
}

/** One picture through the steps after fetch; CPU and wall ms per stage added to `cpu` and `wall`. */
async function convert(bytes: Buffer, storage: LocalStorageAdapter, cpu: Record<string, number>, wall: Record<string, number>) {
  const stages: Record<string, StageProvider<unknown, object>> = {
    normalise: createNormaliseStage(config),
    scene: sceneStage,
    'glb-writer': glbWriterStage,
    'usdz-writer': usdzWriterStage,
    variants: createVariantsStage(storage),
    publish: createPublishStage(storage),
    thumbnails: createThumbnailsStage(storage),
  };
  const jobId = `v2_bench${Math.random().toString(36).slice(2)}`;
  const outputs: Record<string, unknown> = { fetch: { bytes, type: 'image', url: 'https://example.test/p.jpg' } };
  for (const { stage } of SHOWCASE_PICTURE_PIPELINE.steps.slice(1)) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    outputs[stage] = await stages[stage].run({ ...context(jobId, { ...outputs }), options: {} });
    const c = process.cpuUsage(c0);
    cpu[stage] = (cpu[stage] ?? 0) + (c.user + c.system) / 1000;
    wall[stage] = (wall[stage] ?? 0) + performance.now() - t0;
  }
  return outputs;
}

async function main() {
  const pictures: Record<string, Buffer> = {
    'small (24 x 32 px JPEG)': await sharp({ create: { width: 24, height: 32, channels: 3, background: { r: 40, g: 90, b: 200 } } })
      .jpeg()
      .toBuffer(),
    'photograph (2000 x 1500 px JPEG)': await photograph(),
  };
  const load0 = loadavg().map((v) => round(v, 2));
  const results: Record<string, unknown> = {};
  for (const [name, bytes] of Object.entries(pictures)) {
    const root = mkdtempSync(join(tmpdir(), 'picture-cost-'));
    const storage = new LocalStorageAdapter(root, 'http://files.test');
    let last: Record<string, unknown> = {};
    for (let i = 0; i < 2; i++) last = await convert(bytes, storage, {}, {});
    const cpu: Record<string, number> = {};
    const wall: Record<string, number> = {};
    for (let i = 0; i < RUNS; i++) await convert(bytes, storage, cpu, wall);
    const mean = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round(v / RUNS, 1)]));
    const total = (o: Record<string, number>) => round(Object.values(o).reduce((a, b) => a + b, 0) / RUNS, 1);
    const entry: Record<string, unknown> = {
      cpu_ms: { ...mean(cpu), total: total(cpu) },
      wall_ms: { ...mean(wall), total: total(wall) },
      thumbnails_made: Object.keys((last.thumbnails as { thumbnails: object }).thumbnails).length,
    };
    const poster = (last.scene as SceneOutput).poster;
    if (!entry.thumbnails_made && poster.pixels) {
      // What the thumbnails it no longer gets cost: every file, from the same pixels, as the stage made them before.
      const shape = { w: INPUT.width_inches, h: INPUT.height_inches };
      let ms = 0;
      for (let i = 0; i < RUNS; i++) {
        const c0 = process.cpuUsage();
        await renderThumbnails(poster.pixels, shape, async () => undefined);
        const c = process.cpuUsage(c0);
        ms += (c.user + c.system) / 1000;
      }
      entry.skipped_thumbnails_cpu_ms = round(ms / RUNS, 1);
    }
    results[name] = entry;
    console.log(name, JSON.stringify(entry));
    rmSync(root, { recursive: true, force: true });
  }
  const out = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model, loadavg_before: load0, loadavg_after: loadavg().map((v) => round(v, 2)) },
    runs: RUNS,
    variants: INPUT.variants.length,
    results,
  };
  mkdirSync(join(__dirname, '../../bench/results'), { recursive: true });
  writeFileSync(join(__dirname, '../../bench/results/picture-cost.json'), `${JSON.stringify(out, null, 2)}\n`);
}

void main();
