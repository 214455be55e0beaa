import { spawn } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { OperationalError, UserError } from '@app/pipeline';
import type { RawFrame } from '../flipbook/pack-atlases';
import { classifyAlpha, fitFrameSize, limitFrames, type FrameLimits, type FrameSequence } from './frame-sequence';

/** Where ffmpeg/ffprobe live and how long each run may take. */
export interface VideoTools {
  ffmpegPath: string;
  ffprobePath: string;
  /** Wall-clock cap per process (ffprobe and ffmpeg each get it). */
  timeoutMs: number;
}

/** Binaries looked up on the PATH; the service passes its configured paths instead. */
export const DEFAULT_VIDEO_TOOLS: VideoTools = { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', timeoutMs: 60_000 };

/** What {@link probeVideo} learns about the first video stream of a file. */
export interface VideoProbe {
  /** Stored (coded) size, before the rotation. */
  width: number;
  height: number;
  /** As displayed, after the rotation. */
  displayWidth: number;
  displayHeight: number;
  /** Clockwise degrees a player turns the picture before showing it: 0, 90, 180 or 270. */
  rotation: number;
  /** Seconds; 0 when the container does not say. */
  durationS: number;
  /** Average frames per second; 0 when unknown. */
  fps: number;
  /** ffmpeg codec name, e.g. `h264`, `vp9`. */
  codec: string;
  /** The stream carries an alpha channel (WebM `alpha_mode`, or a pixel format with alpha). */
  hasAlpha: boolean;
}

/** Frame rate used when the caller does not ask for one (and the source is faster). */
const DEFAULT_FPS = 24;
/** ffmpeg's stderr kept for error messages: the end is where the reason is. */
const STDERR_TAIL_BYTES = 4096;
/** ffprobe's JSON of a sane file is a few KB; a file with thousands of streams is not a clip. */
const PROBE_MAX_BYTES = 4 * 1024 * 1024;
/**
 * Demuxers allowed (the sniffer only lets MP4/MOV and WebM through as video). Besides speed, this keeps
 * playlist-like formats (HLS, concat) from opening other local files, which the `file` protocol allows.
 */
const CONTAINERS = 'mov,matroska';

interface ProbeStream {
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number | string }[];
}

interface ProbeJson {
  streams?: ProbeStream[];
  format?: { duration?: string };
}

/**
 * Reads the container and first video stream of a local file with ffprobe (`-v error -print_format json
 * -show_streams -show_format`, `file` protocol only). Cover art is not a video stream.
 *
 * @throws UserError `bad_video` when the file is not a readable MP4/MOV/WebM with a video stream,
 *   `video_timeout` when ffprobe runs past `tools.timeoutMs`.
 * @example
 * const probe = await probeVideo('/tmp/job/source.mp4', tools); // { displayWidth: 1080, displayHeight: 1920, rotation: 90, ... }
 */
export async function probeVideo(path: string, tools: VideoTools, signal?: AbortSignal): Promise<VideoProbe> {
  const chunks: Buffer[] = [];
  let size = 0;
  const args = ['-hide_banner', '-v', 'error', '-protocol_whitelist', 'file', '-format_whitelist', CONTAINERS, '-print_format', 'json'];
  args.push('-show_streams', '-show_format', '-select_streams', 'V', '-i', `file:${path}`);
  const exit = await runTool({ bin: tools.ffprobePath, args, timeoutMs: tools.timeoutMs, signal, path, what: 'reading' }, (chunk, stop) => {
    size += chunk.length;
    if (size > PROBE_MAX_BYTES) stop();
    else chunks.push(chunk);
  });
  if (exit.stopped) throw badVideo(path, 'it has too many streams');
  checkExit(exit, path, 'reading');
  let json: ProbeJson;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProbeJson;
  } catch {
    throw badVideo(path, 'ffprobe gave no usable answer');
  }
  return toProbe(json, path);
}

