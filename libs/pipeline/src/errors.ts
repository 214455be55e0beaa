/**
 * Error taxonomy of the pipeline.
 *
 * - {@link UserError}: the input is at fault (not an image, too large, private address...). The job fails
 *   at once with the message; never retried. Maps to a 4xx when raised synchronously in the API.
 * - {@link OperationalError}: something outside us failed transiently (timeout, 5xx upstream, storage
 *   unavailable). The job is retried with backoff until its attempts run out.
 * - anything else is a bug: the job fails with a generic message and the error is logged in full.
 */
export abstract class PipelineError extends Error {
  abstract readonly kind: 'user' | 'operational';
  /** Machine-readable code, e.g. `fetch_too_large`. */
  readonly code: string;
  /** Name of the stage that raised it, filled in by the runner when absent. */
  stage?: string;
  /** Request parameter at fault, when there is one. */
  readonly param?: string;

  constructor(code: string, message: string, options?: { cause?: unknown; stage?: string; param?: string }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    this.stage = options?.stage;
    this.param = options?.param;
  }
}

/** The request or its source is at fault. Never retried. */
export class UserError extends PipelineError {
  readonly kind = 'user' as const;
}

/** A transient failure outside our control. Retried with backoff. */
export class OperationalError extends PipelineError {
  readonly kind = 'operational' as const;
}

/** Error code of a job cancelled at its owner's request (POST …/jobs/:id/cancel). */
export const JOB_CANCELLED = 'cancelled';

/** The job was cancelled by its owner: it fails with `cancelled`, never retried. */
export class JobCancelledError extends UserError {
  constructor(message = "the job was cancelled at the client's request") {
    super(JOB_CANCELLED, message);
  }
}

/**
 * True when a stage's signal was aborted because its job has ended (cancelled, or past its time limit)
 * rather than because the worker shuts down: work started elsewhere (a hosted model) should be cancelled
 * then, not left for the next attempt to resume.
 */
export function jobEnded(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof UserError;
}

export type ErrorClass = 'user' | 'operational' | 'bug';

/** Classifies any thrown value into the taxonomy. */
export function classifyError(err: unknown): ErrorClass {
  if (err instanceof PipelineError) return err.kind;
  return 'bug';
}

/** What is stored on a failed job and shown to clients. Never carries a stack or internals. */
export interface JobErrorInfo {
  code: string;
  message: string;
  stage?: string;
  retryable: boolean;
}

/** Builds the client-facing error of a failed job. Bugs get a generic message (details go to the log). */
export function toJobError(err: unknown, stage?: string): JobErrorInfo {
  if (err instanceof PipelineError) {
    const at = err.stage ?? stage;
    return {
      code: err.code,
      message: at && !err.message.startsWith(`${at}:`) ? `${at}: ${err.message}` : err.message,
      stage: at,
      retryable: err.kind === 'operational',
    };
  }
  return {
    code: 'internal_error',
    message: stage ? `${stage}: internal error while processing the job` : 'internal error while processing the job',
    stage,
    retryable: false,
  };
}
