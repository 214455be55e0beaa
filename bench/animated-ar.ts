/**
 * Animated AR benchmark (`npm run bench`, after the still-image one).
 *
 * Scenarios: a 48-frame GIF, a 10 s 720p video and a still image with procedural motion, each with and
 * without background removal. Each scenario runs in its own child process (so peak RSS is its own) and
 * times the real stages: decode (frames), motion, background removal, flipbook (atlases + GLB + USDZ +
 * poster). The floor is decoding the same source to the same frames and encoding them once as JPEG
 * (sharp / ffmpeg only). Background removal is also compared per frame with the library's default
 * `removeBackground` on an 800x600 frame. Results: bench/results/animated-ar.json.
 *
 * Opaque scenarios also compare the atlas JPEG encoder in use with mozjpeg (SSIM, bytes, time:
 * `atlas_encoding`), and a ~170 MB 1080p video is streamed over https through the real `animated-source` +
 * `frames` stages with its peak RSS (`big_video_stream`). Flags: `--only=<scenario,...>`, `--no-bg` (a
 * subset, printed only), `--stream-only` (the big video alone).
 *
 * Background removal also: the API's event-loop delay and status-request latency while frames are cut out
 * inline vs through the worker pool (`event_loop_under_background_removal`; `--loop-only` alone), and
 * `--quality-only`: ms per 720p frame and mask IoU vs the library's default per path (`background_removal_quality`,
 * merged into the results file).
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import sharp from 'sharp';
import {
  BackgroundRemover,
  BackgroundRemoverPool,
  type BackgroundRemoverPort,
  cutOutSequence,
  decodeAnimatedImage,
  decodeVideo,
  DEFAULT_FRAME_LIMITS,
  fitFrameSize,
  maskIou,
  packAtlases,
  probeVideo,
  renderProceduralMotion,
  resolveMotionStyle,
  writeFlipbookGlb,
  writeFlipbookUsdz,
  type FrameSequence,
  ATLAS_JPEG,
} from '@app/plugins';
import { loadConfig } from '@app/config';
import type { StageContext } from '@app/pipeline';
import { createAnimatedSourceStage } from '../libs/plugins/src/animated-ar/animated-source.stage';
import { createFramesStage, type SourceFrames } from '../libs/plugins/src/animated-ar/frames.stage';
import { jobTempDir } from '../libs/plugins/src/animated-ar/job-temp';
import { selfSignedCert } from './bench-service';
import { ssim } from './ssim';

const TOOLS = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', timeoutMs: 300_000 };
const LIMITS = DEFAULT_FRAME_LIMITS;
const VIDEO_FPS = 12;
const MOTION = { durationS: 4, fps: 12 };
/** The service's background-removal defaults (BG_REMOVAL_INFER_PX, BG_REMOVAL_THREADS, BG_REMOVAL_KEYFRAME_GAP). */
const BG_DEFAULTS = { inferShortSide: 1024, threads: 2 };
const BG_KEYFRAME_GAP = 6;
const SCENARIOS = ['gif-48', 'video-10s-720p', 'still-procedural'] as const;
type Scenario = (typeof SCENARIOS)[number];

const ms = (t: number) => Math.round(t);
const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t = performance.now();
  const v = await fn();
  return [v, performance.now() - t];
};

/** Inputs, generated once into a temp folder: textured so the encoders do real work. */
function makeInputs(dir: string): Record<Scenario, string> {
  const gif = join(dir, 'anim.gif');
  const video = join(dir, 'clip.mp4');
  const still = join(dir, 'still.jpg');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=480x360:rate=12:duration=4', '-frames:v', '48', '-y', gif]);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30:duration=10',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-y',
    video,
  ]);
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1600x1200', '-frames:v', '1', '-y', still]);
  return { 'gif-48': gif, 'video-10s-720p': video, 'still-procedural': still };
}

