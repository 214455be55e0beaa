/**
 * Animated AR benchmark (`npm run bench`, after the still-image one).
 *
 * Scenarios: a 48-frame GIF, a 10 s 720p video and a still image with procedural motion, each with and
 * without background removal. Each scenario runs in its own child process (so peak RSS is its own) and
 * times the real stages: decode (frames), motion, background removal, flipbook (atlases + GLB + USDZ +
 * poster). The floor is decoding the same source to the same frames and encoding them once as JPEG
 * (sharp / ffmpeg only). Background removal is also compared per frame with the library's default
 * `removeBackground` on an 800x600 frame. Results: bench/results/animated-ar.json.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import {
  BackgroundRemover, decodeAnimatedImage, decodeVideo, DEFAULT_FRAME_LIMITS, fitFrameSize, packAtlases, probeVideo, renderProceduralMotion,
  resolveMotionStyle, writeFlipbookGlb, writeFlipbookUsdz, type FrameSequence,
} from '@app/plugins';

const TOOLS = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', timeoutMs: 300_000 };
const LIMITS = DEFAULT_FRAME_LIMITS;
const VIDEO_FPS = 12;
const MOTION = { durationS: 4, fps: 12 };
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
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=10', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-y', video]);
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
    execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-t', '10', '-an', '-vf', `fps=${VIDEO_FPS},scale=${size.replace('x', ':')}`, '-f', 'rawvideo', '-pix_fmt', 'rgba', '-y', '/dev/null']);
  } else {
    await sharp(path).resize(frames.width, frames.height).raw().toBuffer();
  }
  // Encoding the same pixels once (a strip of all frames) as JPEG.
  const strip = Buffer.concat(frames.frames.map((f) => f.rgba));
  await sharp(strip, { raw: { width: frames.width, height: frames.height * n, channels: 4 } }).removeAlpha().jpeg({ quality: 88 }).toBuffer();
  return performance.now() - t;
}

async function runScenario(scenario: Scenario, path: string, removeBackground: boolean) {
  const stages: Record<string, number> = {};
  const remover = removeBackground ? new BackgroundRemover({ inferShortSide: 512, threads: 2 }) : null;
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
    const [frames, tMotion] = await time(() => renderProceduralMotion(src, { preset: resolveMotionStyle('drift'), ...MOTION, width: out.width, height: out.height }));
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
      const [cut, t] = await time(async () => {
        const out = [];
        for (const f of seq.frames) out.push({ rgba: await remover.cutOut(f.rgba, seq.width, seq.height), duration: f.duration });
        return out;
      });
      stages.background_removal = t;
      bgFrames = seq.frames.length;
      seq = { ...seq, frames: cut, alpha: 'blend' };
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
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
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

async function child(): Promise<void> {
  const [, , , kind, a, b] = process.argv;
  const out = kind === 'bg' ? await backgroundRemovalPerFrame(a) : await runScenario(a as Scenario, b, process.argv[6] === 'bg');
  process.send!({ out, peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024) });
}

function inChild(args: string[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['--child', ...args], { stdio: 'inherit' });
    let msg: any;
    c.on('message', (m) => (msg = m));
    c.on('exit', (code) => (code === 0 && msg ? resolve({ ...msg.out, peak_rss_mb: msg.peak_rss_mb }) : reject(new Error(`bench child ${args.join(' ')} exited ${code}`))));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ar-bench-'));
  try {
    const inputs = makeInputs(dir);
    const results = [];
    for (const s of SCENARIOS) {
      for (const bg of [false, true]) {
        const r = await inChild(['run', s, inputs[s], bg ? 'bg' : 'plain']);
        results.push(r);
        console.log(`${s}${bg ? ' + background removal' : ''}: ${r.frames.count} frames ${r.frames.width}x${r.frames.height}; ` +
          `${Object.entries(r.stage_ms).map(([k, v]) => `${k} ${v}`).join(', ')} ms; total ${r.total_ms} ms, floor ${r.floor_ms} ms, ` +
          `ratio ${r.ratio_total_to_floor}x (${r.ratio_without_bg_removal_to_floor}x without bg removal); peak RSS ${r.peak_rss_mb} MB` +
          (bg ? `; bg removal ${r.background_removal_ms_per_frame} ms per inferred frame` : ''));
      }
    }
    const bgPerFrame = await inChild(['bg', inputs['still-procedural']]);
    console.log(`background removal per 800x600 frame: library default ${bgPerFrame.library_default_ms_per_frame} ms, ours ${JSON.stringify(bgPerFrame.ours_ms_per_frame)} ms -> ${bgPerFrame.speedup_at_512}x at 512`);
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      cpus: (await import('node:os')).cpus().length,
      settings: { frame_limits: LIMITS, video_fps: VIDEO_FPS, motion: MOTION, background_removal: { model: 'ISNet medium (fp32)', infer_short_side: 512, threads: 2 } },
      targets: { background_removal_speedup_vs_library: 4 },
      results,
      background_removal_per_frame: bgPerFrame,
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