/**
 * Decodes the start of a local video into RGBA frames: at most `limits.maxDurationS` seconds, at
 * min(source fps, `opts.fps` (24)) further lowered so that at most `limits.maxFrames` frames come out,
 * each `1 / fps` seconds long, scaled to {@link fitFrameSize} of the displayed (rotated) size. ffmpeg
 * applies the rotation itself (autorotate). WebM VP8/VP9 with alpha is decoded with libvpx, as ffmpeg's
 * native decoders drop the alpha plane.
 *
 * ffmpeg's output is cut into frames as it streams, and ffmpeg is stopped once enough frames came.
 *
 * @throws UserError `bad_video` (not a video, undecodable, no frame), `video_timeout` (a run took longer than
 *   `tools.timeoutMs`); OperationalError `aborted` (`opts.signal`), `video_killed` (killed from outside,
 *   e.g. out of memory); a plain Error when a binary cannot be started.
 * @example
 * const seq = await decodeVideo(file, tools, DEFAULT_FRAME_LIMITS); // { width: 1024, height: 576, frames: [...48], alpha: 'opaque', probe }
 */
export async function decodeVideo(
  path: string,
  tools: VideoTools,
  limits: FrameLimits,
  opts: { fps?: number; signal?: AbortSignal; probe?: VideoProbe } = {},
): Promise<FrameSequence & { probe: VideoProbe }> {
  const probe = opts.probe ?? (await probeVideo(path, tools, opts.signal));
  const plan = planDecode(probe, limits, opts.fps ?? DEFAULT_FPS);
  const cutter = frameCutter(plan.width * plan.height * 4, plan.count, 1 / plan.fps);
  const exit = await runTool(
    {
      bin: tools.ffmpegPath,
      args: ffmpegArgs(path, probe, plan, limits),
      timeoutMs: tools.timeoutMs,
      signal: opts.signal,
      path,
      what: 'decoding',
    },
    (chunk, stop) => {
      if (cutter.push(chunk)) stop();
    },
  );
  checkExit(exit, path, 'decoding');
  if (cutter.frames.length === 0) throw badVideo(path, 'no frame could be decoded');
  // Trims the last frame when the frames run past maxDurationS (fps rounding).
  const frames = limitFrames(cutter.frames, plan.count, limits.maxDurationS);
  return { width: plan.width, height: plan.height, frames, alpha: classifyAlpha(frames), probe };
}

/** Builds the probe from ffprobe's JSON, rejecting files without a decodable-looking video stream. */
function toProbe(json: ProbeJson, path: string): VideoProbe {
  const s = json.streams?.[0];
  if (!s) throw badVideo(path, 'it has no video stream');
  const width = Number(s.width);
  const height = Number(s.height);
  if (!(width > 0 && height > 0)) throw badVideo(path, 'its video stream has no picture size');
  const rotation = streamRotation(s);
  const turned = rotation === 90 || rotation === 270;
  return {
    width,
    height,
    displayWidth: turned ? height : width,
    displayHeight: turned ? width : height,
    rotation,
    durationS: streamDuration(s, json.format?.duration),
    fps: parseRate(s.avg_frame_rate) || parseRate(s.r_frame_rate),
    codec: s.codec_name ?? 'unknown',
    hasAlpha: alphaModeTag(s) || /^(yuva|gbrap|ya\d|rgba|bgra|argb|abgr|rgb32|bgr32)/.test(s.pix_fmt ?? ''),
  };
}

/**
 * Clockwise display rotation, normalised to 0/90/180/270. The display matrix (what ffmpeg's autorotate
 * applies) gives the angle counter-clockwise, so a portrait phone clip reads -90; the legacy `rotate`
 * tag (ffprobe < 5) is already clockwise.
 */
