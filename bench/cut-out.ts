/**
 * Cut-out (background removal) benchmark (`npm run bench`): results in bench/results/cut-out.json.
 *
 * Clips: the three 4 s 640x360 fixtures of test/fixtures/media/cut-out (street footage with scene cuts, an
 * object moving across a still background, a turntable shot), a 10 s 1280x720 clip made of the three
 * (scaled), a 48-frame GIF of the moving-object clip (480x270) and a 12 MP JPEG still.
 *
 * Two parts:
 * - quality and cost, in this process with the service's defaults (BG_REMOVAL_INFER_PX 1024, keyframe gap
 *   8 with the agreement check, the session warmed first as the service does): model runs, ms per frame, IoU (masks at 128) mean and worst
 *   frame against `@imgly/background-removal-node`'s default `removeBackground` on every frame at full
 *   size (for the three fixtures: the stored references at 320x180; for the 720p clip and the GIF: computed
 *   here on every 3rd frame, the library taking ~4 s a frame), peak RSS of this process so far;
 * - submit to completed through the running service (built API, embedded worker, defaults), sources served
 *   over https: the first cut-out of a fresh service (worker start and model sessions included), then
 *   each clip; the API's event-loop delay p99 over each job (`nodejs_eventloop_lag_p99_seconds`, reset by
 *   each scrape).
 *
 * Flags: `--references` rewrites the fixtures' reference masks with the library (~4 min); `--quick` only
 * the street clip. Run inside `flock /tmp/e2e.lock` on a shared machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { BackgroundRemover, cutOutSequence, decodeAnimatedImage, DEFAULT_FRAME_LIMITS, DEFAULT_KEYFRAME_GAP, maskIou } from '@app/plugins';
import { callJson, selfSignedCert, sleep, startApi } from './bench-service';

const ROOT = join(__dirname, '../..');
const FIXTURES = join(ROOT, 'test/fixtures/media/cut-out');
const CLIPS = ['street', 'moving', 'turntable'] as const;
const W = 640;
const H = 360;
/** The service's default: BG_REMOVAL_KEYFRAME_GAP (BG_REMOVAL_INFER_PX 1024 is the remover's own default). */
const GAP = DEFAULT_KEYFRAME_GAP;
const OWNER = 'bench-owner-key-cut-out-0123456789';
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const mb = () => Math.round(process.resourceUsage().maxRSS / 1024);

type Lib = { removeBackground: (b: Blob, config?: { output?: { format?: string } }) => Promise<Blob> };
const lib = () => import('@imgly/background-removal-node') as Promise<Lib>;

/**
 * The library's default mask of an RGBA frame (its own resize to 1024x1024 and back), as computed: its
 * output asked as raw RGBA (`image/x-rgba8`), because its default PNG output is palette-quantised (sharp's
 * `quality: 80`), which moves alpha values by up to ~30 levels where the model is unsure (a subject leaving
 * the picture: 152 against 183 at the peak of the moving clip's frame 46), and with them the mask at 128.
 */
async function libraryMask(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
  const cut = await (
    await lib()
  ).removeBackground(new Blob([new Uint8Array(png)], { type: 'image/png' }), {
    output: { format: 'image/x-rgba8' },
  });
  const out = Buffer.from(await cut.arrayBuffer());
  if (out.length !== width * height * 4) throw new Error(`cut-out bench: the library gave ${out.length} bytes for ${width}x${height}`);
  const alpha = Buffer.alloc(width * height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = out[i * 4 + 3];
  return alpha;
}

function decodeClip(file: string, width: number, height: number, fps = 12): Buffer[] {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-vf', `fps=${fps},scale=${width}:${height}`, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-'],
    {
      maxBuffer: 1 << 30,
    },
  );
  const size = width * height * 4;
  return Array.from({ length: Math.floor(raw.length / size) }, (_, i) => raw.subarray(i * size, (i + 1) * size));
}

const small = (mask: Buffer, width: number, height: number) =>
  sharp(mask, { raw: { width, height, channels: 1 } })
    .resize(W / 2, H / 2, { kernel: 'linear' })
    .threshold(128)
    .extractChannel(0)
    .raw()
    .toBuffer();

/** `--references`: the library's mask of every frame of each fixture, 320x180 at 128, one PNG strip per clip. */
async function writeReferences(): Promise<void> {
  for (const clip of CLIPS) {
    const frames = decodeClip(join(FIXTURES, `${clip}.mp4`), W, H);
    const parts: Buffer[] = [];
    for (const f of frames) parts.push(await small(await libraryMask(f, W, H), W, H));
    await sharp(Buffer.concat(parts), { raw: { width: W / 2, height: (H / 2) * frames.length, channels: 1 } })
      .toColourspace('b-w')
      .png({ compressionLevel: 9 })
      .toFile(join(FIXTURES, `${clip}.masks.png`));
    console.log(`${clip}: ${frames.length} reference masks`);
  }
}

