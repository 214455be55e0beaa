import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ShopConnectionRepository } from '@app/persistence';
import { ConnectionSync } from './connection-sync.service';
import { SyncScheduleRepository } from './sync-schedule.repository';

/** How often the due connections are looked for (the first look shortly after the start). */
const TICK_MS = 60_000;
const FIRST_TICK_MS = 15_000;
/** Scheduled full syncs one process runs at once: the others wait for a later tick (or another process). */
const MAX_SCHEDULED = 2;

/**
 * Scheduled syncs (issue 41): every minute, each API process looks for the connections whose
 * `sync_interval_hours` have passed since their last sync started, claims each with a compare-and-set on
 * `last_sync` (so one process syncs a connection however many run), and starts its sync like "Sync now" does. A
 * process runs at most {@link MAX_SCHEDULED} at once, the longest-waiting first; the imports they run go through
 * the same job admission as any import (fair share between accounts). Paused and unauthorized connections are not
 * synced.
 */
@Injectable()
export class ConnectionScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('connection-schedule');
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Timeout;
  private ticking = false;

  constructor(
    private readonly schedule: SyncScheduleRepository,
    private readonly connections: ShopConnectionRepository,
    private readonly sync: ConnectionSync,
  ) {}

  onApplicationBootstrap(): void {
    this.first = setTimeout(() => void this.tick(), FIRST_TICK_MS);
    this.timer = setInterval(() => void this.tick(), TICK_MS);
    this.first.unref();
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.first);
    clearInterval(this.timer);
  }

  /** One look: claims and starts the due syncs this process has room for. Returns the imports started. */
  async tick(): Promise<string[]> {
    if (this.ticking) return [];
    this.ticking = true;
    const started: string[] = [];
    try {
      const room = MAX_SCHEDULED - this.sync.runningCount();
      if (room <= 0) return started;
      for (const due of await this.schedule.due(room)) {
        const at = new Date().toISOString();
        if (!(await this.schedule.claim(due.publicId, due.lastSyncAt, { at, import_id: null, outcome: 'running' }))) continue;
        const c = await this.connections.byPublicId(due.publicId);
        if (!c) continue;
        try {
          started.push(await this.sync.start(c, { kind: 'full' }));
        } catch (e) {
          // The claim stays: the next try is one interval later, not every minute.
          this.log.warn(`connection ${c.publicId}: scheduled sync not started: ${(e as Error).message}`);
          await this.connections.update(c.id, {
            lastSync: { at, import_id: null, outcome: `failed: ${(e as Error).message.slice(0, 200)}` },
          });
        }
      }
    } catch (e) {
      this.log.warn(`scheduled syncs: ${(e as Error).message}`);
    } finally {
      this.ticking = false;
    }
    return started;
  }
}
