import type { JobListener, JobPatch, JobStorePort, RunnableJob, StageTimings } from './job-store.port';
import { classifyError, JOB_CANCELLED, JobCancelledError, toJobError, UserError, type JobErrorInfo } from './errors';
import { isFinal, type JobStatus } from './job-state';
import { stepId, type PipelineDefinition } from './pipeline-definition';
import { NOOP_METRICS, type MetricsPort } from './metrics.port';
import type { PipelineRegistry } from './registry';
import { DEFAULT_PROGRESS_WRITE_INTERVAL_MS, ProgressWriter } from './progress-writer';
import type { StageLogger, StageResource } from './stage.port';
import type { ReleaseSlot, WorkSlotsPort } from './work-slots';

/** Thrown by the runner to ask the queue for another attempt later. */
export class RetryLaterError extends Error {
  constructor(
    readonly jobId: string,
    readonly reason: JobErrorInfo,
  ) {
    super(`job ${jobId}: retry later: ${reason.message}`);
    this.name = 'RetryLaterError';
  }
}

export interface RunAttempt {
  /** 1-based attempt number. */
  attempt: number;
  maxAttempts: number;
  signal?: AbortSignal;
}

export type RunOutcome = 'completed' | 'failed' | 'skipped' | 'missing';

/** Wall-clock limit of one stage run when neither the step nor its stage provider sets one (10 min). */
export const DEFAULT_STAGE_TIMEOUT_MS = 600_000;

/** How often the runner reads a running job's row for a cancel request (ms). */
export const DEFAULT_CANCEL_POLL_MS = 1000;

/** setTimeout fires at once for a longer delay (it takes a 32-bit int), so longer limits are cut to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RunnerDeps {
  registry: PipelineRegistry;
  store: JobStorePort;
  listeners?: readonly JobListener[];
  log: StageLogger;
  /**
   * Wall-clock limit of one stage run, ms, unless the step (`PipelineStep.timeoutMs`) or its provider
   * (`StageProvider.timeoutMs`) sets its own. Default {@link DEFAULT_STAGE_TIMEOUT_MS}.
   */
  stageTimeoutMs?: number;
  /**
   * How often a running job is checked for a cancel request ({@link JobStorePort.isCancelRequested}), ms.
   * Default {@link DEFAULT_CANCEL_POLL_MS}.
   */
  cancelPollMs?: number;
  /**
   * Shortest time between two progress/status writes of a running job, ms; changes in between are merged
   * ({@link ProgressWriter}). Default {@link DEFAULT_PROGRESS_WRITE_INTERVAL_MS}.
   */
  progressWriteIntervalMs?: number;
  /** Job outcomes and stage durations for operators. Default: none recorded. */
  metrics?: MetricsPort;
  /**
   * The worker's CPU and I/O slots ({@link WorkSlots}): each stage waits for one of its kind before it
   * runs and hands it back when it ends. Default: stages run without waiting.
   */
  slots?: WorkSlotsPort;
  /**
   * Runs a loaded job, and then each of its stages, inside the host's context, so whatever is logged meanwhile
   * (through any logger) carries the job, its stage and the request that made it. Default: runs it as is.
   */
  scope?: <T>(scope: RunScope, run: () => Promise<T>) => Promise<T>;
  /**
   * Reads a job's stored input once, before its first stage (the worker checks it against the schema of the
   * job's kind): what the stages and the listeners get as `job.input`, never parsed again. A throw fails the
   * job at once with that error (a UserError's message is the job's), never retried. Default: as stored.
   */
  parseInput?: (job: RunnableJob) => Record<string, unknown>;
}

/** What {@link RunnerDeps.scope} is told about the job (and stage) it wraps. */
export interface RunScope {
  jobId: string;
  kind: string;
  /** Step id; absent for the job as a whole (listeners, the final update). */
  stage?: string;
  /** Id of the API request that created the job, when the store keeps it. */
  requestId?: string;
}

