import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperationalError, PipelineError, UserError } from '@app/pipeline';
import { DEFAULT_FRAME_LIMITS, type FrameLimits } from './frame-sequence';
import { decodeVideo, probeVideo, type VideoTools } from './decode-video';

const CLIP = join(__dirname, '../../../../test/fixtures/media/clip-city-2s.mp4');
const TOOLS: VideoTools = {
  ffmpegPath: process.env.FFMPEG_PATH ?? 'ffmpeg',
  ffprobePath: process.env.FFPROBE_PATH ?? 'ffprobe',
  timeoutMs: 20_000,
};
const LIMITS: FrameLimits = DEFAULT_FRAME_LIMITS;

let dir: string;
const ffmpeg = (...args: string[]) =>
  execFileSync(TOOLS.ffmpegPath, ['-hide_banner', '-v', 'error', '-nostdin', '-y', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });

/** Writes a rotation of 90° counter-clockwise: `-display_rotation` since ffmpeg 6, the `rotate` tag before (5.x honours it the same way). */
function withRotation(input: string, out: string): void {
  try {
    ffmpeg('-display_rotation', '90', '-i', input, '-c', 'copy', out);
  } catch {
    ffmpeg('-i', input, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', out);
  }
}

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('did not fail');
}

const meanAbsDiff = (a: Buffer, b: Buffer) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;
const pixel = (rgba: Buffer, width: number, x: number, y: number) => [...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4)];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'decode-video-'));
  withRotation(CLIP, join(dir, 'rotated.mp4'));
  // Red on top, blue below: shows which way the rotation turned the picture.
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'color=red:s=64x16:d=0.2[a];color=blue:s=64x16:d=0.2[b];[a][b]vstack',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    join(dir, 'redtop.mp4'),
  );
  withRotation(join(dir, 'redtop.mp4'), join(dir, 'redtop-rotated.mp4'));
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'color=c=red@0.5:s=64x48:d=1,format=yuva420p',
    '-c:v',
    'libvpx-vp9',
    '-pix_fmt',
    'yuva420p',
    join(dir, 'alpha.webm'),
  );
  ffmpeg(
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=160x120:r=25:d=12',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    join(dir, 'long.mp4'),
  );
  ffmpeg('-f', 'lavfi', '-i', 'sine=d=0.5', '-c:a', 'aac', join(dir, 'audio.mp4'));
  writeFileSync(join(dir, 'notes.mp4'), 'these are not the frames you are looking for\n'.repeat(20));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('probeVideo', () => {
  it('reads size, rate, duration and codec of an MP4', async () => {
    const probe = await probeVideo(CLIP, TOOLS);
    expect(probe).toMatchObject({
      width: 426,
      height: 240,
      displayWidth: 426,
      displayHeight: 240,
      rotation: 0,
      fps: 25,
      codec: 'h264',
      hasAlpha: false,
    });
    expect(probe.durationS).toBeCloseTo(1.68, 2);
  });

  it('reads the display rotation and swaps the displayed size', async () => {
    const probe = await probeVideo(join(dir, 'rotated.mp4'), TOOLS);
    // 90° counter-clockwise is 270° clockwise.
    expect(probe).toMatchObject({ width: 426, height: 240, displayWidth: 240, displayHeight: 426, rotation: 270 });
  });

  it('sees the alpha of a VP9 WebM and its duration from the container', async () => {
    const probe = await probeVideo(join(dir, 'alpha.webm'), TOOLS);
    expect(probe).toMatchObject({ width: 64, height: 48, codec: 'vp9', hasAlpha: true, fps: 25 });
    expect(probe.durationS).toBeCloseTo(1, 2);
  });

  it('rejects a file that is not a video, or has no video stream, without the server path', async () => {
    const text = await failure(probeVideo(join(dir, 'notes.mp4'), TOOLS));
    expect(text).toBeInstanceOf(UserError);
    expect(text).toMatchObject({ code: 'bad_video', message: expect.stringMatching(/^video: notes\.mp4: /) });
    expect(text.message).not.toContain(dir);
    expect(text.message).not.toMatch(/@ 0x/);
    const audio = await failure(probeVideo(join(dir, 'audio.mp4'), TOOLS));
    expect(audio).toMatchObject({ code: 'bad_video', message: 'video: audio.mp4: it has no video stream' });
  });
});

