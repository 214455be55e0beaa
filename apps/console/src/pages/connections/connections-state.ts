/**
 * What the Connections page's modules share (one page per load): the connections and showcases as last
 * loaded, each connection's lasting parts (its test result, its sync box, its edit form: kept across
 * redraws of the list) and what the page does for them. Filled by connectionsPage when it starts.
 */
import type { Connection, ShowcaseSummary } from '../../shared/api-types';
import { h } from '../../shared/dom';

/** A connection's elements that outlive a redraw of its card (moved into the new card). */
export interface ConnectionParts {
  /** The outcome of "Test connection" (a polite live region). */
  result: HTMLParagraphElement;
  /** "Sync now": its progress, then the last sync's report. */
  sync: HTMLDivElement;
  /** The edit form, while open. */
  edit: HTMLFormElement | null;
  /** The import being polled (a sync under way), null when none. */
  polling: string | null;
  /** The import whose report the sync box shows. */
  shown: string | null;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * What the page does for its parts, set by connectionsPage before anything can call it: the parts call back
 * through it rather than import the page, which imports them.
 */
export interface ConnectionsActions {
  /** Loads the connections again and draws them. */
  load(): Promise<void>;
}

export interface ConnectionsState {
  actions: ConnectionsActions;
  list: Connection[];
  showcases: ShowcaseSummary[];
  parts: Record<string, ConnectionParts>;
  /** false once POST …/sync answered that the route does not exist (a service without sync). */
  syncAvailable: boolean;
}

export const cs: ConnectionsState = {
  actions: {
    load: function () {
      return Promise.resolve();
    },
  },
  list: [],
  showcases: [],
  parts: {},
  syncAvailable: true,
};

/** A connection's lasting parts, made the first time they are asked for. */
export function partsOf(id: string): ConnectionParts {
  if (!cs.parts[id])
    cs.parts[id] = {
      result: h('p', { class: 'conn-result', 'data-testid': 'test-result', role: 'status' }),
      sync: h('div', { class: 'conn-sync', 'data-testid': 'sync' }),
      edit: null,
      polling: null,
      shown: null,
      timer: undefined,
    };
  return cs.parts[id];
}

/** Forgets a connection's parts (it was disconnected): its polling stops. */
export function dropParts(id: string): void {
  const p = cs.parts[id];
  if (p) clearTimeout(p.timer);
  delete cs.parts[id];
}
