/**
 * A consumer's jobs running per group (account), against `ConsumeOptions.groupLimit`: the one count both
 * adapters keep. Jobs without a group, and any job when there is no usable limit, are never held back.
 */
export class GroupLimit {
  private readonly running = new Map<string, number>();
  private readonly limit?: number;

  /** `limit`: a positive number (floored); anything else means no limit. */
  constructor(limit: number | undefined) {
    this.limit = limit !== undefined && Number.isFinite(limit) && limit >= 1 ? Math.floor(limit) : undefined;
  }

  /** Whether the group already runs `limit` jobs here. */
  reached(group: string | undefined): boolean {
    return group !== undefined && this.limit !== undefined && (this.running.get(group) ?? 0) >= this.limit;
  }

  /** A job of the group started. */
  enter(group: string | undefined): void {
    if (group !== undefined) this.running.set(group, (this.running.get(group) ?? 0) + 1);
  }

  /** A job of the group ended. */
  leave(group: string | undefined): void {
    if (group === undefined) return;
    const n = (this.running.get(group) ?? 0) - 1;
    if (n > 0) this.running.set(group, n);
    else this.running.delete(group);
  }
}
