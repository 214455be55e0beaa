import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ItemRebuilds } from '@app/runtime';

/**
 * Catches showcase item rebuilds a crash left pending between "job finished" and the listener that
 * switches the item (at start and every minute): the item would otherwise wait for a job that is done.
 */
@Injectable()
export class RebuildReconciler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Rebuilds');
  private timer?: NodeJS.Timeout;

  constructor(private readonly rebuilds: ItemRebuilds) {}

  async reconcile(): Promise<number> {
    const n = await this.rebuilds.sweep();
    if (n) this.logger.warn(`settled ${n} item rebuild(s) a lost listener call had left pending`);
    return n;
  }

  onApplicationBootstrap(): void {
    const tick = () => void this.reconcile().catch((e: Error) => this.logger.error(`rebuild sweep failed: ${e.message}`));
    tick();
    this.timer = setInterval(tick, 60_000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
