import type { CountedEvent } from './analytics-event';

/** One row of the daily counts: its key and how many events it gains. */
export interface CountRow {
  day: string;
  ownerId: string;
  showcaseId: number;
  itemId: number;
  /** A conversion outside any showcase (v1 embeds; showcase and item 0); absent for a showcase's rows. */
  jobId?: string;
  surface: string;
  variant: string;
  event: string;
  platform: string;
  referrerHost: string;
  count: number;
}

/** New unique visitors of a day on a showcase as a whole (item 0) or on an item. */
export interface VisitorCount {
  day: string;
  ownerId: string;
  showcaseId: number;
  itemId: number;
  /** As in {@link CountRow}. */
  jobId?: string;
  n: number;
}

/**
 * A batch of events folded into count rows (one per distinct day and dimension) and the new unique visitors
 * per day, showcase and item (the events the buffer marked as a visitor's first), so a flush writes each row
 * once however many events it holds.
 *
 * @example
 * const { rows, visitors } = aggregate(events); // 5,000 events of one page -> a handful of rows
 */
export function aggregate(events: readonly CountedEvent[]): { rows: CountRow[]; visitors: VisitorCount[] } {
  const rows = new Map<string, CountRow>();
  const visitors = new Map<string, VisitorCount>();
  for (const e of events) {
    const job = e.jobId ? { jobId: e.jobId } : {};
    const key = [e.day, e.showcaseId, e.itemId, e.jobId ?? '', e.surface, e.variant, e.kind, e.platform, e.referrerHost].join('\u0000');
    const row = rows.get(key);
    if (row) row.count++;
    else
      rows.set(key, {
        day: e.day,
        ownerId: e.ownerId,
        showcaseId: e.showcaseId,
        itemId: e.itemId,
        ...job,
        surface: e.surface,
        variant: e.variant,
        event: e.kind,
        platform: e.platform,
        referrerHost: e.referrerHost,
        count: 1,
      });
    const firsts: number[] = [];
    if (e.firstVisit?.showcase) firsts.push(0);
    if (e.firstVisit?.item && e.itemId) firsts.push(e.itemId);
    for (const itemId of firsts) {
      const key = [e.day, e.showcaseId, itemId, e.jobId ?? ''].join('\u0000');
      const v = visitors.get(key);
      if (v) v.n++;
      else visitors.set(key, { day: e.day, ownerId: e.ownerId, showcaseId: e.showcaseId, itemId, ...job, n: 1 });
    }
  }
  return { rows: [...rows.values()], visitors: [...visitors.values()] };
}
