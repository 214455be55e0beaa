import type { JobPatch, JobStorePort } from './job-store.port';

/** Default shortest time between two progress writes of one job (ms). */
export const DEFAULT_PROGRESS_WRITE_INTERVAL_MS = 250;

/**
 * Coalesces a running job's progress and status writes. A change is written at once when the last
 * write is at least `intervalMs` old; otherwise it is merged with whatever comes next and written when
 * the interval has passed. A quick job (a still picture: six stages in about 150 ms) then makes two or
 * three writes instead of one per stage and phase, while a client polling a long job still sees its
 * progress move at least every `intervalMs`. Writes go out one at a time, in order.
 *
 * @example
 * const writer = new ProgressWriter(store, job.id, 250);
 * writer.set({ progress: 12.5 });
 * await writer.settle(); // before the job's final write: nothing may land after it
 */
export class ProgressWriter {
  private pending: JobPatch | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastWriteAt = -Infinity;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Pick<JobStorePort, 'update'>,
    private readonly jobId: string,
    private readonly intervalMs = DEFAULT_PROGRESS_WRITE_INTERVAL_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Notes that a write was made by someone else just now (the job's first write, say). */
  wrote(): void {
    this.lastWriteAt = this.now();
  }

  /** Merges `patch` into the next write; writes now when the last one is old enough. */
  set(patch: JobPatch): void {
    this.pending = { ...this.pending, ...patch };
    const wait = this.lastWriteAt + this.intervalMs - this.now();
    if (wait <= 0) {
      this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), wait);
      // A job that ends meanwhile settles the writer; the timer alone must not keep a process up.
      this.timer.unref?.();
    }
  }

  /** Stops the timer, drops what was not written, and waits for a write in flight. */
  async settle(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    await this.chain;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const patch = this.pending;
    if (!patch) return;
    this.pending = undefined;
    this.lastWriteAt = this.now();
    // A failed progress write is not the job's failure: the next write, or the final one, carries on.
    this.chain = this.chain.then(() => this.store.update(this.jobId, patch)).catch(() => undefined);
  }
}
