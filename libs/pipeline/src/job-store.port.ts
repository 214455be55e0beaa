import type { JobErrorInfo } from './errors';
import type { JobStatus } from './job-state';

/** The job as the runner needs it. */
export interface RunnableJob {
  id: string;
  kind: string;
  pipeline: string;
  status: JobStatus;
  ownerId: string | null;
  input: Record<string, unknown>;
  attempts: number;
  /** Stage checkpoints saved by earlier attempts (see {@link StageCheckpoints}). */
  checkpoints?: Record<string, unknown>;
  /** A client asked to cancel it (the runner fails it with `cancelled` instead of running it). */
  cancelRequested?: boolean;
  /** Id of the API request that created it, so the worker's log lines can be matched to that request. */
  requestId?: string;
}

/**
 * Per stage id: its position in the pipeline (jsonb keeps no key order, and stages can start in the same
 * millisecond), when it started (ISO 8601) and, once it finished, its duration in ms.
 */
export type StageTimings = Record<string, { step: number; started_at: string; duration_ms?: number }>;

export interface JobPatch {
  status?: JobStatus;
  progress?: number;
  stageProgress?: Record<string, number>;
  stageTimings?: StageTimings;
  result?: Record<string, unknown> | null;
  error?: JobErrorInfo | null;
  attempts?: number;
  startedAt?: Date;
  finishedAt?: Date;
}

/** Persistence the runner needs. Implemented by the persistence lib; faked in unit tests. */
export interface JobStorePort {
  findRunnable(id: string): Promise<RunnableJob | null>;
  /**
   * Applies the patch unless the job is already final. Returns false when the job was final
   * (a replay lost the race), true otherwise.
   */
  update(id: string, patch: JobPatch): Promise<boolean>;
  /** Stores one checkpoint of a running job (null removes it). */
  saveCheckpoint(id: string, key: string, value: unknown): Promise<void>;
  /**
   * Whether a client asked to cancel the job; read by the runner every `cancelPollMs` while the job runs.
   * A store without it cannot cancel running jobs.
   */
  isCancelRequested?(id: string): Promise<boolean>;
}

/** Notified after a job reaches a final state. Must tolerate being called twice for one job. */
export interface JobListener {
  onCompleted?(job: RunnableJob, result: Record<string, unknown>): Promise<void>;
  onFailed?(job: RunnableJob, error: JobErrorInfo): Promise<void>;
}
