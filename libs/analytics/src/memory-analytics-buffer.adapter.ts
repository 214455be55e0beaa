import { type CountedEvent, VISITOR_MARK_TTL_MS, visitorMark } from './analytics-event';
import type { AnalyticsBufferPort, LoggedEvent } from './analytics-buffer.port';
import { SeenIds, type SeenIdsOptions } from './seen-ids';
import { newSalt } from './visitors';

/** Most events held while the flusher is behind (beyond it, the oldest are dropped and counted as dropped). */
const MAX_EVENTS = 1_000_000;

/**
 * The embedded mode's buffer: one process, so plain memory. Ids are the time and a counter (`<ms>-<n>`, fixed
 * width), increasing across restarts, so a cursor stored before a restart never hides new events.
 */
export class MemoryAnalyticsBuffer implements AnalyticsBufferPort {
  readonly name = 'memory';
  private events: LoggedEvent[] = [];
  private last = '';
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

  private nextId(): string {
    const ms = String(Date.now()).padStart(15, '0');
    let id = `${ms}-${String(this.seq++).padStart(9, '0')}`;
    if (id <= this.last) id = `${this.last.slice(0, 15)}-${String(this.seq++).padStart(9, '0')}`;
    this.last = id;
    return id;
  }

  async append(events: readonly CountedEvent[]): Promise<void> {
    for (const event of events) this.events.push({ id: this.nextId(), event });
    if (this.events.length > MAX_EVENTS) {
      this.dropped += this.events.length - MAX_EVENTS;
      this.events = this.events.slice(-MAX_EVENTS);
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
      e.firstVisit = { showcase: mark(visitorMark(e, 0)), item: e.itemId > 0 && mark(visitorMark(e, e.itemId)) };
      taken.push(e);
    }
    await this.append(taken);
    return taken.length;
  }

  async readAfter(afterId: string | null, limit: number): Promise<LoggedEvent[]> {
    const from = afterId === null ? 0 : this.events.findIndex((e) => e.id > afterId);
    return from < 0 ? [] : this.events.slice(from, from + limit);
  }

  async trimThrough(id: string): Promise<void> {
    const keep = this.events.findIndex((e) => e.id > id);
    this.events = keep < 0 ? [] : this.events.slice(keep);
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