/** Adds fixed fields to every line of a logger (the job and stage a stage logs about). */
function withMeta(log: StageLogger, fields: Record<string, unknown>): StageLogger {
  return {
    info: (m, meta) => log.info(m, { ...fields, ...meta }),
    warn: (m, meta) => log.warn(m, { ...fields, ...meta }),
    error: (m, meta) => log.error(m, { ...fields, ...meta }),
  };
}

/** The slot a step holds: its own `resource`, else its stage's, else `cpu` for converting and `io` otherwise. */
export function stepResource(step: PipelineDefinition['steps'][number], provider: { resource?: StageResource }): StageResource {
  return step.resource ?? provider.resource ?? (step.phase === 'converting' ? 'cpu' : 'io');
}

const NO_SLOT: ReleaseSlot = () => undefined;

/** Progress (0..100) of a pipeline given each step's own fraction (0..1). */
export function computeProgress(def: PipelineDefinition, fractions: Record<string, number>): number {
  let total = 0;
  let done = 0;
  for (const step of def.steps) {
    const w = step.weight ?? 1;
    total += w;
    done += w * Math.min(1, Math.max(0, fractions[stepId(step)] ?? 0));
  }
  return total === 0 ? 0 : Math.round((done / total) * 10000) / 100;
}

/**
 * Runs one stage under its wall-clock limit. When the limit passes, the stage's signal is aborted and the
 * step fails with the non-retried `stage_timeout` at once, without waiting for the stage to notice:
 * synchronous CPU work (sharp, ONNX) cannot be interrupted, and a retry would burn the same time again.
 */
async function runWithTimeout<T>(
  sid: string,
  timeoutMs: number,
  parent: AbortSignal,
  cancel: AbortSignal,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A cancelled job ends at once too, for the same reason: the stage gets the signal and stops on its own.
  let onCancel: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    onCancel = () => reject(cancel.reason);
    cancel.addEventListener('abort', onCancel, { once: true });
  });
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        const err = new UserError('stage_timeout', `${sid}: took longer than ${Number((timeoutMs / 1000).toFixed(3))} s`, { stage: sid });
        deadline.abort(err);
        reject(err);
      },
      Math.min(timeoutMs, MAX_TIMER_MS),
    );
  });
  try {
    if (cancel.aborted) throw cancel.reason;
    const work = run(AbortSignal.any([parent, cancel, deadline.signal]));
    // A stage still running past its limit may fail later; the job has failed already, so that is moot.
    work.catch(() => undefined);
    cancelled.catch(() => undefined);
    return await Promise.race([work, expired, cancelled]);
  } finally {
    clearTimeout(timer);
    if (onCancel) cancel.removeEventListener('abort', onCancel);
  }
}

/**
 * Moves one job through its pipeline: queued -> downloading -> converting -> uploading -> completed,
 * or failed. Records progress per step. A user error or a bug fails the job; an operational error
 * puts it back to `queued` and throws {@link RetryLaterError} until the attempts run out. A stage running
 * past its time limit fails the job with `stage_timeout` (not retried). A job whose owner asked to cancel it
 * (seen at start, and every `cancelPollMs` while it runs, or told by {@link PipelineRunner.cancel}) fails
 * with `cancelled` at once; its stage's signal is aborted with a {@link JobCancelledError}.
 */
export class PipelineRunner {
  /** Cancel switches of the jobs this runner is running now. */
  private readonly running = new Map<string, AbortController>();

  private readonly metrics: MetricsPort;

  /** Start order of the jobs this runner ran: the earlier job gets a freed slot first among equals. */
  private started = 0;

  constructor(private readonly deps: RunnerDeps) {
    this.metrics = deps.metrics ?? NOOP_METRICS;
  }

