/**
 * Shopify's cost-based limit (https://shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits): every response
 * carries `extensions.cost` with the query's `requestedQueryCost` and the bucket's `throttleStatus`
 * (`maximumAvailable`, `currentlyAvailable`, `restoreRate` points a second). A query runs only when the bucket holds
 * its requested cost, else the answer is a `THROTTLED` error. This keeps the last status seen and the cost each
 * operation asked for, so the client waits for the points before sending rather than spending a round trip on a
 * refusal.
 */
export interface ShopifyThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface ShopifyQueryCost {
  requestedQueryCost: number;
  actualQueryCost: number | null;
  throttleStatus: ShopifyThrottleStatus;
}

export class ShopifyCostBucket {
  private status: ShopifyThrottleStatus | null = null;
  private seenAt = 0;
  private readonly requested = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Records a response's cost extension (absent on some errors: then nothing is learnt). */
  record(operation: string, cost: unknown): void {
    const c = cost as Partial<ShopifyQueryCost> | undefined;
    const t = c?.throttleStatus;
    if (!t || !(t.restoreRate > 0) || !Number.isFinite(t.currentlyAvailable) || !Number.isFinite(t.maximumAvailable)) return;
    this.status = { maximumAvailable: t.maximumAvailable, currentlyAvailable: t.currentlyAvailable, restoreRate: t.restoreRate };
    this.seenAt = this.now();
    if (typeof c.requestedQueryCost === 'number' && c.requestedQueryCost >= 0) this.requested.set(operation, c.requestedQueryCost);
  }

  /** The points the bucket should hold now: the last status plus what restored since, up to the maximum. */
  available(): number | null {
    if (!this.status) return null;
    const restored = ((this.now() - this.seenAt) / 1000) * this.status.restoreRate;
    return Math.min(this.status.maximumAvailable, this.status.currentlyAvailable + restored);
  }

  /**
   * Milliseconds to wait before `operation` may run: 0 when the bucket holds what it asked for last time (or
   * nothing is known yet: the first answer teaches both the cost and the bucket).
   */
  waitBefore(operation: string): number {
    const cost = this.requested.get(operation);
    const available = this.available();
    if (cost === undefined || available === null || !this.status) return 0;
    const needed = Math.min(cost, this.status.maximumAvailable) - available;
    return needed > 0 ? Math.ceil((needed / this.status.restoreRate) * 1000) : 0;
  }

  /** After a THROTTLED answer: the time until its requested cost is restored (at least one restore step). */
  waitAfterThrottle(cost: unknown): number {
    const c = cost as Partial<ShopifyQueryCost> | undefined;
    const t = c?.throttleStatus;
    if (!t || !(t.restoreRate > 0) || typeof c?.requestedQueryCost !== 'number') return 1000;
    const needed = Math.min(c.requestedQueryCost, t.maximumAvailable) - t.currentlyAvailable;
    return Math.max(Math.ceil((needed / t.restoreRate) * 1000), Math.ceil(1000 / t.restoreRate));
  }
}
