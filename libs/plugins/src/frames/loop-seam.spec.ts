import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { RawFrame } from '../flipbook/pack-atlases';
import { MOTION_PRESETS } from '../motion/procedural/motion-presets';
import { renderProceduralMotion } from '../motion/procedural/render-procedural-motion';
import { DEFAULT_FRAME_LIMITS } from './frame-sequence';
import { decodeVideo, type VideoTools } from './decode-video';
import { makeLoop, meanAbsDiff, seamScore, thumbnail, SEAM_TARGET, type LoopMode } from './loop-seam';

const W = 64,
  H = 32;
const CAPS = { maxFrames: 96, maxDurationS: 10 };

/** Frames of a grey pattern that moves by `x(i)` px per frame: `x` drives the motion. */
function moving(n: number, x: (i: number) => number, duration = 0.1): RawFrame[] {
  return Array.from({ length: n }, (_, i) => {
    const rgba = Buffer.alloc(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let px = 0; px < W; px++) {
        const v = Math.round(127.5 + 127.5 * Math.sin(((px + x(i)) / W) * 2 * Math.PI) * Math.cos((y / H) * Math.PI));
        rgba.set([v, v, v, 255], (y * W + px) * 4);
      }
    }
    return { rgba, duration };
  });
}

const score = (frames: readonly RawFrame[]) => seamScore(frames.map((f) => thumbnail(f.rgba, W, H)));
/** The same buffers, in the same order (jest's toEqual on buffers is slow). */
const same = (a: readonly RawFrame[], b: readonly RawFrame[]) => a.length === b.length && a.every((f, i) => f.rgba === b[i].rgba);
const total = (frames: readonly RawFrame[]) => frames.reduce((s, f) => s + f.duration, 0);
const loop = (frames: RawFrame[], mode: LoopMode, periodic = false) => makeLoop(frames, W, H, { mode, periodic, ...CAPS });

describe('seam score', () => {
  it('is the wrap difference over the median step: ~0 for a perfect loop, ~1 for one more step, large for a jump', () => {
    // Period 24 frames: frame 24 would be frame 0 again.
    const periodic = moving(24, (i) => (i * W) / 24);
    expect(score(periodic)).toBeCloseTo(1, 1);
    const t = periodic.map((f) => thumbnail(f.rgba, W, H));
    expect(seamScore([...t, t[0]])).toBe(0);
    // A drift that stops half-way: the wrap jumps back 12 steps.
    const drift = moving(13, (i) => (i * W) / 24);
    expect(score(drift)).toBeGreaterThan(5);
  });

  it('does not divide by ~0 on still frames, and is 0 for fewer than 2 frames', () => {
    const still = moving(5, () => 0);
    expect(score(still)).toBe(0);
    expect(score(still.slice(0, 1))).toBe(0);
  });

  it('thumbnails are at most 32 px and weight grey by alpha', () => {
    const rgba = Buffer.alloc(100 * 50 * 4, 255);
    expect(thumbnail(rgba, 100, 50).length).toBe(32 * 16);
    const clear = Buffer.from(rgba);
    for (let i = 3; i < clear.length; i += 4) clear[i] = 0;
    expect(meanAbsDiff(thumbnail(rgba, 100, 50), thumbnail(clear, 100, 50))).toBeCloseTo(255, 3);
  });
});