  /**
   * Cancels a job this runner is running now (in-process, without waiting for the next poll).
   * Returns false when it runs none by that id. The caller must have marked the job cancel-requested.
   */
  cancel(jobId: string): boolean {
    const c = this.running.get(jobId);
    if (!c) return false;
    if (!c.signal.aborted) c.abort(new JobCancelledError());
    return true;
  }

  async run(jobId: string, attempt: RunAttempt): Promise<RunOutcome> {
    const { store, log } = this.deps;
    const job = await store.findRunnable(jobId);
    if (!job) {
      log.warn('runner: job not found, dropping message', { jobId });
      return 'missing';
    }
    if (isFinal(job.status)) return 'skipped';
    const scope = { jobId: job.id, kind: job.kind, ...(job.requestId ? { requestId: job.requestId } : {}) };
    return this.deps.scope ? this.deps.scope(scope, () => this.runJob(job, attempt)) : this.runJob(job, attempt);
  }

  private async runJob(job: RunnableJob, attempt: RunAttempt): Promise<RunOutcome> {
    const { store, registry, log } = this.deps;
    const jobId = job.id;
    if (job.cancelRequested) return this.fail({ ...job, attempts: attempt.attempt }, new JobCancelledError(), undefined);

    let def: PipelineDefinition;
    try {
      def = registry.pipeline(job.pipeline);
      if (this.deps.parseInput) job = { ...job, input: this.deps.parseInput(job) };
    } catch (err) {
      return this.fail(job, err, undefined);
    }
    const fractions: Record<string, number> = {};
    const timings: StageTimings = {};
    // What the job row shows of the stages so far: written with progress, and with the final state.
    const stagesSoFar = () => ({ stageProgress: { ...fractions }, stageTimings: { ...timings } });
    const outputs: Record<string, unknown> = {};
    const signal = attempt.signal ?? new AbortController().signal;
    let status: JobStatus = def.steps[0].phase;
    let lastSaved = -1;
    const writer = new ProgressWriter(store, job.id, this.deps.progressWriteIntervalMs ?? DEFAULT_PROGRESS_WRITE_INTERVAL_MS);

    const cancel = new AbortController();
    const stopWatching = this.watchCancel(job.id, cancel);
    const order = ++this.started;
    const slots = this.deps.slots;
    const slotSignal = AbortSignal.any([signal, cancel.signal]);
    const group = job.ownerId ?? '';
    const acquire = (kind: StageResource): Promise<ReleaseSlot> =>
      slots ? slots.acquire({ kind, group, order, signal: slotSignal }) : Promise.resolve(NO_SLOT);
    const resources = def.steps.map((step) => stepResource(step, registry.stage(step.stage)));
    let carried = false;
    // The job stays `queued` until its first stage has a slot: a job waiting for the CPU is not running.
    let release: ReleaseSlot = NO_SLOT;
    try {
      release = await acquire(resources[0]);
    } catch (err) {
      stopWatching();
      if (cancel.signal.aborted) return this.fail({ ...job, attempts: attempt.attempt }, cancel.signal.reason, undefined);
      throw new RetryLaterError(job.id, toJobError(err));
    }
    const started = await store.update(job.id, {
      status,
      progress: 0,
      stageProgress: {},
      stageTimings: {},
      attempts: attempt.attempt,
      startedAt: new Date(),
      error: null,
    });
    // Final since it was read (cancelled while queued): nothing to run.
    if (!started) {
      release();
      stopWatching();
      return 'skipped';
    }
    writer.wrote();
    const runningJob = { ...job, attempts: attempt.attempt };
    const saved: Record<string, unknown> = { ...(job.checkpoints ?? {}) };
    const checkpoints = {
      get: <T>(key: string) => saved[key] as T | undefined,
      set: async (key: string, value: unknown) => {
        await store.saveCheckpoint(job.id, key, value);
        if (value === null) delete saved[key];
        else saved[key] = value;
      },
    };

    let current: string | undefined;
    try {
      for (const [index, step] of def.steps.entries()) {
        const sid = stepId(step);
        current = sid;
        if (cancel.signal.aborted) throw cancel.signal.reason;
        if (step.phase !== status) {
          status = step.phase;
          writer.set({ status });
        }
        const provider = registry.stage(step.stage);
        const report = (fraction: number): void => {
          fractions[sid] = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
          const progress = computeProgress(def, fractions);
          // Only whole-percent changes, and the writer merges those closer together than its interval.
          if (Math.floor(progress) > lastSaved) {
            lastSaved = Math.floor(progress);
            writer.set({ progress, stageProgress: { ...fractions } });
          }
        };
        const timeoutMs = step.timeoutMs ?? provider.timeoutMs ?? this.deps.stageTimeoutMs ?? DEFAULT_STAGE_TIMEOUT_MS;
        const resource = resources[index];
        // Waiting for a slot is not the stage's time: its limit and timing start once it has one.
        // A slot carried over from the previous stage (same kind, nobody else waiting) is kept.
        if (index > 0 && !carried) release = await acquire(resource);
        carried = false;
        let stepEnded = false;
        const io = async <T>(work: () => Promise<T>): Promise<T> => {
          if (resource !== 'cpu' || !slots || stepEnded) return work();
          release();
          try {
            return await work();
          } finally {
            const again = await acquire('cpu');
            // A stage that outlived its step (time limit, cancel) must not keep the slot it took back.
            if (stepEnded) again();
            else release = again;
          }
        };
        const scope: RunScope = { jobId: job.id, kind: job.kind, stage: sid, ...(job.requestId ? { requestId: job.requestId } : {}) };
        const stageLog = withMeta(log, { jobId: job.id, stage: sid });
        const stageStarted = performance.now();
        timings[sid] = { step: index, started_at: new Date().toISOString() };
        writer.set({ stageTimings: { ...timings } });
        const runStage = () =>
          runWithTimeout(sid, timeoutMs, signal, cancel.signal, (stageSignal) =>
            provider.run({
              job: { id: job.id, kind: job.kind, ownerId: job.ownerId, input: job.input, attempt: attempt.attempt },
              outputs: Object.freeze({ ...outputs }),
              options: step.options ?? {},
              progress: report,
              signal: stageSignal,
              log: stageLog,
              status,
              checkpoints,
              io,
            }),
          );
        let output: unknown;
        try {
          output = await (this.deps.scope ? this.deps.scope(scope, runStage) : runStage());
          // The next stage needs the same kind of slot and no other account waits for one: keep it, so a
          // started job finishes before the jobs behind it take its slot at every stage boundary.
          carried = resources[index + 1] === resource && !!slots?.othersWaiting && !slots.othersWaiting(resource, group);
        } finally {
          stepEnded = true;
          if (!carried) {
            release();
            release = NO_SLOT;
          }
        }
        // Successful runs only: a failed stage's time says more about the failure than about the stage.
        const stageMs = performance.now() - stageStarted;
        this.metrics.stageFinished(sid, stageMs / 1000);
        timings[sid] = { ...timings[sid], duration_ms: Math.round(stageMs * 10) / 10 };
        outputs[sid] = output;
        fractions[sid] = 1;
        const progress = computeProgress(def, fractions);
        lastSaved = Math.floor(progress);
        // The last stage's progress is the completion write's.
        if (index < def.steps.length - 1) writer.set({ progress, ...stagesSoFar() });
      }
      current = undefined;
      // Nothing of the running job may be written after its final state.
      await writer.settle();
      const resultStep = def.resultFrom ?? stepId(def.steps[def.steps.length - 1]);
      const raw = outputs[resultStep];
      const result = (raw && typeof raw === 'object' ? raw : { value: raw }) as Record<string, unknown>;
      const applied = await store.update(job.id, {
        status: 'completed',
        progress: 100,
        ...stagesSoFar(),
        result,
        error: null,
        finishedAt: new Date(),
      });
      if (applied) {
        this.metrics.jobFinished(job.kind, 'completed');
        await this.notify((l) => l.onCompleted?.(runningJob, result));
      }
      return 'completed';
    } catch (err) {
      await writer.settle();
      // Cancelled: whatever the stage threw on its way out (often an `aborted` error), the job is cancelled.
      if (cancel.signal.aborted) return this.fail(runningJob, cancel.signal.reason, undefined, stagesSoFar());
      const cls = classifyError(err);
      if (cls === 'operational' && attempt.attempt < attempt.maxAttempts && !signal.aborted) {
        const reason = toJobError(err, current);
        log.warn('runner: operational error, will retry', { jobId, attempt: attempt.attempt, reason: reason.message });
        await store.update(job.id, { status: 'queued', error: reason });
        throw new RetryLaterError(job.id, reason);
      }
      if (cls !== 'user' && signal.aborted) {
        // Shutting down: leave the job for the next worker instead of failing it, whatever the stage threw on its
        // way out (many rethrow the signal's reason, an AbortError, not an OperationalError).
        await store.update(job.id, { status: 'queued' });
        throw new RetryLaterError(job.id, toJobError(err, current));
      }
      return this.fail(runningJob, err, current, stagesSoFar());
    } finally {
      release();
      stopWatching();
    }
  }

