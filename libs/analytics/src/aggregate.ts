import type { CountedEvent } from './analytics-event';

/** One row of the daily counts: its key and how many events it gains. */
export interface CountRow {
  day: string;
  ownerId: string;
  showcaseId: number;
  itemId: number;
  surface: string;
  variant: string;
  event: string;
  platform: string;
  referrerHost: string;
  count: number;
}

/** A visitor seen on a day: on the showcase as a whole (item 0) and on the item when the event was about one. */
export interface VisitorMark {
  day: string;
  ownerId: string;
  showcaseId: number;
  itemId: number;
  hash: string;
}

/**
 * A batch of events folded into count rows (one per distinct day and dimension) and the distinct visitor marks
 * it carries, so a flush writes each row once however many events it holds.
 *
 * @example
 * const { rows, visitors } = aggregate(events); // 5,000 events of one page -> a handful of rows
 */
export function aggregate(events: readonly CountedEvent[]): { rows: CountRow[]; visitors: VisitorMark[] } {
  const rows = new Map<string, CountRow>();
  const visitors = new Map<string, VisitorMark>();
  for (const e of events) {
    const key = [e.day, e.showcaseId, e.itemId, e.surface, e.variant, e.kind, e.platform, e.referrerHost].join('\u0000');
    const row = rows.get(key);
    if (row) row.count++;
    else
      rows.set(key, {
        day: e.day,
        ownerId: e.ownerId,
        showcaseId: e.showcaseId,
        itemId: e.itemId,
        surface: e.surface,
        variant: e.variant,
        event: e.kind,
        platform: e.platform,
        referrerHost: e.referrerHost,
        count: 1,
      });
    for (const itemId of e.itemId ? [0, e.itemId] : [0]) {
      const mark = { day: e.day, ownerId: e.ownerId, showcaseId: e.showcaseId, itemId, hash: e.visitor };
      visitors.set([e.day, e.showcaseId, itemId, e.visitor].join('\u0000'), mark);
    }
  }
  return { rows: [...rows.values()], visitors: [...visitors.values()] };
}