describe('makeLoop', () => {
  // A drift whose last frame differs from its first, with a near-repeat two thirds in (period 20 of 26).
  const drifting = () => moving(26, (i) => (i * W) / 20 + i * 0.3);
  // A drift that never comes back.
  const oneWay = () => moving(24, (i) => i * 1.2);

  it('cut keeps the frames as they are: a big seam score', () => {
    const frames = oneWay();
    const r = loop(frames, 'cut');
    expect(r.frames).toHaveLength(24);
    expect(same(r.frames, frames)).toBe(true);
    expect(r.applied).toBe('cut');
    expect(r.seamScore).toBe(r.seamScoreBefore);
    expect(r.seamScore).toBeGreaterThan(10);
  });

  it('auto cuts at the frame most like the first and blends the rest into the start: score <= 1.5', () => {
    const frames = drifting();
    const r = loop(frames, 'auto');
    expect(r.seamScoreBefore).toBeGreaterThan(3);
    expect(r.applied).toBe('auto');
    expect(r.seamScore).toBeLessThanOrEqual(SEAM_TARGET);
    // The loop point is in the last third, near the repeat (frame 20 ~ frame 0).
    expect(r.frames.length).toBeGreaterThanOrEqual(18);
    expect(r.frames.length).toBeLessThanOrEqual(21);
    expect(score(r.frames)).toBeCloseTo(r.seamScore, 2);
  });

  it('auto on a one-way drift still reaches <= 1.5 (the last frames dissolve into the first)', () => {
    const r = loop(oneWay(), 'auto');
    expect(r.seamScoreBefore).toBeGreaterThan(10);
    expect(r.seamScore).toBeLessThanOrEqual(SEAM_TARGET);
    expect(score(r.frames)).toBeCloseTo(r.seamScore, 2);
  });

  it('auto leaves a clip that already loops untouched', () => {
    const frames = moving(24, (i) => (i * W) / 24);
    const r = loop(frames, 'auto');
    expect(r.applied).toBe('cut');
    expect(same(r.frames, frames)).toBe(true);
  });

  it('crossfade keeps every frame and the length, and hides the seam', () => {
    const frames = oneWay();
    const r = loop(frames, 'crossfade');
    expect(r.applied).toBe('crossfade');
    expect(r.frames).toHaveLength(24);
    expect(total(r.frames)).toBeCloseTo(total(frames), 9);
    expect(r.frames[0].rgba).toBe(frames[0].rgba);
    // The wrap is a fraction of the jump (how small depends on how many frames dissolve: at most half).
    expect(r.seamScore).toBeLessThan(r.seamScoreBefore / 5);
  });

  it('pingpong plays forward then backward: the wrap is an ordinary step', () => {
    const frames = oneWay();
    const r = loop(frames, 'pingpong');
    expect(r.frames).toHaveLength(2 * 24 - 2);
    expect(r.frames[24].rgba).toBe(frames[22].rgba);
    expect(r.frames.at(-1)!.rgba).toBe(frames[1].rgba);
    expect(r.seamScore).toBeLessThanOrEqual(1.01);
  });

  it('pingpong stays within the frame cap and the 10 s loop: frames dropped evenly', () => {
    const long = moving(60, (i) => i * 0.5, 0.125); // 7.5 s: 15 s bounced
    const r = makeLoop(long, W, H, { mode: 'pingpong', maxFrames: 96, maxDurationS: 10 });
    expect(r.frames.length).toBeLessThanOrEqual(96);
    expect(total(r.frames)).toBeLessThanOrEqual(10 + 1e-9);
    expect(r.frames[0].rgba).toBe(long[0].rgba);
    expect(r.frames.some((f) => f.rgba === long[59].rgba)).toBe(true);
    const capped = makeLoop(
      moving(60, (i) => i * 0.5, 0.05),
      W,
      H,
      { mode: 'pingpong', maxFrames: 40, maxDurationS: 10 },
    );
    expect(capped.frames.length).toBeLessThanOrEqual(40);
  });

  it('periodic (procedural) frames are never blended: scored only', () => {
    const frames = oneWay();
    for (const mode of ['auto', 'crossfade'] as const) {
      const r = loop(frames, mode, true);
      expect(r.applied).toBe('cut');
      expect(same(r.frames, frames)).toBe(true);
      expect(r.seamScore).toBe(r.seamScoreBefore);
    }
  });

  it('auto keeps an authored loop (animated image) as it is; crossfade still applies', () => {
    const frames = oneWay();
    const auto = makeLoop(frames, W, H, { mode: 'auto', authored: true, ...CAPS });
    expect(auto.applied).toBe('cut');
    expect(same(auto.frames, frames)).toBe(true);
    const cross = makeLoop(frames, W, H, { mode: 'crossfade', authored: true, ...CAPS });
    expect(cross.applied).toBe('crossfade');
    expect(cross.seamScore).toBeLessThan(cross.seamScoreBefore);
  });

  it('does not change its input', () => {
    const frames = oneWay();
    const copy = frames.map((f) => Buffer.from(f.rgba));
    loop(frames, 'auto');
    loop(frames, 'crossfade');
    expect(frames.every((f, i) => f.rgba.equals(copy[i]))).toBe(true);
  });
});

