import Bull from 'bull';
import {
  backlogEntries,
  type ConsumeOptions,
  type EnqueueOptions,
  GROUP_DEFER_MS,
  type JobQueuePort,
  normalisePriority,
  type QueueCounts,
  type QueueHandler,
  type QueueOptions,
  QueueUnavailableError,
} from './job-queue.port';
import { GroupLimit } from './group-limit';

export interface BullQueueOptions extends QueueOptions {
  redisUrl: string;
  name: string;
  /** How long a worker's lock on a job lasts; a crashed worker's job is retaken after about this long. */
  lockMs: number;
  /** How long an enqueue may wait for Redis before it gives up (default 2000 ms). */
  enqueueTimeoutMs?: number;
}

const LOST = new Set(['reconnecting', 'close', 'end']);

/** What a Bull job carries: our job id, its group, and the attempts spent before it was last put back. */
interface BullJobData {
  jobId: string;
  group?: string;
  attemptsBefore?: number;
}

/** The result of a job this consumer put back because its group was at its limit (see `consume`). */
const DEFERRED = '__deferred_group_limit__';

const withTimeout = <T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, no) => (timer = setTimeout(() => no(onTimeout()), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
};

/**
 * Bull (Redis) adapter for scaled mode. The Bull job id is our job id, so enqueueing twice is a no-op
 * while the job is still in Redis. Bull is at-least-once: handlers must tolerate a replay.
 *
 * Redis outages: ioredis would hold commands in its offline queue for as long as Redis is away, so
 * `enqueue` refuses at once when the connection was lost and gives up after `enqueueTimeoutMs`
 * when Redis hangs. The job is already in the database; the sweep enqueues it when Redis is back
 * (at once on reconnect, and every `sweepMs`).
 */
export class BullQueueAdapter implements JobQueuePort {
  readonly driver = 'bull' as const;
  private readonly queue: Bull.Queue<BullJobData>;
  private readonly controllers = new Set<AbortController>();
  private readonly active = new Set<Promise<void>>();
  private sweepTimer?: NodeJS.Timeout;
  private sweeping = false;
  private consuming = false;
  private wasDown = false;

  constructor(private readonly opts: BullQueueOptions) {
    this.queue = new Bull(opts.name, opts.redisUrl, {
      settings: {
        lockDuration: opts.lockMs,
        lockRenewTime: Math.floor(opts.lockMs / 2),
        // A dead worker's lock lapses after at most lockMs; checking every quarter of it means its jobs
        // are retaken within 1.25 x lockMs (docs/scaled-mode.md), not up to twice it.
        stalledInterval: Math.max(250, Math.floor(opts.lockMs / 4)),
        maxStalledCount: 3,
      },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    // Connection errors surface through ping()/readiness; without a listener they would crash the process.
    this.queue.on('error', () => undefined);
    this.queue.client.on('close', () => (this.wasDown = true));
    this.queue.client.on('ready', () => {
      if (!this.wasDown) return;
      this.wasDown = false;
      // Jobs stored while Redis was away are only in the database: enqueue them now, not at the next sweep.
      void this.sweep();
    });
  }

  async enqueue(jobId: string, opts: EnqueueOptions = {}): Promise<void> {
    // A connection still being opened at start is waited for (up to the timeout); one that was lost
    // is refused at once.
    if (LOST.has(this.queue.client.status)) {
      throw new QueueUnavailableError(`Redis is not connected (${this.queue.client.status}); the job is picked up when it is back`);
    }
    const added = this.queue.add(
      { jobId, ...(opts.group !== undefined ? { group: opts.group } : {}) },
      {
        jobId,
        attempts: opts.maxAttempts ?? this.opts.maxAttempts,
        backoff: { type: 'exponential', delay: this.opts.backoffMs },
        priority: normalisePriority(opts.priority),
      },
    );
    // When the timeout wins, the add may still land later: harmless, the job id makes it a no-op twice.
    added.catch(() => undefined);
    await withTimeout(
      added,
      this.opts.enqueueTimeoutMs ?? 2000,
      () => new QueueUnavailableError('Redis did not answer in time; the job is picked up when it does'),
    );
  }

  /**
   * Bull hands out jobs in priority order and cannot skip one, so a job whose group already holds
   * `groupLimit` of this consumer's slots is completed at once with a marker and added again with a short
   * delay (same id, priority and remaining attempts): its slot goes back to the queue for other groups'
   * jobs. Should the process die between the two, the job is still `queued` in the database and the
   * sweep adds it again.
   */
  async consume(handler: QueueHandler, opts: ConsumeOptions): Promise<void> {
    this.consuming = true;
    const groups = new GroupLimit(opts.groupLimit);
    this.queue.on('completed', (job: Bull.Job<BullJobData>, result: unknown) => {
      if (result === DEFERRED) void this.putBack(job);
    });
    void this.queue.process(Math.max(1, opts.concurrency), (job) => {
      const { group, attemptsBefore = 0 } = job.data;
      if (groups.reached(group)) return Promise.resolve(DEFERRED);
      groups.enter(group);
      const ctrl = new AbortController();
      this.controllers.add(ctrl);
      const run = handler({
        jobId: job.data.jobId,
        attempt: attemptsBefore + job.attemptsMade + 1,
        maxAttempts: attemptsBefore + (job.opts.attempts ?? this.opts.maxAttempts),
        signal: ctrl.signal,
      }).finally(() => {
        groups.leave(group);
        this.controllers.delete(ctrl);
        this.active.delete(tracked);
      });
      const tracked = run.then(
        () => undefined,
        () => undefined,
      );
      this.active.add(tracked);
      return run;
    });
    await this.queue.isReady();
    await this.sweep();
    if (this.opts.backlog && this.opts.sweepMs) {
      this.sweepTimer = setInterval(() => void this.sweep(), this.opts.sweepMs);
      this.sweepTimer.unref();
    }
  }

  /** Adds a deferred job again (it was completed and removed, so its id is free) after a short delay. */
  private async putBack(job: Bull.Job<BullJobData>): Promise<void> {
    if (!this.consuming) return;
    const attempts = job.opts.attempts ?? this.opts.maxAttempts;
    try {
      await this.queue.add(
        { ...job.data, attemptsBefore: (job.data.attemptsBefore ?? 0) + job.attemptsMade },
        {
          jobId: job.data.jobId,
          attempts: Math.max(1, attempts - job.attemptsMade),
          backoff: { type: 'exponential', delay: this.opts.backoffMs },
          priority: job.opts.priority,
          delay: GROUP_DEFER_MS,
        },
      );
    } catch {
      // Redis away: the job is `queued` in the database and the sweep adds it again.
    }
  }

  private async sweep(): Promise<void> {
    if (!this.opts.backlog || !this.consuming || this.sweeping) return;
    this.sweeping = true;
    try {
      for (const e of backlogEntries(await this.opts.backlog())) await this.enqueue(e.jobId, { priority: e.priority, group: e.group });
    } catch {
      // Database or Redis away: the next sweep (or the reconnect) tries again.
    } finally {
      this.sweeping = false;
    }
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.consuming = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    // Stop taking jobs. With Redis away pause() cannot finish (or rejects): running handlers are
    // tracked here, so the grace period works without Redis.
    this.queue.pause(true, true).catch(() => undefined);
    const idle = () => Promise.all([...this.active]).then(() => 'idle' as const);
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([idle(), new Promise<'timeout'>((ok) => (timer = setTimeout(() => ok('timeout'), graceMs)))]);
    clearTimeout(timer);
    if (r === 'timeout') {
      for (const c of this.controllers) c.abort();
      await Promise.race([idle(), new Promise((ok) => setTimeout(ok, 5000).unref())]);
    }
  }

  async ping(): Promise<void> {
    await withTimeout(this.queue.client.ping(), 2000, () => new QueueUnavailableError('Redis did not answer PING in time'));
  }

  async close(): Promise<void> {
    this.consuming = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    // close(true): running handlers were already awaited by stop(). Bull's waiting close() forces a
    // reconnect whose rejection is unhandled while Redis is away, and that crashed the process.
    await withTimeout(this.queue.close(true), 5000, () => new QueueUnavailableError('close timed out')).catch(() => undefined);
  }

  /** Counts by Bull state; gives up after 2 s so a scrape never hangs on a Redis that does not answer. */
  async counts(): Promise<QueueCounts> {
    const c = await withTimeout(this.queue.getJobCounts(), 2000, () => new QueueUnavailableError('Redis did not answer in time'));
    return { waiting: c.waiting, active: c.active, delayed: c.delayed, failed: c.failed };
  }

  /** Removes every job of this queue (tests). */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
  }
}