async function storedReferences(clip: string): Promise<Buffer[]> {
  const { data, info } = await sharp(join(FIXTURES, `${clip}.masks.png`))
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const size = (W / 2) * (H / 2);
  return Array.from({ length: info.height / (H / 2) }, (_, i) => data.subarray(i * size, (i + 1) * size));
}

const alpha = (rgba: Buffer) => {
  const a = Buffer.alloc(rgba.length / 4);
  for (let i = 0; i < a.length; i++) a[i] = rgba[i * 4 + 3];
  return a;
};

interface QualityRow {
  clip: string;
  frames: number;
  size: string;
  model_runs: number;
  ms_per_frame: number;
  total_ms: number;
  iou_mean: number;
  iou_worst: number;
  iou_frames: string;
  peak_rss_mb: number;
}

/** The service's path on `frames`; IoU against `reference(i)` for the frames it gives one. */
async function quality(
  remover: BackgroundRemover,
  clip: string,
  frames: Buffer[],
  width: number,
  height: number,
  reference: (i: number, mask: Buffer) => Promise<number | undefined>,
  iouFrames: string,
): Promise<QualityRow> {
  const t = performance.now();
  const cut = await cutOutSequence(frames, width, height, remover, { keyframeGap: GAP });
  const total = performance.now() - t;
  const ious: number[] = [];
  for (let i = 0; i < frames.length; i++) {
    const v = await reference(i, alpha(cut.frames[i]));
    if (v !== undefined) ious.push(v);
  }
  const row = {
    clip,
    frames: frames.length,
    size: `${width}x${height}`,
    model_runs: cut.keyframes,
    ms_per_frame: Math.round(total / frames.length),
    total_ms: Math.round(total),
    iou_mean: r3(ious.reduce((a, b) => a + b, 0) / ious.length),
    iou_worst: r3(Math.min(...ious)),
    iou_frames: iouFrames,
    peak_rss_mb: mb(),
  };
  console.log(JSON.stringify(row));
  return row;
}