describe('makeLoop on real clips, decoded by decodeVideo', () => {
  const ROOT = join(__dirname, '../../../..');
  const TOOLS: VideoTools = {
    ffmpegPath: process.env.FFMPEG_PATH ?? 'ffmpeg',
    ffprobePath: process.env.FFPROBE_PATH ?? 'ffprobe',
    timeoutMs: 20_000,
  };
  // The video fixture as a video source (ANIMATION_VIDEO_FPS 12; 10 in the e2e config), and the same file as
  // what the fake hosted models return (libs/testing/src/fake-providers.ts), decoded at MOTION_FPS 12.
  const cases: [string, string, number][] = [
    ['video source, 12 fps', 'test/fixtures/media/clip-city-2s.mp4', 12],
    ['video source, 10 fps', 'test/fixtures/media/clip-city-2s.mp4', 10],
    ['hosted-model clip (fake providers), 12 fps', 'test/fixtures/media/clip-city-2s.mp4', 12],
  ];
  const shared = join(ROOT, '../shared/fixtures/clip-city-2s.mp4');
  try {
    if (!readFileSync(shared).equals(readFileSync(join(ROOT, cases[0][1])))) cases.push(['shared fixture, 12 fps', shared, 12]);
  } catch {
    // no shared checkout
  }

  const decoded = new Map<string, ReturnType<typeof decodeVideo>>();
  const decode = (file: string, fps: number) => {
    const key = `${file}@${fps}`;
    if (!decoded.has(key))
      decoded.set(key, decodeVideo(file.startsWith('/') ? file : join(ROOT, file), TOOLS, DEFAULT_FRAME_LIMITS, { fps }));
    return decoded.get(key)!;
  };

  it.each(cases)('%s: auto brings the seam score to <= 1.5', async (_name, file, fps) => {
    const seq = await decode(file, fps);
    const scores: Record<string, [number, number, number]> = {};
    for (const mode of ['cut', 'auto', 'crossfade', 'pingpong'] as const) {
      const r = makeLoop(seq.frames, seq.width, seq.height, { mode, ...CAPS });
      scores[mode] = [r.seamScoreBefore, r.seamScore, r.frames.length];
      expect(r.frames.every((f) => f.rgba.length === seq.width * seq.height * 4)).toBe(true);
    }
    process.stdout.write(`seam ${_name}: ${seq.frames.length} frames ${JSON.stringify(scores)}\n`);
    expect(scores.cut[1]).toBeGreaterThan(SEAM_TARGET);
    expect(scores.auto[1]).toBeLessThanOrEqual(SEAM_TARGET);
    expect(scores.crossfade[1]).toBeLessThan(scores.cut[1] / 5);
    expect(scores.pingpong[1]).toBeLessThanOrEqual(SEAM_TARGET);
  });
});

describe('procedural motion (an exact loop): kept as rendered, scored', () => {
  it('every preset on the photo fixture: never blended, seam score reported', async () => {
    const photo = join(__dirname, '../../../../test/fixtures/media/photo-street.jpg');
    const { data, info } = await sharp(photo).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const still = { rgba: data, width: info.width, height: info.height };
    const scores: Record<string, number> = {};
    for (const preset of MOTION_PRESETS) {
      // MOTION_LOOP_S 4 x MOTION_FPS 12 (the defaults), small frames.
      const seq = await renderProceduralMotion(still, { preset, durationS: 4, fps: 12, width: 160, height: 108 });
      const r = makeLoop(seq.frames, seq.width, seq.height, { mode: 'auto', periodic: true, ...CAPS });
      expect(r.applied).toBe('cut');
      expect(same(r.frames, seq.frames)).toBe(true);
      scores[preset.id] = Math.round(r.seamScore * 1000) / 1000;
    }
    process.stdout.write(`seam procedural (photo-street, 48 frames): ${JSON.stringify(scores)}\n`);
    for (const v of Object.values(scores)) expect(v).toBeLessThanOrEqual(SEAM_TARGET);
  });
});
