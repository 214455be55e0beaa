import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import type { AppConfig } from '@app/config';
import { jobEnded, type MetricsPort, OperationalError, UserError, type StageContext, type StageProvider } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { BackgroundRemoverPort } from '../background-removal';
import { decodeVideo } from '../frames/decode-video';
import { classifyAlpha, fitFrameSize, type FrameSequence } from '../frames/frame-sequence';
import type {
  MotionCatalog,
  MotionContext,
  MotionHandle,
  MotionOutput,
  MotionProvider,
  MotionRequest,
} from '../motion/motion-provider.port';
import { blendMotionPrompt, resolveMotionStyle } from '../motion/procedural/motion-presets';
import { inputOf } from '../job-inputs/job-input-fields';
import type { AnimatedArJobInput } from '../job-inputs/animated-ar-job-input';
import { frameLimits, type SourceFrames, type StillPicture, videoTools, withTempFile } from './frames.stage';

export interface MotionStageOutput {
  /** True when no motion model ran (the source brought its own frames). */
  skipped: boolean;
  sequence: FrameSequence;
  model?: string;
  style?: string;
  /** The still was cut out before the motion (a provider that keeps transparency). */
  backgroundRemoved: boolean;
}

/** Checkpoint kept while a motion operation runs (survives worker restarts). */
interface MotionCheckpoint {
  model: string;
  handle: MotionHandle;
  startedAt: number;
}

export interface MotionStageDeps {
  config: AppConfig;
  storage: StoragePort;
  catalog: () => MotionCatalog;
  remover: () => BackgroundRemoverPort;
  /** Counts requests to the provider (`motion_provider_requests_total`). */
  metrics?: MetricsPort;
}

/**
 * Counts one start or poll the stage asks of a provider: `ok` (started, running or done), `failed` (the
 * provider reports the operation failed), or, when the call throws, the error's code or kind (e.g.
 * `motion_provider_busy`, `motion_provider_auth`, `rate_limited`); `error` when it has none. Codes are
 * fixed strings, so the label stays low-cardinality.
 */
export async function countedProviderCall<T>(
  deps: Pick<MotionStageDeps, 'metrics'>,
  provider: Pick<MotionProvider, 'id'>,
  call: () => Promise<T>,
  outcome: (r: T) => string = () => 'ok',
): Promise<T> {
  try {
    const r = await call();
    deps.metrics?.motionProviderRequest(provider.id, outcome(r));
    return r;
  } catch (err) {
    const e = err as { code?: unknown; kind?: unknown };
    const label = [e.code, e.kind].find((v): v is string => typeof v === 'string' && /^[a-z][a-z0-9_]{0,47}$/.test(v));
    deps.metrics?.motionProviderRequest(provider.id, label ?? 'error');
    throw err;
  }
}

const DEFAULT_POLL_MS = 2000;

/**
 * Animates a still picture with the chosen motion model (video_model, else the default), or passes an
 * animated source's own frames through. The operation handle is checkpointed before polling, so a
 * restarted worker resumes the same operation. Its time limit is the motion timeout plus the ordinary
 * stage limit, so the runner never cuts a model still within MOTION_TIMEOUT_S.
 */
export function createMotionStage(deps: MotionStageDeps): StageProvider<MotionStageOutput> {
  return {
    id: 'motion',
    // On top of the model's own wait: its start, the still's cut-out, and downloading and decoding its video.
    timeoutMs: deps.config.animated.motionTimeoutMs + deps.config.worker.stageTimeoutMs,
    async run(ctx) {
      const src = ctx.outputs.frames as SourceFrames;
      if (src.kind !== 'image' || !src.still) {
        if (!src.sequence) throw new Error('motion: the frames stage gave neither a still nor frames');
        return { skipped: true, sequence: src.sequence, backgroundRemoved: false };
      }
      const input = inputOf<AnimatedArJobInput>(ctx.job);
      const catalog = deps.catalog();
      const model = input.video_model ?? catalog.defaultModel;
      if (!catalog.has(model))
        throw new UserError('invalid_video_model', `motion: video_model "${model}" is not enabled (enabled: ${catalog.ids().join(', ')})`);
      const provider = catalog.providerFor(model);
      let still = src.still;
      let backgroundRemoved = false;
      if (input.remove_background && provider.acceptsTransparency) {
        // One inference on the still instead of one per output frame.
        still = { ...still, rgba: await deps.remover().cutOut(still.rgba, still.width, still.height) };
        backgroundRemoved = true;
      }
      const req = await motionRequest(ctx, deps.config, model, still, input.motion_style, input.custom_motion);
      const output = await runOperation(ctx, deps, provider, req);
      const sequence = await toSequence(output, deps, ctx.signal);
      return { skipped: false, sequence, model, style: req.style, backgroundRemoved };
    },
  };
}

