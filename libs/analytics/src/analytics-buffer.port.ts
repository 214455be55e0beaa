import type { CountedEvent } from './analytics-event';

/** An event in the log, with the id the log gave it (increasing). */
export interface LoggedEvent {
  id: string;
  event: CountedEvent;
}

/**
 * The short-lived state of analytics between the beacon and the daily counts: the event log the flusher reads
 * (each id once, in order), the ids of events already taken (a beacon sent twice counts once), the day's
 * visitor salt, and the lock that lets one process flush at a time. In process in the embedded mode, Redis in
 * the scaled mode (every API process shares it).
 */
export interface AnalyticsBufferPort {
  /** The log's name: the flusher keeps how far it has counted under it. */
  readonly name: string;
  append(events: readonly CountedEvent[]): Promise<void>;
  /**
   * Appends the events whose id was not taken in the last `ttlMs` (and takes those ids), in one step: a beacon
   * sent twice counts once. Returns how many were appended.
   */
  appendFresh(events: readonly { id: string; event: CountedEvent }[], ttlMs: number): Promise<number>;
  /** Up to `limit` events after `afterId` (null: from the start), oldest first. */
  readAfter(afterId: string | null, limit: number): Promise<LoggedEvent[]>;
  /** Drops the events up to `id` (they are counted). */
  trimThrough(id: string): Promise<void>;
  /** Of these event ids, the ones not taken in the last `ttlMs` (now taken). */
  firstSeen(ids: readonly string[], ttlMs: number): Promise<Set<string>>;
  /** The visitor salt of a UTC day: made on first use, gone two days later. */
  salt(day: string): Promise<string>;
  /** Takes or keeps the flush lock for `ttlMs`; false while another process holds it. */
  lock(holder: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export const ANALYTICS_BUFFER = Symbol('ANALYTICS_BUFFER');
