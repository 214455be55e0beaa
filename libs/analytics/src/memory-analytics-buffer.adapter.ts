import { type CountedEvent, VISITOR_MARK_TTL_MS, visitorMark } from './analytics-event';
import type { AnalyticsBufferPort, LoggedEvent } from './analytics-buffer.port';
import { SeenIds, type SeenIdsOptions } from './seen-ids';
import { newSalt } from './visitors';

/** Most events held while the flusher is behind (beyond it, the oldest are dropped and counted as dropped). */
const MAX_EVENTS = 1_000_000;

/** The four answers a taken event's first-visit marks can be (shared, not one object per event). */
const FIRST_VISIT: readonly Readonly<{ showcase: boolean; item: boolean }>[] = [
  Object.freeze({ showcase: false, item: false }),
  Object.freeze({ showcase: true, item: false }),
  Object.freeze({ showcase: false, item: true }),
  Object.freeze({ showcase: true, item: true }),
];

/**
 * The embedded mode's buffer: one process, so plain memory. Ids are the time and a counter (`<ms>-<n>`, fixed
 * width), increasing across restarts, so a cursor stored before a restart never hides new events.
 */
export class MemoryAnalyticsBuffer implements AnalyticsBufferPort {
  readonly name = 'memory';
  /**
   * The log as a queue: the events from `head` on, with each one's id kept as two numbers (the millisecond and
   * the counter) and written out as `<ms>-<n>` only when read. At 18,000 events a second (a flood) the events
   * wait up to a flush for the flusher: a wrapper object and an id string each would be tens of MB surviving
   * every scavenge; and a flush takes what it counted off the front by moving `head`, not by copying the rest.
   */
  private events: CountedEvent[] = [];
  private idMs: number[] = [];
  private idSeq: number[] = [];
  private head = 0;
  private lastMs = 0;
  private seq = 0;
  /** The ids taken, one table per time to live (event ids: a day; visitor marks: two). */
  private readonly seen = new Map<number, SeenIds>();
  private readonly salts = new Map<string, string>();
  dropped = 0;

  /** `seen`: the id tables' clock and cap (tests). */
  constructor(private readonly seenOptions: Omit<SeenIdsOptions, 'ttlMs'> = {}) {}

  /** Ids remembered now and ids dropped early at the cap, over all tables. */
  seenStats(): { ids: number; evicted: number; lookups: number } {
    const all = [...this.seen.values()];
    return {
      ids: all.reduce((n, s) => n + s.size, 0),
      evicted: all.reduce((n, s) => n + s.evicted, 0),
      lookups: all.reduce((n, s) => n + s.lookups, 0),
    };
  }

  /** Events held now (not yet trimmed). */
  get held(): number {
    return this.events.length - this.head;
  }

  private push(event: CountedEvent): void {
    // Increasing even if the clock steps back: the millisecond never goes below the last one used.
    const ms = Math.max(Date.now(), this.lastMs);
    this.lastMs = ms;
    this.events.push(event);
    this.idMs.push(ms);
    this.idSeq.push(this.seq++ % 1e9);
  }

  private idAt(i: number): string {
    return `${String(this.idMs[i]).padStart(15, '0')}-${String(this.idSeq[i]).padStart(9, '0')}`;
  }

  /** The index of the first held event whose id is after `id` (ids increase along the queue: binary search). */
  private indexAfter(id: string): number {
    let lo = this.head;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.idAt(mid) <= id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Moves the front to `index`; the arrays are compacted once the dead front is most of them. */
  private dropFront(index: number): void {
    this.head = index;
    if (this.head === this.events.length) {
      this.events = [];
      this.idMs = [];
      this.idSeq = [];
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.idMs = this.idMs.slice(this.head);
      this.idSeq = this.idSeq.slice(this.head);
      this.head = 0;
    }
  }

  async append(events: readonly CountedEvent[]): Promise<void> {
    for (const event of events) this.push(event);
    if (this.held > MAX_EVENTS) {
      this.dropped += this.held - MAX_EVENTS;
      this.dropFront(this.events.length - MAX_EVENTS);
    }
  }

  async appendFresh(events: readonly { id: string; event: CountedEvent }[], ttlMs: number): Promise<number> {
    // Straight on the tables (no Set, no await per event): this runs for every beacon.
    const ids = this.table(ttlMs);
    const marks = this.table(VISITOR_MARK_TTL_MS);
    const taken: CountedEvent[] = [];
    // A beacon's events share one visitor and mostly one showcase and item: each mark is looked up once per
    // call (a mark met again in the same beacon is not the visitor's first), so a 20-event beacon costs ~22
    // table checks instead of 60.
    const local = new Map<string, boolean>();
    const mark = (key: string): boolean => {
      if (local.has(key)) return false;
      const first = marks.take(key);
      local.set(key, first);
      return first;
    };
    for (const { id, event: e } of events) {
      if (!ids.take(id)) continue;
      e.firstVisit = FIRST_VISIT[(mark(visitorMark(e, 0)) ? 1 : 0) + (e.itemId > 0 && mark(visitorMark(e, e.itemId)) ? 2 : 0)];
      taken.push(e);
    }
    await this.append(taken);
    return taken.length;
  }

  async readAfter(afterId: string | null, limit: number): Promise<LoggedEvent[]> {
    const from = afterId === null ? this.head : this.indexAfter(afterId);
    const to = Math.min(this.events.length, from + limit);
    const out: LoggedEvent[] = [];
    for (let i = from; i < to; i++) out.push({ id: this.idAt(i), event: this.events[i] });
    return out;
  }

  async trimThrough(id: string): Promise<void> {
    this.dropFront(this.indexAfter(id));
  }

  async firstSeen(ids: readonly string[], ttlMs: number): Promise<Set<string>> {
    const seen = this.table(ttlMs);
    const fresh = new Set<string>();
    for (const id of ids) if (seen.take(id)) fresh.add(id);
    return fresh;
  }

  /** The ids taken with this time to live. */
  private table(ttlMs: number): SeenIds {
    let seen = this.seen.get(ttlMs);
    if (!seen) this.seen.set(ttlMs, (seen = new SeenIds({ ...this.seenOptions, ttlMs })));
    return seen;
  }

  async salt(day: string): Promise<string> {
    let s = this.salts.get(day);
    if (!s) {
      s = newSalt();
      this.salts.set(day, s);
      // Yesterday's is kept for late events; older ones are dropped for good.
      for (const d of this.salts.keys()) if (d < previousDay(day)) this.salts.delete(d);
    }
    return s;
  }

  async lock(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

/** The UTC day before `day` (`YYYY-MM-DD`). */
export function previousDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