async function motionRequest(
  ctx: StageContext,
  config: AppConfig,
  model: string,
  still: StillPicture,
  style: string | undefined,
  custom: string | undefined,
): Promise<MotionRequest> {
  const preset = resolveMotionStyle(style);
  const a = config.animated;
  const frames = Math.round(a.motionLoopS * a.motionFps);
  const size = fitFrameSize(still.width, still.height, frames, frameLimits(config));
  const alpha = classifyAlpha([still]) !== 'opaque';
  const img = sharp(still.rgba, { raw: { width: still.width, height: still.height, channels: 4 } });
  const encoded = alpha ? await img.png().toBuffer() : await img.removeAlpha().jpeg({ quality: 92 }).toBuffer();
  return {
    jobId: ctx.job.id,
    model,
    image: { ...still, encoded, mime: alpha ? 'image/png' : 'image/jpeg' },
    style: preset.id,
    prompt: blendMotionPrompt(preset, custom),
    customMotion: custom,
    durationS: a.motionLoopS,
    fps: a.motionFps,
    width: size.width,
    height: size.height,
  };
}

async function runOperation(ctx: StageContext, deps: MotionStageDeps, provider: MotionProvider, req: MotionRequest): Promise<MotionOutput> {
  const mctx: MotionContext = { signal: ctx.signal, log: ctx.log, storage: deps.storage, progress: (f) => ctx.progress(0.05 + 0.85 * f) };
  let cp = ctx.checkpoints.get<MotionCheckpoint>('motion');
  if (cp && cp.model !== req.model) cp = undefined;
  if (!cp) {
    const handle = await countedProviderCall(deps, provider, () => provider.start(req, mctx));
    cp = { model: req.model, handle, startedAt: Date.now() };
    await ctx.checkpoints.set('motion', cp);
  } else {
    ctx.log.info('motion: resuming a started operation', { jobId: ctx.job.id, model: req.model });
  }
  try {
    return await pollOperation(ctx, deps, provider, req, mctx, cp);
  } catch (err) {
    // The job has ended (cancelled by its owner, or past its time limit): stop the paid operation now
    // instead of leaving it for a next attempt to resume. On its own signal (already aborted) it could not.
    if (jobEnded(ctx.signal)) {
      await provider
        .cancel(cp.handle, { ...mctx, signal: AbortSignal.timeout(10_000) })
        .catch((e: Error) => ctx.log.warn('motion: cancel failed', { jobId: ctx.job.id, error: e.message }));
      await ctx.checkpoints.set('motion', null).catch(() => undefined);
    }
    throw err;
  }
}

async function pollOperation(
  ctx: StageContext,
  deps: MotionStageDeps,
  provider: MotionProvider,
  req: MotionRequest,
  mctx: MotionContext,
  cp: MotionCheckpoint,
): Promise<MotionOutput> {
  for (;;) {
    if (ctx.signal.aborted) throw new OperationalError('aborted', 'motion: interrupted; the operation is resumed by the next attempt');
    const poll = await countedProviderCall(
      deps,
      provider,
      () => provider.poll(cp.handle, req, mctx),
      (p) => (p.state === 'failed' ? 'failed' : 'ok'),
    );
    if (poll.state === 'succeeded') return poll.output;
    if (poll.state === 'failed') {
      await ctx.checkpoints.set('motion', null);
      const message = `motion: ${req.model} failed: ${poll.message}`;
      throw poll.retryable ? new OperationalError(poll.code, message) : new UserError(poll.code, message);
    }
    if (Date.now() - cp.startedAt > deps.config.animated.motionTimeoutMs) {
      await provider.cancel(cp.handle, mctx).catch(() => undefined);
      await ctx.checkpoints.set('motion', null);
      throw new UserError(
        'motion_timeout',
        `motion: ${req.model} did not finish within ${Math.round(deps.config.animated.motionTimeoutMs / 1000)} s`,
      );
    }
    if (poll.progress !== undefined) mctx.progress(poll.progress);
    // Waiting for a hosted model holds no CPU slot (a local model does its work inside poll, with one).
    await ctx.io(() => sleep(poll.retryAfterMs ?? DEFAULT_POLL_MS, undefined, { signal: ctx.signal }).catch(() => undefined));
  }
}

/** Frames of the motion output; a video is read back from storage and decoded like a video source. */
async function toSequence(output: MotionOutput, deps: MotionStageDeps, signal: AbortSignal): Promise<FrameSequence> {
  if (output.kind === 'frames') return output.sequence;
  return withTempFile(
    async (path) => pipeline(await deps.storage.read(output.storageKey), createWriteStream(path)),
    (path) => decodeVideo(path, videoTools(deps.config), frameLimits(deps.config), { fps: deps.config.animated.motionFps, signal }),
  );
}
