import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { AppConfig } from '@app/config';
import { UserError, type StageProvider } from '@app/pipeline';
import type { AnimatedSource } from './animated-source.stage';
import { decodeAnimatedImage, isAnimatedImage } from '../frames/decode-animated-image';
import { decodeVideo, probeVideo, type VideoTools } from '../frames/decode-video';
import { fitFrameSize, type FrameLimits, type FrameSequence } from '../frames/frame-sequence';
import { removeJobTempDir } from './job-temp';

/** What the source turned out to be, told by its bytes. */
export type SourceKind = 'image' | 'animated-image' | 'video';

/** A still picture, RGBA, as displayed. */
export interface StillPicture {
  rgba: Buffer;
  width: number;
  height: number;
}

export interface SourceFrames {
  kind: SourceKind;
  /** Displayed size of the source (after rotation; one frame of an animation): the card's proportions. */
  sourceWidth: number;
  sourceHeight: number;
  /** Image sources: the picture the motion model animates. */
  still?: StillPicture;
  /** Animated images and videos: their own frames. */
  sequence?: FrameSequence;
}

/** ffmpeg / ffprobe as configured. */
export function videoTools(config: AppConfig): VideoTools {
  return { ffmpegPath: config.animated.ffmpegPath, ffprobePath: config.animated.ffprobePath, timeoutMs: config.animated.videoTimeoutMs };
}

/** Runs `use` on a private temp file that `fill` wrote (ffmpeg reads files, not buffers); always removed. */
export async function withTempFile<T>(fill: (path: string) => Promise<void>, use: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ar-video-'));
  try {
    const path = join(dir, 'video');
    await fill(path);
    return await use(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Frame limits of the configuration (DESIGN §5 budgets). */
export function frameLimits(config: AppConfig): FrameLimits {
  const a = config.animated;
  return { maxSide: a.maxFramePx, maxFrames: a.maxFrames, maxDurationS: 10, maxDecodedBytes: a.maxDecodedBytes };
}

/**
 * Tells the source kind by its bytes and decodes it: a video (ffprobe, then ffmpeg with the display
 * rotation), an animated GIF / APNG / WebP (its own frames and delays), or a still picture (kept for the
 * motion model at up to twice the output frame size, so camera moves stay sharp).
 */
export function createFramesStage(config: AppConfig): StageProvider<SourceFrames> {
  const limits = frameLimits(config);
  return {
    id: 'frames',
    async run(ctx) {
      const src = ctx.outputs['animated-source'] as AnimatedSource;
      if (src.bytes === undefined) {
        // A video streamed to the job's temp folder: this stage consumes it and removes it, whatever happens.
        try {
          return await decodeVideoFile(src.file, config, limits, ctx.signal, ctx.progress);
        } finally {
          await removeJobTempDir(ctx.job.id);
        }
      }
      if (src.type.kind === 'video')
        return withTempFile(
          (path) => writeFile(path, src.bytes),
          (path) => decodeVideoFile(path, config, limits, ctx.signal, ctx.progress),
        );
      if (await isAnimatedImage(src.bytes)) {
        const sequence = await decodeAnimatedImage(src.bytes, limits, {
          maxSourceFrames: config.animated.maxSourceFrames,
          maxSourcePixels: config.animated.maxSourcePixels,
          signal: ctx.signal,
        });
        ctx.progress(1);
        const first = await sharp(src.bytes, { animated: false, limitInputPixels: config.images.maxInputPixels }).metadata();
        const w = first.width ?? sequence.width;
        const h = first.pageHeight ?? first.height ?? sequence.height;
        return { kind: 'animated-image', sourceWidth: w, sourceHeight: h, sequence };
      }
      const still = await decodeStill(src.bytes, config, limits);
      ctx.progress(1);
      return { kind: 'image', ...still };
    },
  };
}

async function decodeVideoFile(
  path: string,
  config: AppConfig,
  limits: FrameLimits,
  signal: AbortSignal,
  progress: (f: number) => void,
): Promise<SourceFrames> {
  const tools = videoTools(config);
  const probe = await probeVideo(path, tools, signal);
  if (probe.durationS > config.animated.videoMaxDurationS) {
    throw new UserError(
      'video_too_long',
      `frames: the video lasts ${probe.durationS.toFixed(1)} s; at most ${config.animated.videoMaxDurationS} s are accepted (the first 10 s become the loop)`,
    );
  }
  progress(0.2);
  const sequence = await decodeVideo(path, tools, limits, { fps: config.animated.videoFps, signal, probe });
  progress(1);
  return { kind: 'video', sourceWidth: probe.displayWidth, sourceHeight: probe.displayHeight, sequence };
}

async function decodeStill(bytes: Buffer, config: AppConfig, limits: FrameLimits): Promise<Omit<SourceFrames, 'kind'>> {
  const opts = { limitInputPixels: config.images.maxInputPixels, failOn: 'truncated' as const };
  let img;
  try {
    img = await sharp(bytes, opts).rotate().ensureAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  } catch (e) {
    throw new UserError('invalid_image', `frames: the file is not a readable image (${(e as Error).message})`);
  }
  const { width, height } = img.info;
  const motionFrames = Math.round(config.animated.motionLoopS * config.animated.motionFps);
  const out = fitFrameSize(width, height, motionFrames, limits);
  // Twice the output frame size (capped by the source) leaves room for zooms without blur.
  const scale = Math.min(1, (2 * Math.max(out.width, out.height)) / Math.max(width, height));
  if (scale >= 1) return { sourceWidth: width, sourceHeight: height, still: { rgba: img.data, width, height } };
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const rgba = await sharp(img.data, { raw: { width, height, channels: 4 } })
    .resize(w, h, { fit: 'fill' })
    .raw()
    .toBuffer();
  return { sourceWidth: width, sourceHeight: height, still: { rgba, width: w, height: h } };
}
