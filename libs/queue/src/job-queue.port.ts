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

/** A job to (re)process, with its place in the fair order (see {@link EnqueueOptions.priority}). */
export interface BacklogEntry {
  jobId: string;
  priority?: number;
  /** Whose job it is (see {@link EnqueueOptions.group}). */
  group?: string;
}

/** Returns jobs that must be (re)processed: unfinished jobs in the database. */
export type BacklogSource = () => Promise<Array<string | BacklogEntry>>;

/** Highest priority number Bull accepts (2^21); larger numbers are clamped to it. */
export const MAX_PRIORITY = 2_097_152;

export interface EnqueueOptions {
  /** Overrides the queue's maxAttempts for this job (e.g. callbacks get more tries). */
  maxAttempts?: number;
  /**
   * Lower runs first; equal priorities run in the order they were enqueued (default 1).
   * Fair share between accounts: callers pass the job's position among its owner's unfinished jobs,
   * so every account's 1st job runs before any account's 2nd, and so on (see docs/architecture.md).
   */
  priority?: number;
  /**
   * Whose job it is (the owning account). A consumer runs at most `groupLimit` jobs of one group at once
   * (see {@link ConsumeOptions}); jobs without a group are not limited.
   */
  group?: string;
}

export interface ConsumeOptions {
  /** Jobs this consumer runs at once (its in-flight slots). */
  concurrency: number;
  /**
   * At most this many of those slots may hold jobs of one group (account) at once, so one account's
   * stuck or slow jobs always leave slots for the others. A job over the limit waits (in-process) or is
   * put back for a moment (Bull) while the queue goes on with other groups' jobs. Default: no limit.
   */
  groupLimit?: number;
}

/** How long Bull puts back a job whose group is at its limit before it is taken again (ms). */
export const GROUP_DEFER_MS = 500;

/** The queue backend cannot take the job now (e.g. Redis is down). The job stays in the database. */
export class QueueUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(`queue: ${message}`, options);
    this.name = 'QueueUnavailableError';
  }
}

/** Clamps a priority into the range both adapters accept. */
export function normalisePriority(p: number | undefined): number {
  if (p === undefined || !Number.isFinite(p)) return 1;
  return Math.min(MAX_PRIORITY, Math.max(1, Math.floor(p)));
}

/** Backlog entries as `{jobId, priority, group}`. */
export function backlogEntries(list: Array<string | BacklogEntry>): BacklogEntry[] {
  return list.map((e) => (typeof e === 'string' ? { jobId: e } : e));
}

export interface QueueOptions {
  maxAttempts: number;
  /** First retry delay; doubles each attempt. */
  backoffMs: number;
  /** Consulted when consuming starts and every `sweepMs`, so a crash or a lost enqueue loses no job. */
  backlog?: BacklogSource;
  sweepMs?: number;
}

/** Messages by state, as the metrics' `queue_jobs` gauge reports them. */
export interface QueueCounts {
  waiting: number;
  active: number;
  /** Waiting for a retry's backoff to pass. */
  delayed: number;
  /** Out of attempts and still kept by the backend (0 where it keeps none). */
  failed: number;
}

/**
 * The one queue contract, with an in-process adapter (embedded mode) and a Bull adapter (scaled mode).
 * Both pass the same contract suite (queue.contract.spec.ts).
 */
export interface JobQueuePort {
  readonly driver: 'in-process' | 'bull';
  /**
   * Adds a job; a no-op when that job id is already waiting, delayed or running. Rejects with
   * {@link QueueUnavailableError} within a few seconds when the backend is down, never waits for it.
   */
  enqueue(jobId: string, opts?: EnqueueOptions): Promise<void>;
  /** Starts consuming with at most `concurrency` handlers at once, `groupLimit` of them per group. */
  consume(handler: QueueHandler, opts: ConsumeOptions): Promise<void>;
  /**
   * Stops taking jobs and waits for running handlers to finish, up to `graceMs`;
   * then aborts their signals.
   */
  stop(graceMs?: number): Promise<void>;
  /** Throws when the queue backend is unreachable. */
  ping(): Promise<void>;
  /** Releases connections. */
  close(): Promise<void>;
  /**
   * Messages by state, read on each metrics scrape. The in-process queue counts its own; Bull's are the
   * whole queue's (every process sees the same numbers).
   */
  counts(): Promise<QueueCounts>;
}

/** Delay before attempt `attempt + 1`. */
export function backoffDelay(baseMs: number, failedAttempt: number): number {
  return baseMs * 2 ** (failedAttempt - 1);
}