describe('decodeVideo', () => {
  it('decodes at min(source, 24) fps, each frame 1/fps long, matching what ffmpeg shows', async () => {
    const seq = await decodeVideo(CLIP, TOOLS, LIMITS);
    expect(seq).toMatchObject({ width: 426, height: 240, alpha: 'opaque' });
    expect(seq.frames).toHaveLength(40);
    expect(seq.frames.every((f) => f.rgba.length === 426 * 240 * 4 && Math.abs(f.duration - 1 / 24) < 1e-9)).toBe(true);
    const first = execFileSync(TOOLS.ffmpegPath, [
      '-v',
      'error',
      '-i',
      CLIP,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgba',
      'pipe:1',
    ]);
    expect(meanAbsDiff(seq.frames[0].rgba, first)).toBeLessThan(2);
    expect(meanAbsDiff(seq.frames[0].rgba, seq.frames[39].rgba)).toBeGreaterThan(5);
  });

  it('resamples to maxFrames keeping the length, and shrinks to maxSide', async () => {
    const probe = await probeVideo(CLIP, TOOLS);
    const seq = await decodeVideo(CLIP, TOOLS, { ...LIMITS, maxFrames: 10, maxSide: 200 }, { probe });
    expect([seq.width, seq.height]).toEqual([200, 112]);
    expect(seq.frames).toHaveLength(10);
    expect(seq.frames.reduce((s, f) => s + f.duration, 0)).toBeCloseTo(1.68, 2);
    expect(seq.probe).toBe(probe);
  });

  it('cuts a long clip to maxDurationS, within maxFrames', async () => {
    const seq = await decodeVideo(join(dir, 'long.mp4'), TOOLS, LIMITS);
    expect(seq.frames).toHaveLength(96);
    expect(seq.frames.reduce((s, f) => s + f.duration, 0)).toBeCloseTo(10, 6);
    const slow = await decodeVideo(join(dir, 'long.mp4'), TOOLS, LIMITS, { fps: 2 });
    expect(slow.frames).toHaveLength(20);
  });

  it('applies the rotation: frames come out as displayed', async () => {
    const seq = await decodeVideo(join(dir, 'rotated.mp4'), TOOLS, { ...LIMITS, maxFrames: 2, maxSide: 200 });
    expect([seq.width, seq.height]).toEqual([112, 200]);
    const turned = await decodeVideo(join(dir, 'redtop-rotated.mp4'), TOOLS, LIMITS);
    expect([turned.width, turned.height]).toEqual([32, 64]);
    // 90° counter-clockwise moves the top (red) to the left.
    const [left, right] = [pixel(turned.frames[0].rgba, 32, 4, 32), pixel(turned.frames[0].rgba, 32, 27, 32)];
    expect(left[0]).toBeGreaterThan(200);
    expect(left[2]).toBeLessThan(50);
    expect(right[2]).toBeGreaterThan(200);
    expect(right[0]).toBeLessThan(50);
  });

  it('keeps the alpha of a VP9 WebM', async () => {
    const seq = await decodeVideo(join(dir, 'alpha.webm'), TOOLS, LIMITS);
    expect(seq).toMatchObject({ width: 64, height: 48, alpha: 'blend' });
    const [r, , , a] = pixel(seq.frames[0].rgba, 64, 10, 10);
    expect(r).toBeGreaterThan(200);
    expect(Math.abs(a - 128)).toBeLessThan(8);
  });

  it('decodes what is there when the duration is unknown', async () => {
    const probe = { ...(await probeVideo(CLIP, TOOLS)), durationS: 0 };
    const seq = await decodeVideo(CLIP, TOOLS, LIMITS, { probe });
    // Planned for 10 s within 96 frames (9.6 fps): the 1.68 s clip gives what it has.
    expect(seq.frames.length).toBeGreaterThanOrEqual(15);
    expect(seq.frames.length).toBeLessThanOrEqual(17);
  });

  it('rejects a text file as bad_video', async () => {
    const e = await failure(decodeVideo(join(dir, 'notes.mp4'), TOOLS, LIMITS));
    expect(e).toBeInstanceOf(UserError);
    expect((e as UserError).code).toBe('bad_video');
  });

  it('kills a run past the timeout: video_timeout, a user error', async () => {
    const e = await failure(decodeVideo(CLIP, { ...TOOLS, timeoutMs: 1 }, LIMITS));
    expect(e).toBeInstanceOf(UserError);
    expect(e).toMatchObject({ code: 'video_timeout', message: 'video: reading clip-city-2s.mp4 took longer than 1 ms' });
  });

  it('stops on abort', async () => {
    const ctl = new AbortController();
    const running = decodeVideo(join(dir, 'long.mp4'), TOOLS, LIMITS, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 20);
    const e = await failure(running);
    expect(e).toBeInstanceOf(OperationalError);
    expect((e as OperationalError).code).toBe('aborted');
    await expect(decodeVideo(CLIP, TOOLS, LIMITS, { signal: ctl.signal })).rejects.toMatchObject({ code: 'aborted' });
  });

  it('fails as a bug, not a user error, when ffprobe cannot be started', async () => {
    const e = await failure(decodeVideo(CLIP, { ...TOOLS, ffprobePath: join(dir, 'no-ffprobe') }, LIMITS));
    expect(e).not.toBeInstanceOf(PipelineError);
    expect(e.message).toBe('video: cannot start no-ffprobe (ENOENT)');
  });
});
