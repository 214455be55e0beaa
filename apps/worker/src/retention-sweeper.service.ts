import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@app/config';
import { APP_CONFIG, JobDeletion } from '@app/runtime';

/**
 * RETENTION_DAYS: every RETENTION_SWEEP_INTERVAL_S the worker deletes finished jobs older than that (files,
 * then rows), in batches; and visitors' gallery walls not served for WALL_VISITOR_MAX_AGE_DAYS (always on:
 * they are a cache that strangers fill). Runs in every worker process; two sweeping at once is harmless
 * (deleting a missing file or row is a no-op). Jobs are kept forever when RETENTION_DAYS is unset.
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
    const { sweepIntervalMs } = this.config.retention;
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

  /** One sweep; the number of jobs deleted (and the visitors' walls). */
  async sweep(now = new Date()): Promise<number> {
    const { maxAgeMs, batchSize } = this.config.retention;
    const walls = this.config.visitorWalls.maxAgeMs;
    // A wall whose files cannot be deleted now stays recorded for the next sweep; the jobs' sweep still runs.
    const idle = await this.deletion.purgeIdleVisitorWalls(new Date(now.getTime() - walls), batchSize).catch((err: unknown) => {
      this.logger.warn(`visitor walls sweep failed: ${(err as Error).message}`);
      return 0;
    });
    if (idle) this.logger.log(`deleted ${idle} visitor gallery wall(s) not served for ${walls / 86_400_000} day(s), with their files`);
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
