import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, JobDeletion } from '@app/runtime';

/**
 * RETENTION_DAYS: every RETENTION_SWEEP_INTERVAL_S the worker deletes finished jobs older than that (files,
 * then rows), in batches. Runs in every worker process; two sweeping at once is harmless (deleting a
 * missing file or row is a no-op). Nothing runs when RETENTION_DAYS is unset.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deletion: JobDeletion,
  ) {}

  onApplicationBootstrap(): void {
    const { maxAgeMs, sweepIntervalMs } = this.config.retention;
    if (maxAgeMs === null) return;
    // A first sweep soon after the start, not at once: the start itself has enough to do.
    this.timer = setTimeout(() => this.tick(), Math.min(sweepIntervalMs, 5000));
    this.timer.unref();
  }

  private tick(): void {
    this.running = this.sweep()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.warn(`sweep failed: ${(err as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        this.timer = setTimeout(() => this.tick(), this.config.retention.sweepIntervalMs);
        this.timer.unref();
      });
  }

  /** One sweep; the number of jobs deleted. */
  async sweep(now = new Date()): Promise<number> {
    const { maxAgeMs, batchSize } = this.config.retention;
    if (maxAgeMs === null) return 0;
    const deleted = await this.deletion.purgeExpired(new Date(now.getTime() - maxAgeMs), batchSize);
    if (deleted) this.logger.log(`deleted ${deleted} job(s) finished more than ${maxAgeMs / 86_400_000} day(s) ago, with their files`);
    return deleted;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