function streamRotation(s: ProbeStream): number {
  const matrix = s.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && d.rotation !== undefined);
  const clockwise = matrix ? -Number(matrix.rotation) : Number(tag(s, 'rotate') ?? 0);
  if (!Number.isFinite(clockwise)) return 0;
  return (((Math.round(clockwise / 90) * 90) % 360) + 360) % 360;
}

/** Seconds from the stream, else the container, else Matroska's DURATION tag; 0 when none says. */
function streamDuration(s: ProbeStream, formatDuration: string | undefined): number {
  for (const raw of [s.duration, formatDuration]) {
    const d = Number(raw);
    if (raw !== undefined && Number.isFinite(d) && d > 0) return d;
  }
  const m = /^(\d+):(\d+):(\d+(?:\.\d+)?)$/.exec(tag(s, 'duration') ?? '');
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
}

/** `30000/1001` -> 29.97; `0/0` or garbage -> 0. */
function parseRate(rate: string | undefined): number {
  const [num, den = '1'] = (rate ?? '').split('/');
  const r = Number(num) / Number(den);
  return Number.isFinite(r) && r > 0 ? r : 0;
}

/** WebM marks VP8/VP9 streams with an alpha side channel with `alpha_mode=1`. */
function alphaModeTag(s: ProbeStream): boolean {
  return tag(s, 'alpha_mode') === '1';
}

/** Stream tag, case-insensitively (Matroska tags are upper case, MP4 ones lower case). */
function tag(s: ProbeStream, name: string): string | undefined {
  const key = Object.keys(s.tags ?? {}).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : s.tags?.[key];
}

interface DecodePlan {
  fps: number;
  /** Frames kept at most. */
  count: number;
  width: number;
  height: number;
}

/** Output rate, frame count and size: the source rate capped by the wanted one and by maxFrames over the span kept. */
function planDecode(probe: VideoProbe, limits: FrameLimits, wantFps: number): DecodePlan {
  // Unknown duration: plan for the longest loop allowed, and take whatever comes.
  const span = probe.durationS > 0 ? Math.min(probe.durationS, limits.maxDurationS) : limits.maxDurationS;
  const rate = probe.fps > 0 ? Math.min(probe.fps, wantFps) : wantFps;
  const fps = Math.min(rate, limits.maxFrames / span);
  const count = Math.max(1, Math.min(limits.maxFrames, Math.ceil(span * fps - 1e-6)));
  return { fps, count, ...fitFrameSize(probe.displayWidth, probe.displayHeight, count, limits) };
}

function ffmpegArgs(path: string, probe: VideoProbe, plan: DecodePlan, limits: FrameLimits): string[] {
  const args = ['-hide_banner', '-nostdin', '-v', 'error', '-protocol_whitelist', 'file', '-format_whitelist', CONTAINERS];
  // ffmpeg's native vp8/vp9 decoders ignore the alpha side channel; libvpx decodes it.
  const decoder = alphaDecoder(probe);
  if (decoder) args.push('-c:v', decoder);
  args.push('-i', `file:${path}`, '-map', '0:V:0', '-t', String(limits.maxDurationS), '-an', '-sn', '-dn');
  args.push('-vf', `fps=${plan.fps},scale=${plan.width}:${plan.height}`, '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1');
  return args;
}

function alphaDecoder(probe: VideoProbe): string | undefined {
  if (!probe.hasAlpha) return undefined;
  if (probe.codec === 'vp9') return 'libvpx-vp9';
  if (probe.codec === 'vp8') return 'libvpx';
  return undefined;
}

/** Cuts a byte stream into frames of `frameBytes`, keeping the first `keep`; push() says when that many came. */
function frameCutter(frameBytes: number, keep: number, duration: number): { frames: RawFrame[]; push(chunk: Buffer): boolean } {
  const frames: RawFrame[] = [];
  let current: Buffer | undefined;
  let filled = 0;
  const push = (chunk: Buffer): boolean => {
    let at = 0;
    while (at < chunk.length && frames.length < keep) {
      current ??= Buffer.allocUnsafe(frameBytes);
      const n = Math.min(frameBytes - filled, chunk.length - at);
      chunk.copy(current, filled, at, at + n);
      filled += n;
      at += n;
      if (filled === frameBytes) {
        frames.push({ rgba: current, duration });
        current = undefined;
        filled = 0;
      }
    }
    return frames.length >= keep;
  };
  return { frames, push };
}

