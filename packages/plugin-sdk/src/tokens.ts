/**
 * The string tokens a plugin resolves or registers services by (stable API). The service's own
 * constants are typed against these, so they cannot drift.
 */
export const TOKENS = {
  /** The frozen, validated configuration (`AppConfig`). Resolve. */
  config: 'app.config',
  /** The storage backend in use (`StoragePort`). Resolve. */
  storage: 'app.storage',
  /** The callback sender. Resolve. */
  callbacks: 'app.callbacks',
  /** Register a `MotionProvider` (multi-registration). */
  motionProvider: 'motion.provider',
  /** Register a `PipelineDefinition` (multi-registration). */
  pipelineDefinition: 'pipeline.definition',
  /** Register a job listener, told when jobs complete or fail (multi-registration). */
  jobListener: 'pipeline.job-listener',
  /** Register a {@link ShutdownHook}, run once when the application closes, after its workers drained (multi-registration). */
  shutdownHooks: 'app.shutdown-hooks',
} as const;

/** Frees what a plugin started (worker processes, sessions); called once at application shutdown. */
export type ShutdownHook = () => Promise<void>;

/** The token of a stage provider: `pipeline.stage:<id>` (register to replace or add a pipeline stage). */
export type StageToken = `pipeline.stage:${string}`;

/** The token of a stage provider (`pipeline.stage:<id>`). */
export function stageToken(id: string): StageToken {
  return `pipeline.stage:${id}`;
}
