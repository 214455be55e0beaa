import {
  backlogEntries,
  backoffDelay,
  type ConsumeOptions,
  type EnqueueOptions,
  type JobQueuePort,
  normalisePriority,
  type QueueCounts,
  type QueueHandler,
  type QueueOptions,
} from './job-queue.port';
import { GroupLimit } from './group-limit';

interface Entry {
  jobId: string;
  attempt: number;
  maxAttempts: number;
  priority: number;
  group?: string;
}

/**
 * Queue inside the process (embedded mode). Durability comes from the backlog source (the database):
 * after a restart, unfinished jobs are read back and processed.
 */
export class InProcessQueueAdapter implements JobQueuePort {
  readonly driver = 'in-process' as const;
  private readonly waiting: Entry[] = [];
  private readonly known = new Set<string>();
  private readonly running = new Map<string, AbortController>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler?: QueueHandler;
  private concurrency = 1;
  private groups = new GroupLimit(undefined);
  private accepting = false;
  private sweepTimer?: NodeJS.Timeout;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly opts: QueueOptions) {}

  async enqueue(jobId: string, opts: EnqueueOptions = {}): Promise<void> {
    this.add({
      jobId,
      attempt: 1,
      maxAttempts: opts.maxAttempts ?? this.opts.maxAttempts,
      priority: normalisePriority(opts.priority),
      group: opts.group,
    });
  }

  private add(entry: Entry): void {
    if (this.known.has(entry.jobId)) return;
    this.known.add(entry.jobId);
    this.waiting.push(entry);
    this.pump();
  }

  async consume(handler: QueueHandler, opts: ConsumeOptions): Promise<void> {
    this.handler = handler;
    this.concurrency = Math.max(1, opts.concurrency);
    this.groups = new GroupLimit(opts.groupLimit);
    this.accepting = true;
    await this.sweep();
    if (this.opts.backlog && this.opts.sweepMs) {
      this.sweepTimer = setInterval(() => void this.sweep(), this.opts.sweepMs);
      this.sweepTimer.unref();
    }
    this.pump();
  }

  private async sweep(): Promise<void> {
    if (!this.opts.backlog || !this.accepting) return;
    try {
      for (const e of backlogEntries(await this.opts.backlog())) {
        this.add({
          jobId: e.jobId,
          attempt: 1,
          maxAttempts: this.opts.maxAttempts,
          priority: normalisePriority(e.priority),
          group: e.group,
        });
      }
    } catch {
      // The next sweep tries again; readiness reports the database state.
    }
  }

  private pump(): void {
    while (this.accepting && this.handler && this.running.size < this.concurrency) {
      const next = this.takeNext();
      if (!next) return;
      this.start(next);
    }
  }

  /**
   * The waiting entry with the lowest priority number, the oldest among equals (like Bull), skipping
   * groups that already hold `groupLimit` running jobs.
   */
  private takeNext(): Entry | undefined {
    let best = -1;
    for (let i = 0; i < this.waiting.length; i++) {
      const e = this.waiting[i];
      if (best >= 0 && e.priority >= this.waiting[best].priority) continue;
      if (this.groups.reached(e.group)) continue;
      best = i;
    }
    return best < 0 ? undefined : this.waiting.splice(best, 1)[0];
  }

  private start(entry: Entry): void {
    const ctrl = new AbortController();
    this.running.set(entry.jobId, ctrl);
    this.groups.enter(entry.group);
    const handler = this.handler as QueueHandler;
    void Promise.resolve()
      .then(() => handler({ jobId: entry.jobId, attempt: entry.attempt, maxAttempts: entry.maxAttempts, signal: ctrl.signal }))
      .then(
        () => this.known.delete(entry.jobId),
        () => {
          if (entry.attempt < entry.maxAttempts && this.accepting) {
            const t = setTimeout(
              () => {
                this.timers.delete(t);
                this.known.delete(entry.jobId);
                this.add({ ...entry, attempt: entry.attempt + 1 });
              },
              backoffDelay(this.opts.backoffMs, entry.attempt),
            );
            this.timers.add(t);
          } else {
            this.known.delete(entry.jobId);
          }
        },
      )
      .finally(() => {
        this.running.delete(entry.jobId);
        this.groups.leave(entry.group);
        if (this.running.size === 0) this.idleWaiters.splice(0).forEach((w) => w());
        this.pump();
      });
  }

  async stop(graceMs = 30_000): Promise<void> {
    this.accepting = false;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    // Delayed retries are dropped here; their jobs are `queued` in the database and come back on restart.
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    if (this.running.size === 0) return;
    const idle = new Promise<void>((ok) => this.idleWaiters.push(ok));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((ok) => (timer = setTimeout(() => ok('timeout'), graceMs)));
    const r = await Promise.race([idle, timeout]);
    clearTimeout(timer);
    if (r === 'timeout') {
      for (const c of this.running.values()) c.abort();
      await Promise.race([idle, new Promise((ok) => setTimeout(ok, 5000).unref())]);
    }
  }

  async ping(): Promise<void> {
    return;
  }

  async counts(): Promise<QueueCounts> {
    // Nothing is kept once out of attempts: the job's failure lives in the database.
    return { waiting: this.waiting.length, active: this.running.size, delayed: this.timers.size, failed: 0 };
  }

  async close(): Promise<void> {
    await this.stop(0);
  }
}
