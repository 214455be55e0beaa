import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { aggregate, ANALYTICS_BUFFER, type AnalyticsBufferPort } from '@app/analytics';
import type { AppConfig } from '@app/config';
import { AnalyticsRepository } from '@app/persistence';
import { APP_CONFIG, PromMetrics } from '@app/runtime';

/** Events one flush reads and counts in one transaction. */
const BATCH = 5000;

/**
 * Adds the buffered events to the daily counts, every ANALYTICS_FLUSH_MS: reads the log after the stored
 * cursor, folds the batch into rows (libs/analytics `aggregate`) and writes them with the new cursor in one
 * transaction (AnalyticsRepository.applyBatch), then trims the log. A crash between the two re-reads a batch
 * the cursor has passed — it is skipped, not counted twice. One process flushes at a time (the buffer's lock).
 */
@Injectable()
export class AnalyticsFlusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('AnalyticsFlusher');
  private readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ANALYTICS_BUFFER) private readonly buffer: AnalyticsBufferPort,
    private readonly repo: AnalyticsRepository,
    private readonly metrics: PromMetrics,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.analytics.enabled) return;
    this.timer = setInterval(
      () => void this.flush().catch((e: unknown) => this.log.warn(`flush failed: ${(e as Error).message}`)),
      this.config.analytics.flushMs,
    );
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch((e: unknown) => this.log.warn(`last flush failed: ${(e as Error).message}`));
    await this.buffer.close();
  }

  /** Counts what the log holds now; returns how many events. Concurrent calls share one run. */
  flush(): Promise<number> {
    this.running ??= this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<number> {
    if (!(await this.buffer.lock(this.holder, Math.max(10_000, this.config.analytics.flushMs * 5)))) return 0;
    let total = 0;
    for (;;) {
      const cursor = await this.repo.cursor(this.buffer.name);
      const batch = await this.buffer.readAfter(cursor, BATCH);
      if (!batch.length) break;
      const last = batch[batch.length - 1].id;
      const { rows, visitors } = aggregate(batch.map((b) => b.event));
      if (!(await this.repo.applyBatch(this.buffer.name, cursor, last, rows, visitors))) break;
      await this.buffer.trimThrough(last);
      for (const r of rows) this.metrics.analyticsCounted(r.event, r.platform, r.count);
      total += batch.length;
      if (batch.length < BATCH) break;
    }
    return total;
  }
}
