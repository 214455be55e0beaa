import Bull from 'bull';
import { type EnqueueOptions, type JobQueuePort, type QueueHandler, type QueueOptions } from './job-queue.port';

export interface BullQueueOptions extends QueueOptions {
  redisUrl: string;
  name: string;
  /** How long a worker's lock on a job lasts; a crashed worker's job is retaken after about this long. */
  lockMs: number;
}

/**
 * Bull (Redis) adapter for scaled mode. The Bull job id is our job id, so enqueueing twice is a no-op
 * while the job is still in Redis. Bull is at-least-once: handlers must tolerate a replay.
 */
export class BullQueueAdapter implements JobQueuePort {
  readonly driver = 'bull' as const;
  private readonly queue: Bull.Queue<{ jobId: string }>;
  private readonly controllers = new Set<AbortController>();
  private sweepTimer?: NodeJS.Timeout;
  private consuming = false;

  constructor(private readonly opts: BullQueueOptions) {
    this.queue = new Bull(opts.name, opts.redisUrl, {
      settings: {
        lockDuration: opts.lockMs,
        lockRenewTime: Math.floor(opts.lockMs / 2),
        stalledInterval: opts.lockMs,
        maxStalledCount: 3,
      },
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    // Connection errors surface through ping()/readiness; without a listener they would crash the process.
    this.queue.on('error', () => undefined);
  }

  async enqueue(jobId: string, opts: EnqueueOptions = {}): Promise<void> {
    await this.queue.add(
      { jobId },
      { jobId, attempts: opts.maxAttempts ?? this.opts.maxAttempts, backoff: { type: 'exponential', delay: this.opts.backoffMs } },
    );
  }

  async consume(handler: QueueHandler, opts: { concurrency: number }): Promise<void> {
    this.consuming = true;
    void this.queue.process(Math.max(1, opts.concurrency), async (job) => {
      const ctrl = new AbortController();
      this.controllers.add(ctrl);
      try {
        await handler({
          jobId: job.data.jobId,
          attempt: job.attemptsMade + 1,
          maxAttempts: job.opts.attempts ?? this.opts.maxAttempts,
          signal: ctrl.signal,
        });
      } finally {
        this.controllers.delete(ctrl);
      }
    });
    await this.queue.isReady();
    await this.sweep();
    if (this.opts.backlog && this.opts.sweepMs) {
      this.sweepTimer = setInterval(() => void this.sweep(), this.opts.sweepMs);
      this.sweepTimer.unref();
    }
  }

  private async sweep(): Promise<void> {
    if (!this.opts.backlog || !this.consuming) return;
    try {
      for (const id of await this.opts.backlog()) await this.enqueue(id);
    } catch {
      // Next sweep.
    }
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.consuming = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    // pause(true) stops this worker taking new jobs and waits for the active ones.
    const paused = this.queue.pause(true, false).then(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const r = await Promise.race([paused, new Promise<'timeout'>((ok) => (timer = setTimeout(() => ok('timeout'), graceMs)))]);
    clearTimeout(timer);
    if (r === 'timeout') {
      for (const c of this.controllers) c.abort();
      await Promise.race([paused, new Promise((ok) => setTimeout(ok, 5000).unref())]);
    }
  }

  async ping(): Promise<void> {
    await this.queue.client.ping();
  }

  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.queue.close();
  }

  /** For tests and operators: counts by Bull state. */
  counts(): Promise<Bull.JobCounts> {
    return this.queue.getJobCounts();
  }

  /** Removes every job of this queue (tests). */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
  }
}
