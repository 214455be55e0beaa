import type { DependencyContainer } from 'tsyringe';
import type { StageLogger } from '@app/pipeline';
import type { StoragePort } from '@app/storage';
import type { FrameSequence } from '../frames/frame-sequence';

/** A motion model as clients see it (GET /api/v2/animated-ar/options). */
export interface MotionModelInfo {
  /** The `video_model` value, with the provider prefix for hosted models, e.g. `runway:gen4_turbo`. */
  id: string;
  display_name: string;
  /** Provider id (the part before ':' for hosted models). */
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

/** The result of a motion model: frames in memory (local models) or a video copied into our storage. */
export type MotionOutput = { kind: 'frames'; sequence: FrameSequence } | { kind: 'video'; storageKey: string };

export type MotionPoll =
  | { state: 'running'; progress?: number; /** when to ask again */ retryAfterMs?: number }
  | { state: 'succeeded'; output: MotionOutput }
  | { state: 'failed'; code: string; message: string; /** worth another attempt of the job */ retryable?: boolean };

export interface MotionContext {
  signal: AbortSignal;
  log: StageLogger;
  storage: StoragePort;
  /** 0..1 progress of the operation. */
  progress(fraction: number): void;
}

/**
 * A motion model plugin: turns one still picture into a short looping clip.
 *
 * The motion stage calls `start` once, saves the handle, then calls `poll` until the operation
 * succeeds or fails (after a worker restart it polls the saved handle again), and `cancel` when the
 * job is abandoned. Local models may do their work inside `poll`.
 *
 * @example A provider registered by a plugin:
 * ```ts
 * registerMotionProvider(container, {
 *   id: 'acme',
 *   acceptsTransparency: false,
 *   models: () => [{ id: 'acme:v1', display_name: 'Acme Motion v1', provider: 'acme' }],
 *   async start(req) { return { operation: await acme.create(req.encoded, req.prompt) }; },
 *   async poll(h, ctx) { ... return { state: 'succeeded', output: { kind: 'video', storageKey } }; },
 *   async cancel(h) { await acme.cancel(h.operation); },
 * });
 * ```
 */
export interface MotionProvider {
  /** Provider id, e.g. `procedural`, `replicate`. */
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

export const MOTION_PROVIDER = 'motion.provider';

/** Registers a motion provider (built-in or from a plugin). */
export function registerMotionProvider(container: DependencyContainer, provider: MotionProvider): void {
  container.register(MOTION_PROVIDER, { useValue: provider });
}

/**
 * The enabled motion models, by `video_model` id. Built from every registered provider; a model id
 * listed twice stops the boot.
 */
export class MotionCatalog {
  private readonly byModel = new Map<string, { provider: MotionProvider; info: MotionModelInfo }>();

  constructor(providers: readonly MotionProvider[], readonly defaultModel: string) {
    for (const provider of providers) {
      for (const info of provider.models()) {
        if (this.byModel.has(info.id)) throw new Error(`motion: model "${info.id}" is offered by two providers`);
        this.byModel.set(info.id, { provider, info });
      }
    }
    if (this.byModel.size > 0 && !this.byModel.has(defaultModel)) {
      throw new Error(`motion: the default video_model "${defaultModel}" is not enabled (enabled: ${this.ids().join(', ')})`);
    }
  }

  static fromContainer(container: DependencyContainer, defaultModel: string): MotionCatalog {
    const providers = container.isRegistered(MOTION_PROVIDER) ? container.resolveAll<MotionProvider>(MOTION_PROVIDER) : [];
    return new MotionCatalog(providers, defaultModel);
  }

  ids(): string[] {
    return [...this.byModel.keys()];
  }

  models(): MotionModelInfo[] {
    return [...this.byModel.values()].map((m) => m.info);
  }

  has(id: string): boolean {
    return this.byModel.has(id);
  }

  /** The provider of an enabled model; throws for an unknown id (the API checks first). */
  providerFor(id: string): MotionProvider {
    const m = this.byModel.get(id);
    if (!m) throw new Error(`motion: video_model "${id}" is not enabled`);
    return m.provider;
  }
}