async function floorOf(scenario: Scenario, path: string, frames: FrameSequence): Promise<number> {
  const t = performance.now();
  const n = frames.frames.length;
  const size = `${frames.width}x${frames.height}`;
  if (scenario === 'gif-48') {
    // The GIF's frames already fit the frame limits: decoding all pages is the floor.
    await sharp(path, { animated: true }).raw().toBuffer();
  } else if (scenario === 'video-10s-720p') {
    execFileSync('ffmpeg', [
      '-v',
      'error',
      '-i',
      path,
      '-t',
      '10',
      '-an',
      '-vf',
      `fps=${VIDEO_FPS},scale=${size.replace('x', ':')}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-y',
      '/dev/null',
    ]);
  } else {
    await sharp(path).resize(frames.width, frames.height).raw().toBuffer();
  }
  // Encoding the same pixels once (a strip of all frames) as JPEG.
  const strip = Buffer.concat(frames.frames.map((f) => f.rgba));
  await sharp(strip, { raw: { width: frames.width, height: frames.height * n, channels: 4 } })
    .removeAlpha()
    .jpeg({ quality: 88 })
    .toBuffer();
  return performance.now() - t;
}

async function runScenario(scenario: Scenario, path: string, removeBackground: boolean) {
  const stages: Record<string, number> = {};
  const remover = removeBackground ? new BackgroundRemover(BG_DEFAULTS) : null;
  let seq: FrameSequence;
  let bgFrames = 0;
  if (scenario === 'still-procedural') {
    const [still, tDecode] = await time(async () => {
      const { data, info } = await sharp(path).rotate().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { rgba: data as Buffer, width: info.width, height: info.height };
    });
    stages.decode = tDecode;
    const out = fitFrameSize(still.width, still.height, MOTION.durationS * MOTION.fps, LIMITS);
    let src = still;
    if (remover) {
      // One inference on the still: the motion keeps transparency (see motion.stage.ts).
      const [rgba, t] = await time(() => remover.cutOut(still.rgba, still.width, still.height));
      stages.background_removal = t;
      bgFrames = 1;
      src = { ...still, rgba: rgba as Buffer };
    }
    const [frames, tMotion] = await time(() =>
      renderProceduralMotion(src, { preset: resolveMotionStyle('drift'), ...MOTION, width: out.width, height: out.height }),
    );
    stages.motion = tMotion;
    seq = frames;
  } else {
    const [frames, tDecode] = await time(async () => {
      if (scenario === 'gif-48') return decodeAnimatedImage(readFileSync(path), LIMITS);
      const probe = await probeVideo(path, TOOLS);
      return decodeVideo(path, TOOLS, LIMITS, { fps: VIDEO_FPS, probe });
    });
    stages.decode = tDecode;
    seq = frames;
    if (remover) {
      // The service's path: the model on keyframes, masks moved with the motion in between.
      const [cut, t] = await time(() =>
        cutOutSequence(
          seq.frames.map((f) => f.rgba),
          seq.width,
          seq.height,
          remover,
          { keyframeGap: BG_KEYFRAME_GAP },
        ),
      );
      stages.background_removal = t;
      bgFrames = cut.keyframes;
      seq = { ...seq, frames: cut.frames.map((rgba, i) => ({ rgba, duration: seq.frames[i].duration })), alpha: 'blend' };
    }
  }
  const [sizes, tBook] = await time(async () => {
    const { atlases, frames } = await packAtlases(seq.frames, { width: seq.width, height: seq.height, alpha: seq.alpha !== 'opaque' });
    const model = { atlases, frames, alpha: seq.alpha, width: 0.6, height: 0.6 * (seq.height / seq.width) };
    const glb = await writeFlipbookGlb(model);
    const usdz = writeFlipbookUsdz(model);
    return { glb: glb.length, usdz: usdz.length, atlases: atlases.length };
  });
  stages.flipbook = tBook;
  const total = Object.values(stages).reduce((s, v) => s + v, 0);
  const floor = await floorOf(scenario, path, seq);
  // Before the encoder comparison below, which holds extra copies of the atlases.
  const peakRss = Math.round(process.resourceUsage().maxRSS / 1024);
  const atlasEncoding = seq.alpha === 'opaque' ? await compareAtlasEncodings(seq) : null;
  await remover?.close();
  return {
    scenario,
    remove_background: removeBackground,
    frames: { count: seq.frames.length, width: seq.width, height: seq.height, alpha: seq.alpha },
    stage_ms: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, ms(v)])),
    total_ms: ms(total),
    floor_ms: ms(floor),
    ratio_total_to_floor: Math.round((total / floor) * 100) / 100,
    ratio_without_bg_removal_to_floor: Math.round(((total - (stages.background_removal ?? 0)) / floor) * 100) / 100,
    background_removal_ms_per_frame: bgFrames ? ms((stages.background_removal ?? 0) / bgFrames) : null,
    background_removal_ms_per_output_frame: removeBackground ? ms((stages.background_removal ?? 0) / seq.frames.length) : null,
    bytes: sizes,
    atlas_encoding: atlasEncoding,
    peak_rss_mb: peakRss,
  };
}

/**
 * The atlas JPEG encoder in use ({@link ATLAS_JPEG}) against the one before it (mozjpeg, quality 88) on the
 * same atlases (laid out losslessly, then encoded both ways): SSIM of the decoded pictures (lowest atlas),
 * bytes and encode time.
 */
async function compareAtlasEncodings(seq: FrameSequence) {
  const { atlases } = await packAtlases(seq.frames, { width: seq.width, height: seq.height, alpha: true });
  const before = { quality: 88, mozjpeg: true } as const;
  const out = {
    ssim_vs_before: 1,
    ssim_vs_lossless: 1,
    ssim_before_vs_lossless: 1,
    bytes: 0,
    bytes_before: 0,
    encode_ms: 0,
    encode_ms_before: 0,
  };
  for (const a of atlases) {
    const { data: raw, info } = await sharp(a.image).flatten({ background: '#000' }).raw().toBuffer({ resolveWithObject: true });
    const encode = async (o: object): Promise<[Buffer, number]> =>
      time(() =>
        sharp(raw, { raw: { width: info.width, height: info.height, channels: 3 } })
          .jpeg(o)
          .toBuffer(),
      );
    const [now, tNow] = await encode(ATLAS_JPEG);
    const [old, tOld] = await encode(before);
    const decode = (b: Buffer) => sharp(b).raw().toBuffer();
    const [dNow, dOld] = [await decode(now), await decode(old)];
    out.ssim_vs_before = Math.min(out.ssim_vs_before, ssim(dNow, dOld, info.width, info.height, 3));
    out.ssim_vs_lossless = Math.min(out.ssim_vs_lossless, ssim(dNow, raw, info.width, info.height, 3));
    out.ssim_before_vs_lossless = Math.min(out.ssim_before_vs_lossless, ssim(dOld, raw, info.width, info.height, 3));
    out.bytes += now.length;
    out.bytes_before += old.length;
    out.encode_ms += tNow;
    out.encode_ms_before += tOld;
  }
  const r4 = (v: number) => Math.round(v * 10000) / 10000;
  return {
    settings: ATLAS_JPEG,
    before: { ...before, chromaSubsampling: '4:2:0' },
    ssim_vs_before: r4(out.ssim_vs_before),
    ssim_vs_lossless: r4(out.ssim_vs_lossless),
    ssim_before_vs_lossless: r4(out.ssim_before_vs_lossless),
    bytes: out.bytes,
    bytes_before: out.bytes_before,
    encode_ms: ms(out.encode_ms),
    encode_ms_before: ms(out.encode_ms_before),
  };
}

/** ms per 800x600 frame: the library's default path vs ours (warm session, 3 frames each after one warm-up). */
async function backgroundRemovalPerFrame(path: string) {
  const png = await sharp(path).resize(800, 600, { fit: 'fill' }).png().toBuffer();
  const { data } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const lib = (await import('@imgly/background-removal-node')) as { removeBackground: (b: Blob) => Promise<Blob> };
  const libTimes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [, t] = await time(() => lib.removeBackground(new Blob([new Uint8Array(png)], { type: 'image/png' })));
    if (i > 0) libTimes.push(t);
  }
  const ours: Record<string, number> = {};
  for (const side of [512, 1024]) {
    const r = new BackgroundRemover({ inferShortSide: side, threads: 2 });
    const ts: number[] = [];
    for (let i = 0; i < 4; i++) {
      const [, t] = await time(() => r.cutOut(data, 800, 600));
      if (i > 0) ts.push(t);
    }
    await r.close();
    ours[`infer_short_side_${side}`] = ms(ts.reduce((s, v) => s + v, 0) / ts.length);
  }
  const libMs = ms(libTimes.reduce((s, v) => s + v, 0) / libTimes.length);
  return {
    frame: '800x600',
    library_default_ms_per_frame: libMs,
    ours_ms_per_frame: ours,
    speedup_at_512: Math.round((libMs / ours.infer_short_side_512) * 10) / 10,
    speedup_at_1024: Math.round((libMs / ours.infer_short_side_1024) * 10) / 10,
  };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Polls argv[1] every 20 ms with a fresh connection; 'ready' first, its latencies (ms) when told to stop. */
const POLLER = `
const http = require('node:http');
const times = [];
let on = true;
process.on('message', () => (on = false));
process.send('ready');
(async () => {
  while (on) {
    const t = performance.now();
    await new Promise((r) => http.get(process.argv[1], { agent: false }, (res) => res.resume().on('end', r)).on('error', r));
    times.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  process.send(times, () => process.disconnect());
})();
`;

/**
 * The API's responsiveness while video frames are cut out in the same process (embedded mode): inline on
 * the event loop (BG_REMOVAL_WORKERS=0) vs the worker pool (1). Measured on the main thread: event-loop
 * delay (perf_hooks.monitorEventLoopDelay, 10 ms resolution) and the latency of a trivial HTTP status
 * request sent every 20 ms, from another process, to a server in this process. The session is warmed on one frame first.
 */
async function eventLoopUnderCutOut(path: string, frameCount = 6) {
  const probe = await probeVideo(path, TOOLS);
  const seq = await decodeVideo(path, TOOLS, LIMITS, { fps: VIDEO_FPS, probe });
  const frames = seq.frames.slice(0, frameCount);
  const server = createServer((_req, res) => res.end('{"status":"processing"}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`;
  const out: Record<string, unknown> = { frame: `${seq.width}x${seq.height}`, frames: frames.length };
  for (const mode of ['inline', 'pool'] as const) {
    const opts = BG_DEFAULTS;
    const remover: BackgroundRemoverPort =
      mode === 'pool' ? new BackgroundRemoverPool({ ...opts, workers: 1 }) : new BackgroundRemover(opts);
    await remover.cutOut(frames[0].rgba, seq.width, seq.height);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    // The client is another process, as a real one: its requests wait while this loop is blocked.
    const poller = spawn(process.execPath, ['-e', POLLER, url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise((r) => poller.once('message', r));
    const polled = new Promise<number[]>((r) => poller.once('message', (m) => r(m as number[])));
    delay.enable();
    const t0 = performance.now();
    for (const f of frames) await remover.cutOut(f.rgba, seq.width, seq.height);
    const elapsed = performance.now() - t0;
    delay.disable();
    poller.send('stop');
    const polls = await polled;
    await remover.close();
    polls.sort((x, y) => x - y);
    out[mode] = {
      ms_per_frame: ms(elapsed / frames.length),
      loop_delay_p50_ms: ms(delay.percentile(50) / 1e6),
      loop_delay_p99_ms: ms(delay.percentile(99) / 1e6),
      loop_delay_max_ms: ms(delay.max / 1e6),
      status_polls: polls.length,
      status_poll_p50_ms: ms(pct(polls, 50)),
      status_poll_p99_ms: ms(pct(polls, 99)),
      status_poll_max_ms: ms(polls[polls.length - 1]),
    };
  }
  server.close();
  return out;
}

/**
 * Cut-out speed and mask quality on the repository's fixtures, as the service sees a video: every frame of
 * test/fixtures/media/clip-city-2s.mp4 at the service's 12 fps, scaled to 1280x720 (20 frames, one scene
 * cut). Quality is the IoU (masks at 128) of every frame against the library's own default
 * `removeBackground`; speed is ms per frame for the whole sequence (warm session, inline, thumbnails and
 * propagation included). Rows: the model on every frame at 512 (before) and 1024, and the keyframe path at
 * gaps 4 and 6 (the default). The two photographs (stills, cut out by one inference) are reported apart.
 */
async function backgroundRemovalQuality(mediaDir: string) {
  const W = 1280;
  const H = 720;
  const video = execFileSync(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      join(mediaDir, 'clip-city-2s.mp4'),
      '-vf',
      `fps=${VIDEO_FPS},scale=${W}:${H}`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      '-',
    ],
    { maxBuffer: 1 << 30 },
  );
  const frameBytes = W * H * 4;
  const frames: Buffer[] = [];
  for (let i = 0; (i + 1) * frameBytes <= video.length; i++) frames.push(video.subarray(i * frameBytes, (i + 1) * frameBytes));
  const lib = (await import('@imgly/background-removal-node')) as { removeBackground: (b: Blob) => Promise<Blob> };
  const libraryMask = async (rgba: Buffer, width: number, height: number) => {
    const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    const cut = Buffer.from(await (await lib.removeBackground(new Blob([new Uint8Array(png)], { type: 'image/png' }))).arrayBuffer());
    return sharp(cut).ensureAlpha().extractChannel(3).raw().toBuffer();
  };
  const reference: Buffer[] = [];
  let libraryMs = 0;
  for (const f of frames) {
    const [m, t] = await time(() => libraryMask(f, W, H));
    reference.push(m);
    libraryMs += t;
  }
  const alphaOf = (rgba: Buffer) => {
    const a = Buffer.alloc(rgba.length / 4);
    for (let i = 0; i < a.length; i++) a[i] = rgba[i * 4 + 3];
    return a;
  };
  const summary = (ious: number[]) => ({
    iou_mean: r3(ious.reduce((a, b) => a + b, 0) / ious.length),
    iou_worst: r3(Math.min(...ious)),
    iou_worst_frame: ious.indexOf(Math.min(...ious)),
  });
  const rows: Array<Record<string, unknown> & { ms_per_frame: number }> = [];
  const photos: Record<string, Record<string, number>> = {};
  for (const side of [512, 1024]) {
    const r = new BackgroundRemover({ ...BG_DEFAULTS, inferShortSide: side });
    await r.mask(frames[0], W, H);
    const [masks, t] = await time(async () => {
      const out: Buffer[] = [];
      for (const f of frames) out.push(await r.mask(f, W, H));
      return out;
    });
    rows.push({
      path: `every frame, ${side}${side === 512 ? ' (before)' : ''}`,
      model_runs: frames.length,
      ms_per_frame: ms(t / frames.length),
      ...summary(masks.map((m, i) => maskIou(m, reference[i]))),
    });
    for (const name of ['photo-bubbles.jpg', 'photo-street.jpg']) {
      const { data, info } = await sharp(join(mediaDir, name))
        .resize({ width: W })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      (photos[name] ??= {})[`iou_${side}`] = r3(
        maskIou(await r.mask(data, info.width, info.height), await libraryMask(data, info.width, info.height)),
      );
    }
    if (side === 1024) {
      for (const gap of [4, BG_KEYFRAME_GAP]) {
        const [cut, tk] = await time(() => cutOutSequence(frames, W, H, r, { keyframeGap: gap }));
        rows.push({
          path: `keyframes, 1024, gap ${gap}${gap === BG_KEYFRAME_GAP ? ' (default)' : ''}`,
          model_runs: cut.keyframes,
          ms_per_frame: ms(tk / frames.length),
          ...summary(cut.frames.map((f, i) => maskIou(alphaOf(f), reference[i]))),
        });
      }
    }
    await r.close();
  }
  const before = rows[0].ms_per_frame;
  for (const row of rows) row.speedup_vs_before = Math.round((before / row.ms_per_frame) * 100) / 100;
  for (const row of rows) console.log(JSON.stringify(row));
  return {
    clip: `clip-city-2s.mp4 at ${VIDEO_FPS} fps, ${W}x${H}`,
    frames: frames.length,
    library_ms_per_frame: ms(libraryMs / frames.length),
    rows,
    photos,
  };
}

const r3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * A big video through the real `animated-source` + `frames` stages (https download streamed to the job's
 * temp file, ffprobe + ffmpeg reading it): stage times, peak RSS of this process (maxRSS and rss sampled
 * every 10 ms from before the download), and whether the temp folder is gone after.
 */
async function streamBigVideo(url: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ar-bench-data-'));
  const config = loadConfig({ DATA_DIR: dataDir, ALLOW_PRIVATE_NETWORKS: 'true' });
  const ctx = (outputs: Record<string, unknown>): StageContext => ({
    job: { id: 'bench-big-video', kind: 'v2.animated-ar', ownerId: null, input: { video_url: url }, attempt: 1 },
    outputs,
    options: {},
    progress: () => undefined,
    signal: new AbortController().signal,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    status: 'downloading',
    checkpoints: { get: () => undefined, set: async () => undefined },
    io: (work) => work(),
  });
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10);
  const [src, tDownload] = await time(() => createAnimatedSourceStage(config).run(ctx({})));
  const tempFileBytes = 'file' in src ? (await import('node:fs')).statSync(src.file).size : null;
  const [frames, tFrames] = await time(() => createFramesStage(config).run(ctx({ 'animated-source': src })) as Promise<SourceFrames>);
  clearInterval(sampler);
  rmSync(dataDir, { recursive: true, force: true });
  const mb = (b: number) => Math.round(b / 1024 / 1024);
  return {
    source_bytes: 'size' in src ? src.size : null,
    temp_file_bytes: tempFileBytes,
    frames: { count: frames.sequence!.frames.length, width: frames.sequence!.width, height: frames.sequence!.height },
    stage_ms: { download: ms(tDownload), frames: ms(tFrames) },
    rss_before_mb: mb(rssBefore),
    rss_peak_sampled_mb: mb(rssPeak),
    temp_dir_removed: !(await import('node:fs')).existsSync(jobTempDir('bench-big-video')),
  };
}

/** Generates a ~170 MB 1080p video (noisy testsrc2, x264 ultrafast at 160 Mb/s) and serves it over https. */
async function bigVideoStream(dir: string) {
  const video = join(dir, 'big-1080p.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1920x1080:rate=30:duration=10,noise=alls=60:allf=t',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '160M',
    '-maxrate',
    '160M',
    '-bufsize',
    '10M',
    '-pix_fmt',
    'yuv420p',
    '-y',
    video,
  ]);
  const { key, cert } = selfSignedCert(dir);
  const { createReadStream, statSync } = await import('node:fs');
  const size = statSync(video).size;
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
    res.writeHead(200, { 'content-length': size, 'content-type': 'video/mp4' });
    createReadStream(video).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // The child (forked with this environment) trusts the throwaway certificate.
  process.env.NODE_EXTRA_CA_CERTS = cert;
  try {
    return {
      video: '1920x1080, 30 fps, 10 s, h264 ultrafast 160 Mb/s (noisy testsrc2)',
      ...(await inChild(['stream', `https://127.0.0.1:${(server.address() as AddressInfo).port}/big.mp4`])),
    };
  } finally {
    delete process.env.NODE_EXTRA_CA_CERTS;
    server.close();
  }
}

async function child(): Promise<void> {
  const [, , , kind, a, b] = process.argv;
  const out =
    kind === 'stream'
      ? await streamBigVideo(a)
      : kind === 'bg'
        ? await backgroundRemovalPerFrame(a)
        : kind === 'loop'
          ? await eventLoopUnderCutOut(a)
          : kind === 'quality'
            ? await backgroundRemovalQuality(a)
            : await runScenario(a as Scenario, b, process.argv[6] === 'bg');
  process.send!({ out, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) });
}

function inChild(args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['--child', ...args], { stdio: 'inherit' });
    let msg: any;
    c.on('message', (m) => (msg = m));
    c.on('exit', (code) =>
      code === 0 && msg
        ? resolve({ ...msg.out, peak_rss_mb: msg.out.peak_rss_mb ?? msg.peak_rss_mb })
        : reject(new Error(`bench child ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ar-bench-'));
  try {
    const inputs = makeInputs(dir);
    const results = [];
    // `--only=gif-48,video-10s-720p` and `--no-bg`: a quick subset, printed and not written to the results file.
    // `--quality-only`: the cut-out quality table alone, merged into the results file.
    if (process.argv.includes('--quality-only')) {
      const quality = await inChild(['quality', join(__dirname, '../../test/fixtures/media')]);
      const file = join(__dirname, '../../bench/results/animated-ar.json');
      writeFileSync(
        file,
        JSON.stringify(
          { ...JSON.parse(readFileSync(file, 'utf8')), background_removal_quality: { date: new Date().toISOString(), ...quality } },
          null,
          2,
        ) + '\n',
      );
      console.log(`written to ${file}`);
      return;
    }
    if (process.argv.includes('--loop-only')) {
      console.log(JSON.stringify(await inChild(['loop', inputs['video-10s-720p']]), null, 2));
      return;
    }
    // `--stream-only`: the big video download + decode alone.
    if (process.argv.includes('--stream-only')) {
      console.log(JSON.stringify(await bigVideoStream(dir), null, 2));
      return;
    }
    const only = process.argv
      .find((a) => a.startsWith('--only='))
      ?.slice(7)
      .split(',');
    const noBg = process.argv.includes('--no-bg');
    const subset = Boolean(only) || noBg;
    for (const s of SCENARIOS.filter((x) => !only || only.includes(x))) {
      for (const bg of noBg ? [false] : [false, true]) {
        const r = await inChild(['run', s, inputs[s], bg ? 'bg' : 'plain']);
        results.push(r);
        console.log(
          `${s}${bg ? ' + background removal' : ''}: ${r.frames.count} frames ${r.frames.width}x${r.frames.height}; ` +
            `${Object.entries(r.stage_ms)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ')} ms; total ${r.total_ms} ms, floor ${r.floor_ms} ms, ` +
            `ratio ${r.ratio_total_to_floor}x (${r.ratio_without_bg_removal_to_floor}x without bg removal); peak RSS ${r.peak_rss_mb} MB` +
            (bg ? `; bg removal ${r.background_removal_ms_per_frame} ms per inferred frame` : '') +
            (r.atlas_encoding
              ? `; atlas JPEG SSIM vs before ${r.atlas_encoding.ssim_vs_before}, ${r.atlas_encoding.bytes} vs ${r.atlas_encoding.bytes_before} bytes`
              : ''),
        );
      }
    }
    if (subset) return;
    const bigVideo = await bigVideoStream(dir);
    console.log(
      `big video (${Math.round(bigVideo.source_bytes / 1024 / 1024)} MB) streamed through animated-source + frames: peak RSS ${bigVideo.peak_rss_mb} MB, ` +
        `download ${bigVideo.stage_ms.download} ms, frames ${bigVideo.stage_ms.frames} ms, temp folder removed: ${bigVideo.temp_dir_removed}`,
    );
    const bgPerFrame = await inChild(['bg', inputs['still-procedural']]);
    const loop = await inChild(['loop', inputs['video-10s-720p']]);
    const quality = await inChild(['quality', join(__dirname, '../../test/fixtures/media')]);
    console.log(
      `event loop while cutting out ${loop.frame} frames: p99 delay inline ${loop.inline.loop_delay_p99_ms} ms, pool ${loop.pool.loop_delay_p99_ms} ms; ` +
        `status poll p99 inline ${loop.inline.status_poll_p99_ms} ms, pool ${loop.pool.status_poll_p99_ms} ms`,
    );
    console.log(
      `background removal per 800x600 frame: library default ${bgPerFrame.library_default_ms_per_frame} ms, ours ${JSON.stringify(bgPerFrame.ours_ms_per_frame)} ms -> ${bgPerFrame.speedup_at_512}x at 512`,
    );
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      settings: {
        frame_limits: LIMITS,
        video_fps: VIDEO_FPS,
        motion: MOTION,
        background_removal: {
          model: 'ISNet medium (fp32)',
          infer_short_side: BG_DEFAULTS.inferShortSide,
          threads: BG_DEFAULTS.threads,
          keyframe_gap: BG_KEYFRAME_GAP,
        },
      },
      targets: { background_removal_speedup_vs_library: 4 },
      results,
      background_removal_per_frame: bgPerFrame,
      event_loop_under_background_removal: loop,
      background_removal_quality: quality,
      big_video_stream: bigVideo,
    };
    const out = join(__dirname, '../../bench/results');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'animated-ar.json'), JSON.stringify(report, null, 2) + '\n');
    console.log('written to bench/results/animated-ar.json');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

(process.argv[2] === '--child' ? child() : main()).catch((e) => {
  console.error(e);
  process.exit(1);
});
