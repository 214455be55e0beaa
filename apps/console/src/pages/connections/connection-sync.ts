/**
 * "Sync now" and the sync's report: POST /api/v2/connections/{id}/sync starts an import (202 {import_id}),
 * GET /api/v2/imports/{id} is polled every second for its progress and counts, and the last sync's import is
 * shown as its report (the rows with problems, the CSV). A service without the sync route says so.
 */
import { api, type ApiError } from '../../shared/api';
import type { Connection, ConnectionSyncStarted, ImportRun } from '../../shared/api-types';
import { h, fill, say, table } from '../../shared/dom';
import { seg, when } from '../../shared/format';
import { connectionPath } from './connection-actions';
import { type ConnectionParts, cs, partsOf } from './connections-state';

const POLL_MS = 1000;
type Counts = ImportRun['counts'];

function count(c: Partial<Counts>, k: keyof Counts): number {
  return Number(c[k]) || 0;
}

/** Every row dealt with and no picture still converting. */
function finished(r: ImportRun): boolean {
  return r.status === 'completed' && count(r.counts || {}, 'queued') === 0;
}

/** The bar covers both steps: products read (each a row), then their pictures converted. */
function percent(r: ImportRun): number {
  const c: Partial<Counts> = r.counts || {};
  if (finished(r)) return 100;
  const read = Math.min(count(c, 'rows'), count(c, 'processed'));
  const jobsDone = count(c, 'completed') + count(c, 'failed');
  return Math.min(99, Math.floor((100 * (read + jobsDone)) / Math.max(1, count(c, 'rows') + jobsDone + count(c, 'queued'))));
}

function countList(c: Partial<Counts>): HTMLDListElement {
  const pairs: [string, keyof Counts][] = [
    ['Products', 'rows'],
    ['New', 'created'],
    ['Updated', 'updated'],
    ['Unchanged', 'unchanged'],
    ['Not converted', 'invalid'],
    ['Skipped', 'skipped'],
    ['Converting', 'queued'],
    ['Converted', 'completed'],
    ['Failed', 'failed'],
  ];
  return h(
    'dl',
    { class: 'counts', 'data-testid': 'sync-counts' },
    pairs.map(function (p) {
      return h('div', {}, [h('dt', { text: p[0] }), h('dd', { text: String(count(c, p[1])) })]);
    }),
  );
}

export function summary(r: ImportRun): string {
  const c: Partial<Counts> = r.counts || {};
  return (
    count(c, 'created') +
    ' new, ' +
    count(c, 'updated') +
    ' updated, ' +
    count(c, 'unchanged') +
    ' unchanged' +
    (count(c, 'invalid') ? ', ' + count(c, 'invalid') + ' not converted' : '') +
    (count(c, 'skipped') ? ', ' + count(c, 'skipped') + ' skipped' : '') +
    (count(c, 'failed') ? ', ' + count(c, 'failed') + ' failed' : '')
  );
}

/** The sync box: progress while it runs, then the report with the rows that need a look and the CSV. */
function draw(parts: ConnectionParts, r: ImportRun, title: string): void {
  const done = finished(r);
  const problems = (r.rows || []).filter(function (x) {
    return ['invalid', 'skipped', 'failed'].indexOf(x.status) >= 0;
  });
  const shown = problems.slice(0, 10);
  fill(parts.sync, [
    h('h4', { text: title }),
    h('p', { 'data-testid': 'sync-state' }, [
      done ? 'Finished ' + when(r.finished_at || r.created_at) + ': ' + summary(r) + '.' : 'Syncing… ' + percent(r) + ' %',
    ]),
    done ? null : h('progress', { max: '100', value: String(percent(r)), 'aria-label': 'Sync progress', 'data-testid': 'sync-bar' }),
    countList(r.counts || {}),
    shown.length
      ? table(
          ['Row', 'Status', 'Field', 'Problem'],
          shown.map(function (x) {
            return [x.row, x.status, x.field, x.message];
          }),
          'Products that need a look',
        )
      : null,
    problems.length > shown.length
      ? h('p', { class: 'hint', text: 'And ' + (problems.length - shown.length) + ' more in the report.' })
      : null,
    h('p', {}, [
      h('a', {
        href: '/api/v2/imports/' + seg(r.id) + '?format=csv',
        download: 'sync-' + r.id + '.csv',
        'data-testid': 'sync-report',
        text: 'Download the report (CSV)',
      }),
    ]),
  ]);
}

function poll(c: Connection, importId: string): void {
  const parts = partsOf(c.id);
  api<ImportRun>('GET', '/api/v2/imports/' + seg(importId)).then(
    function (r) {
      if (cs.parts[c.id] !== parts || parts.polling !== importId) return;
      parts.shown = importId;
      draw(parts, r, 'Sync');
      if (finished(r)) {
        parts.polling = null;
        say('Sync of ' + c.shop + ' finished: ' + summary(r) + '.');
        cs.actions.load();
      } else parts.timer = setTimeout(poll, POLL_MS, c, importId);
    },
    function (e: ApiError) {
      parts.polling = null;
      fill(parts.sync, h('p', { class: 'error', text: 'Could not read the sync: ' + e.error.message }));
      cs.actions.load();
    },
  );
}

/** POST …/sync, then its progress polled; a 404 for the route itself: this service has no sync yet. */
export function syncNow(c: Connection): Promise<void> {
  const parts = partsOf(c.id);
  if (parts.polling) return Promise.resolve();
  parts.polling = 'starting';
  fill(parts.sync, h('p', { class: 'loading', text: 'Starting the sync…' }));
  return api<ConnectionSyncStarted>('POST', connectionPath(c) + '/sync').then(
    function (r) {
      parts.polling = r.import_id;
      say('Syncing ' + c.shop + '…');
      cs.actions.load().then(function () {
        poll(c, r.import_id);
      });
    },
    function (e: ApiError) {
      parts.polling = null;
      if (e.status === 404 && e.error.code === 'route_not_found') {
        cs.syncAvailable = false;
        const text = "Sync isn't available on this service yet: products come in once it is updated.";
        fill(parts.sync, h('p', { class: 'error', 'data-testid': 'sync-unavailable', text: text }));
        say(text);
        return cs.actions.load();
      }
      fill(parts.sync, h('p', { class: 'error', text: 'Could not start the sync: ' + e.error.message }));
      say('Could not start the sync: ' + e.error.message);
      return cs.actions.load();
    },
  );
}

/**
 * The last sync's report under the card, read once per import (and followed while it still runs: a sync the
 * schedule or a webhook started, or one started before the page was opened).
 */
export function showLastSync(c: Connection): void {
  const parts = partsOf(c.id);
  const last = c.last_sync;
  if (parts.polling || !last || !last.import_id || parts.shown === last.import_id) return;
  const importId = last.import_id;
  parts.shown = importId;
  api<ImportRun>('GET', '/api/v2/imports/' + seg(importId)).then(
    function (r) {
      if (cs.parts[c.id] !== parts || parts.polling) return;
      if (finished(r)) draw(parts, r, 'Last sync');
      else {
        parts.polling = importId;
        draw(parts, r, 'Sync');
        parts.timer = setTimeout(poll, POLL_MS, c, importId);
      }
    },
    function () {
      fill(parts.sync, h('p', { class: 'hint', text: 'The report of the last sync is no longer available.' }));
    },
  );
}
