import type { StageLogger } from './stage';
import type { StoragePort } from './storage';

/** How a sequence uses transparency: none, 1-bit (alpha MASK) or soft (alpha BLEND). */
export type AlphaMode = 'opaque' | 'mask' | 'blend';

/** One decoded frame. */
export interface RawFrame {
  /** RGBA pixels, width x height x 4. */
  rgba: Buffer;
  /** Seconds. */
  duration: number;
}

/** Frames, all the same size, RGBA, each with its display time: what the flipbook writers are built from. */
export interface FrameSequence {
  width: number;
  height: number;
  frames: RawFrame[];
  alpha: AlphaMode;
}

/** A motion model as clients see it (GET /api/v2/animated-ar/options). */
export interface MotionModelInfo {
  /** The `video_model` value, with the provider prefix by convention, e.g. `runway:gen4_turbo`. */
  id: string;
  display_name: string;
  /** Provider id (the part before ':'). */
  provider: string;
  description?: string;
}

/** What a motion model is asked to animate. */
export interface MotionRequest {
  jobId: string;
  /** The `video_model` id chosen (one of the provider's `models()`). */
  model: string;
  /** The still picture, as displayed (EXIF rotation applied). `encoded` is PNG (alpha) or JPEG. */
  image: { rgba: Buffer; width: number; height: number; encoded: Buffer; mime: 'image/png' | 'image/jpeg' };
  /** motion_style preset id after fallback to the default. */
  style: string;
  /** The preset's description blended with custom_motion: the text prompt for generative models. */
  prompt: string;
  customMotion?: string;
  /** Loop wanted, seconds (<= 10), and the output frame size / rate the flipbook will use. */
  durationS: number;
  fps: number;
  width: number;
  height: number;
}

/**
 * Opaque, JSON-serialisable handle of a started operation. It is stored in the job's checkpoints before
 * polling starts, so a restarted worker resumes the same operation instead of starting (and paying
 * for) a second one.
 */
export type MotionHandle = { [key: string]: unknown };

/**
 * The result of a motion model: frames in memory (local models; keep `width`/`height` = the request's)
 * or a video put into `ctx.storage` (decoded like a video source: ffmpeg, at MOTION_FPS, at most 10 s).
 */
export type MotionOutput = { kind: 'frames'; sequence: FrameSequence } | { kind: 'video'; storageKey: string };

export type MotionPoll =
  | { state: 'running'; progress?: number; /** when to ask again (default 2 s) */ retryAfterMs?: number }
  | { state: 'succeeded'; output: MotionOutput }
  | { state: 'failed'; code: string; message: string; /** worth another attempt of the job */ retryable?: boolean };

export interface MotionContext {
  /** Aborted on shutdown, cancel or timeout: stop work and reject. */
  signal: AbortSignal;
  log: StageLogger;
  storage: StoragePort;
  /** 0..1 progress of the operation. */
  progress(fraction: number): void;
}

/**
 * A motion model plugin: turns one still picture into a short looping clip. Registered under the token
 * `motion.provider` (multi-registration) by a plugin's `register`.
 *
 * The motion stage calls `start` once, saves the handle, then calls `poll` until the operation
 * succeeds or fails (after a worker restart it polls the saved handle again, from another process), and
 * `cancel` when the operation outlives MOTION_TIMEOUT_S. Local models may do their work inside `poll`.
 *
 * @example
 * ```ts
 * const acme: MotionProvider = {
 *   id: 'acme',
 *   acceptsTransparency: false,
 *   models: () => [{ id: 'acme:v1', display_name: 'Acme Motion v1', provider: 'acme' }],
 *   async start(req) { return { operation: await acme.create(req.image.encoded, req.prompt) }; },
 *   async poll(h, req, ctx) { ... return { state: 'succeeded', output: { kind: 'video', storageKey } }; },
 *   async cancel(h) { await acme.cancel(h.operation); },
 * };
 * container.register(TOKENS.motionProvider, { useValue: acme });
 * ```
 */
export interface MotionProvider {
  /** Provider id, e.g. `procedural`, `replicate`: lower case, digits and `-`. */
  readonly id: string;
  /**
   * True when the model keeps an alpha channel through the motion: background removal then runs once
   * on the still instead of on every output frame.
   */
  readonly acceptsTransparency: boolean;
  /** Enabled models of this provider. */
  models(): readonly MotionModelInfo[];
  start(req: MotionRequest, ctx: MotionContext): Promise<MotionHandle>;
  poll(handle: MotionHandle, req: MotionRequest, ctx: MotionContext): Promise<MotionPoll>;
  cancel(handle: MotionHandle, ctx: MotionContext): Promise<void>;
}