/** A self-signed https origin serving `files` (the service fetches https only); the child trusts it via NODE_EXTRA_CA_CERTS. */
async function serve(dir: string, files: Record<string, Buffer>) {
  const { key, cert } = selfSignedCert(dir);
  const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const body = files[req.url ?? ''];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, cert, base: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function loopP99(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return Math.round(Number(/^nodejs_eventloop_lag_p99_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000);
}

/** Submit to completed through the running service, with the job's own report of the cut-out. */
async function throughService(api: { base: string; key: string }, name: string, body: Record<string, unknown>) {
  await loopP99(api.base);
  const t = performance.now();
  const { job_id } = await callJson(api.base, 'POST', '/api/v2/animated-ar', api.key, { ...body, remove_background: true });
  let job: any;
  for (;;) {
    job = await callJson(api.base, 'GET', `/api/v2/jobs/${job_id}`, api.key);
    if (job.status === 'completed' || job.status === 'failed') break;
    await sleep(50);
  }
  const row = {
    job: name,
    status: job.status,
    submit_to_completed_s: Math.round((performance.now() - t) / 100) / 10,
    frames: job.result?.frames?.count,
    model_runs: job.result?.background_removal?.frames_processed,
    api_event_loop_p99_ms: await loopP99(api.base),
  };
  console.log(JSON.stringify(row));
  return row;
}

async function main() {
  if (process.argv.includes('--references')) return writeReferences();
  const quick = process.argv.includes('--quick');
  const dir = mkdtempSync(join(tmpdir(), 'bench-cut-out-'));
  try {
    const clips = quick ? (['street'] as const) : CLIPS;
    // The 10 s 720p clip: the three fixtures one after the other, scaled (the service decodes it to 682x384).
    const long = join(dir, 'mix-720p.mp4');
    execFileSync('ffmpeg', [
      '-v', 'error',
      ...CLIPS.flatMap((c) => ['-i', join(FIXTURES, `${c}.mp4`)]),
      // Each input's SAR set first: the clips differ (street's is 10825:10816) and concat refuses a mix.
      '-filter_complex', '[0]setsar=1[a];[1]setsar=1[b];[2]setsar=1[c];[a][b][c]concat=n=3:v=1,trim=duration=10,scale=1280:720,setsar=1',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', long,
    ]); // prettier-ignore
    const gif = join(dir, 'moving.gif');
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      join(FIXTURES, 'moving.mp4'),
      '-vf',
      'fps=12,scale=480:270',
      '-frames:v',
      '48',
      '-y',
      gif,
    ]);
    const still = await sharp(join(ROOT, 'test/fixtures/media/photo-street.jpg'))
      .resize(4000, 3000, { fit: 'fill' })
      .jpeg({ quality: 92 })
      .toBuffer();

    const remover = new BackgroundRemover();
    const warmStarted = performance.now();
    await remover.warm();
    console.log(JSON.stringify({ warm_ms: Math.round(performance.now() - warmStarted) }));
    const rows: QualityRow[] = [];
    for (const clip of clips) {
      const refs = await storedReferences(clip);
      const frames = decodeClip(join(FIXTURES, `${clip}.mp4`), W, H);
      rows.push(await quality(remover, clip, frames, W, H, async (i, m) => maskIou(await small(m, W, H), refs[i]), 'all, at 320x180'));
    }
    if (!quick) {
      // As the service decodes them: 10 s at 12 fps capped at 96 frames and 96 MB of RGBA (682x384).
      const lw = 682;
      const lh = 384;
      const frames = decodeClip(long, lw, lh, 9.6);
      rows.push(
        await quality(
          remover,
          'mix-720p-10s',
          frames,
          lw,
          lh,
          async (i, m) => (i % 3 ? undefined : maskIou(m, await libraryMask(frames[i], lw, lh))),
          'every 3rd',
        ),
      );
      const seq = await decodeAnimatedImage(readFileSync(gif), DEFAULT_FRAME_LIMITS, {});
      const gf = seq.frames.map((f) => f.rgba);
      rows.push(
        await quality(
          remover,
          'gif-48',
          gf,
          seq.width,
          seq.height,
          async (i, m) => (i % 3 ? undefined : maskIou(m, await libraryMask(gf[i], seq.width, seq.height))),
          'every 3rd',
        ),
      );
      // The still as the motion stage cuts it: at twice the output frame size (1672x1254 for 4:3), one run at 1024.
      const { data, info } = await sharp(still).resize(1672, 1254).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const t = performance.now();
      const m = await remover.mask(data, info.width, info.height);
      const ms = Math.round(performance.now() - t);
      const row = {
        clip: 'still-12mp',
        frames: 1,
        size: `${info.width}x${info.height}`,
        model_runs: 1,
        ms_per_frame: ms,
        total_ms: ms,
        iou_mean: r3(maskIou(m, await libraryMask(data, info.width, info.height))),
        iou_worst: NaN,
        iou_frames: 'the one',
        peak_rss_mb: mb(),
      };
      row.iou_worst = row.iou_mean;
      console.log(JSON.stringify(row));
      rows.push(row);
    }
    await remover.close();

    const files: Record<string, Buffer> = { '/mix-720p.mp4': readFileSync(long), '/moving.gif': readFileSync(gif), '/still.jpg': still };
    for (const c of CLIPS) files[`/${c}.mp4`] = readFileSync(join(FIXTURES, `${c}.mp4`));
    const origin = await serve(dir, files);
    const api = await startApi(OWNER, {
      DATA_DIR: join(dir, 'data'),
      ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_PER_KEY: '1000000',
      NODE_EXTRA_CA_CERTS: origin.cert,
    });
    const service = [];
    try {
      service.push(
        await throughService(api, 'street (fresh service: worker start, model sessions)', { video_url: `${origin.base}/street.mp4` }),
      );
      for (const clip of clips) service.push(await throughService(api, clip, { video_url: `${origin.base}/${clip}.mp4` }));
      if (!quick) {
        service.push(await throughService(api, 'mix-720p-10s', { video_url: `${origin.base}/mix-720p.mp4` }));
        service.push(await throughService(api, 'gif-48', { image_url: `${origin.base}/moving.gif` }));
        service.push(await throughService(api, 'still-12mp (procedural motion)', { image_url: `${origin.base}/still.jpg` }));
      }
    } finally {
      api.proc.kill();
      origin.server.close();
    }
    if (!quick) {
      mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
      writeFileSync(
        join(ROOT, 'bench/results/cut-out.json'),
        `${JSON.stringify({ date: new Date().toISOString(), load_average: loadavg().map((v) => Math.round(v * 100) / 100), defaults: { infer_short_side: 1024, keyframe_gap: GAP, threads: 2 }, quality: rows, service }, null, 2)}\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
