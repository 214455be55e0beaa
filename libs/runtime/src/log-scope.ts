import { AsyncLocalStorage } from 'node:async_hooks';

/** What a log line is about: the request being served, or the job (and its stage) being run. */
export interface LogScope {
  requestId?: string;
  jobId?: string;
  kind?: string;
  stage?: string;
}

const storage = new AsyncLocalStorage<LogScope>();

/**
 * The scope of the code running now. Every logger of the process (pino, Nest's Logger, stage loggers)
 * adds it to its lines, so ids need not be threaded through every call.
 */
export function currentLogScope(): LogScope | undefined {
  return storage.getStore();
}

/** Runs `fn` (and everything it starts) inside the current scope plus `fields`. */
export function runInLogScope<T>(fields: LogScope, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, fn);
}

/** The request id in scope (a job's carries the one of the request that made it). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
