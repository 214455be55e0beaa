/** What a consumer receives. The payload is only the job id: the database is the source of truth. */
export interface QueueMessage {
  jobId: string;
  /** 1-based. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the consumer is stopped and the grace period is over. */
  signal: AbortSignal;
}

/**
 * Handles one message. Resolving means done; throwing asks for another attempt after a backoff
 * (until `maxAttempts`), so a handler throws only for retryable failures.
 */
export type QueueHandler = (msg: QueueMessage) => Promise<void>;

/** Returns ids of jobs that must be (re)processed: unfinished jobs in the database. */
export type BacklogSource = () => Promise<string[]>;

export interface EnqueueOptions {
  /** Overrides the queue's maxAttempts for this job (e.g. callbacks get more tries). */
  maxAttempts?: number;
}

export interface QueueOptions {
  maxAttempts: number;
  /** First retry delay; doubles each attempt. */
  backoffMs: number;
  /** Consulted when consuming starts and every `sweepMs`, so a crash or a lost enqueue loses no job. */
  backlog?: BacklogSource;
  sweepMs?: number;
}

/**
 * The one queue contract, with an in-process adapter (embedded mode) and a Bull adapter (scaled mode).
 * Both pass the same contract suite (queue.contract.spec.ts).
 */
export interface JobQueuePort {
  readonly driver: 'in-process' | 'bull';
  /** Adds a job; a no-op when that job id is already waiting, delayed or running. */
  enqueue(jobId: string, opts?: EnqueueOptions): Promise<void>;
  /** Starts consuming with at most `concurrency` handlers at once. */
  consume(handler: QueueHandler, opts: { concurrency: number }): Promise<void>;
  /**
   * Stops taking jobs and waits for running handlers to finish, up to `graceMs`;
   * then aborts their signals.
   */
  stop(graceMs?: number): Promise<void>;
  /** Throws when the queue backend is unreachable. */
  ping(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
}

/** Delay before attempt `attempt + 1`. */
export function backoffDelay(baseMs: number, failedAttempt: number): number {
  return baseMs * 2 ** (failedAttempt - 1);
}