interface ToolRun {
  bin: string;
  args: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** The input file, kept out of messages beyond its basename. */
  path: string;
  what: 'reading' | 'decoding';
}

interface ToolExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** Stopped by us through stop(): enough output came. */
  stopped: boolean;
}

/**
 * Runs a binary, handing stdout chunks to `onStdout` and keeping the end of stderr. Timeout and abort kill
 * it (SIGKILL: a decoder stuck in a bad file may not honour SIGTERM) and reject; `stop` kills it and
 * resolves, for when the caller has all it needs.
 */
function runTool(run: ToolRun, onStdout: (chunk: Buffer, stop: () => void) => void): Promise<ToolExit> {
  return new Promise((resolve, reject) => {
    if (run.signal?.aborted) return reject(interrupted());
    const child = spawn(run.bin, run.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = Buffer.alloc(0);
    let stopped = false;
    let failure: Error | undefined;
    let settled = false;
    const kill = (why?: Error) => {
      failure ??= why;
      child.kill('SIGKILL');
    };
    const stop = () => {
      stopped = true;
      kill();
    };
    const timer = setTimeout(
      () => kill(new UserError('video_timeout', `video: ${run.what} ${basename(run.path)} took longer than ${run.timeoutMs} ms`)),
      run.timeoutMs,
    );
    const onAbort = () => kill(interrupted());
    run.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = (exit?: ToolExit) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (failure || !exit) reject(failure);
      else resolve(exit);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (!stopped && !failure) onStdout(chunk, stop);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]).subarray(-STDERR_TAIL_BYTES);
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      // Only spawning fails this way: the binary is missing or not executable, which is a setup bug.
      if (child.pid !== undefined) return;
      failure ??= new Error(`video: cannot start ${basename(run.bin)} (${e.code ?? e.message})`, { cause: e });
      settle();
    });
    child.on('close', (code, signal) => settle({ code, signal, stderr: sanitize(stderr.toString('utf8'), run.path), stopped }));
  });
}

/** Maps a finished run's exit status to an error, if it failed. */
function checkExit(exit: ToolExit, path: string, what: ToolRun['what']): void {
  if (exit.stopped || exit.code === 0) return;
  // SIGKILL that we did not send: the OOM killer or an operator, not the file's fault; worth a retry.
  if (exit.signal === 'SIGKILL') throw new OperationalError('video_killed', `video: ${what} ${basename(path)} was killed from outside`);
  const reason = exit.signal ? `the decoder crashed (${exit.signal})` : exit.stderr.trim() || `exit code ${exit.code}`;
  throw badVideo(path, what === 'reading' ? `not a readable video: ${reason}` : `decoding failed: ${reason}`);
}

function badVideo(path: string, reason: string): UserError {
  return new UserError('bad_video', `video: ${basename(path)}: ${reason}`);
}

function interrupted(): OperationalError {
  return new OperationalError('aborted', 'video: interrupted');
}

/**
 * Makes tool output fit for a message: the input's server-side location reduced to its basename, ffmpeg's
 * `[demuxer @ 0x55...]` prefixes (memory addresses) dropped, lines joined.
 */
function sanitize(text: string, path: string): string {
  const dir = dirname(path);
  let out = text.split(path).join(basename(path));
  if (dir !== '.' && dir !== '/') out = out.split(`${dir}/`).join('');
  return out
    .replace(/\[[^\]\n]* @ 0x[0-9a-f]+\] */g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('; ');
}