  /** Registers the job's cancel switch and polls the store for a cancel request until the returned stop. */
  private watchCancel(jobId: string, cancel: AbortController): () => void {
    this.running.set(jobId, cancel);
    const { store } = this.deps;
    let timer: ReturnType<typeof setInterval> | undefined;
    if (store.isCancelRequested) {
      let busy = false;
      timer = setInterval(() => {
        if (busy || cancel.signal.aborted) return;
        busy = true;
        store.isCancelRequested!(jobId)
          .then((yes) => {
            if (yes && !cancel.signal.aborted) cancel.abort(new JobCancelledError());
          })
          // An unreachable database is handled by the stages' own store calls; the next tick tries again.
          .catch(() => undefined)
          .finally(() => {
            busy = false;
          });
      }, this.deps.cancelPollMs ?? DEFAULT_CANCEL_POLL_MS);
      timer.unref?.();
    }
    return () => {
      clearInterval(timer);
      if (this.running.get(jobId) === cancel) this.running.delete(jobId);
    };
  }

  /** `also`: the running job's last progress, which its coalesced writes may not have saved yet. */
  private async fail(job: RunnableJob, err: unknown, stage: string | undefined, also: JobPatch = {}): Promise<RunOutcome> {
    const error = toJobError(err, stage);
    if (classifyError(err) === 'bug') {
      this.deps.log.error('runner: job failed with an unexpected error', {
        jobId: job.id,
        stage,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
    }
    const applied = await this.deps.store.update(job.id, { ...also, status: 'failed', error, finishedAt: new Date() });
    if (applied) {
      this.metrics.jobFinished(job.kind, error.code === JOB_CANCELLED ? 'cancelled' : 'failed');
      await this.notify((l) => l.onFailed?.(job, error));
    }
    return 'failed';
  }

  private notify(call: (l: JobListener) => Promise<void> | undefined): Promise<void> {
    return notifyListeners(this.deps.listeners ?? [], call, (err) =>
      this.deps.log.error('runner: job listener failed', { error: err.message }),
    );
  }
}

/**
 * Calls each job listener in turn (refunds before callbacks: registration order). A failing listener is
 * reported to `onError` and does not stop the others: their own sweeps catch up on what it missed.
 */
export async function notifyListeners(
  listeners: readonly JobListener[],
  call: (l: JobListener) => Promise<void> | undefined,
  onError: (err: Error) => void,
): Promise<void> {
  for (const listener of listeners) {
    try {
      await call(listener);
    } catch (err) {
      onError(err as Error);
    }
  }
}
