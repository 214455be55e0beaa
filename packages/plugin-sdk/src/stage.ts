/** v2 job states, in order. */
export type JobStatus = 'queued' | 'downloading' | 'converting' | 'uploading' | 'completed' | 'failed';

/** The phase a running stage puts the job in. */
export type StagePhase = 'downloading' | 'converting' | 'uploading';

/**
 * What a stage mostly spends its time on, and so which of a worker's slots it holds while it runs:
 * `cpu` (decoding, encoding, building: about one slot a core) or `io` (downloads, uploads, waiting for a
 * hosted model: many slots, so a source that never answers holds no CPU). Default: `cpu` for the
 * `converting` phase, `io` for `downloading` and `uploading`.
 */
export type StageResource = 'cpu' | 'io';

/** The job as a stage sees it: read-only. */
export interface StageJob {
  readonly id: string;
  readonly kind: string;
  readonly ownerId: string | null;
  readonly input: Readonly<Record<string, unknown>>;
  /** 1 for the first try, 2 for the first retry... */
  readonly attempt: number;
}

/** Structured logger handed to stages and motion models. */
export interface StageLogger {
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  error(msg: string, meta?: Record<string, unknown>): void;
}

/**
 * Small JSON state a stage keeps across retries and worker restarts, e.g. the operation handle of a
 * hosted model, so a restarted worker resumes polling instead of paying for a second generation.
 */
export interface StageCheckpoints {
  get<T = unknown>(key: string): T | undefined;
  /** Persisted before it resolves. null removes the key. */
  set(key: string, value: unknown): Promise<void>;
}

/** What the runner hands a stage. */
export interface StageContext<TOptions = Record<string, unknown>> {
  readonly job: StageJob;
  /** Outputs of the stages that already ran, keyed by step id. Never mutate. */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Per-step options from the pipeline definition. */
  readonly options: Readonly<TOptions>;
  /** Reports progress inside the stage, 0..1. */
  progress(fraction: number): void;
  /**
   * Aborted when the worker shuts down, the job is cancelled, or the stage runs past its time limit
   * (then the job has already failed with `stage_timeout`). Long CPU work should check it between chunks.
   */
  readonly signal: AbortSignal;
  readonly log: StageLogger;
  /** The state the job is in while this stage runs. */
  readonly status: JobStatus;
  readonly checkpoints: StageCheckpoints;
  /**
   * Runs `work` (network waiting: a hosted model's poll, a large upload) without holding a CPU slot,
   * and takes the stage's slot back before it returns, so other jobs use the CPU meanwhile. For a stage
   * that holds an I/O slot it simply runs `work`.
   *
   * @example
   * ```ts
   * const status = await ctx.io(() => provider.poll(handle));
   * ```
   */
  io<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * A stage provider: one verb of a pipeline (fetch, normalise, write-glb...). Registered under
 * `stageToken(id)`.
 *
 * Stages return their output and do not mutate shared state, so a replayed job is safe.
 *
 * @example
 * ```ts
 * const upper: StageProvider = {
 *   id: 'upper',
 *   async run(ctx) { return { text: String(ctx.job.input.text).toUpperCase() }; },
 * };
 * ```
 */
export interface StageProvider<TOutput = unknown, TOptions = Record<string, unknown>> {
  /** Unique id the pipeline definitions refer to. */
  readonly id: string;
  /**
   * Wall-clock limit of one run, ms, for a stage that legitimately runs longer than the runner's default
   * (e.g. waiting for a hosted model). A step's own `timeoutMs` wins over it.
   */
  readonly timeoutMs?: number;
  /** Which slot the stage holds while it runs, when its phase says otherwise (see {@link StageResource}). */
  readonly resource?: StageResource;
  run(ctx: StageContext<TOptions>): Promise<TOutput>;
}

/** One step of a pipeline: which stage runs, in which phase, with which options. */
export interface PipelineStep {
  /** Step id under which the output is kept; defaults to the stage id. */
  readonly id?: string;
  /** Stage provider id. */
  readonly stage: string;
  /** v2 state the job is in while the step runs. */
  readonly phase: StagePhase;
  /** Relative share of the progress bar; default 1. */
  readonly weight?: number;
  /** Wall-clock limit of the step, ms; default the stage provider's `timeoutMs`, else the runner's. */
  readonly timeoutMs?: number;
  /** Which slot the step holds; default the stage provider's `resource`, else by phase. */
  readonly resource?: StageResource;
  readonly options?: Readonly<Record<string, unknown>>;
}

/**
 * A pipeline as data, registered under `pipeline.definition` (route job kinds to it with CONFIG_FILE
 * `pipelines`). The job's result is the output of the step named by `resultFrom` (default: the last step).
 *
 * @example
 * ```ts
 * const still: PipelineDefinition = {
 *   id: 'still-image',
 *   steps: [
 *     { stage: 'fetch', phase: 'downloading' },
 *     { stage: 'normalise', phase: 'converting' },
 *     { stage: 'publish', phase: 'uploading' },
 *   ],
 * };
 * ```
 */
export interface PipelineDefinition {
  readonly id: string;
  readonly description?: string;
  readonly steps: readonly PipelineStep[];
  readonly resultFrom?: string;
}
