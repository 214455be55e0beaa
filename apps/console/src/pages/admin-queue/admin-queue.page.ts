/** Queue (owner): queue messages by state, jobs by status, the oldest waiting job; refreshed every 5 s. */
import { api } from '../../shared/api';
import type { AdminQueue } from '../../shared/api-types';
import { $, type Cell, empty, failed, fill, table } from '../../shared/dom';
import { when } from '../../shared/format';

export function adminQueuePage(): void {
  const box = $('[data-testid=queue]')!;
  function load() {
    api<AdminQueue>('GET', '/api/admin/queue').then(function (q) {
      const rows: Cell[][] = [];
      const counts: Record<string, number> = q.queue || {};
      Object.keys(counts).forEach(function (k) {
        rows.push(['Queue: ' + k, counts[k]]);
      });
      Object.keys(q.jobs || {}).forEach(function (k) {
        rows.push(['Jobs: ' + k, q.jobs[k]]);
      });
      if (q.oldest_waiting) rows.push(['Oldest waiting', (q.oldest_waiting.job_id || '') + ' since ' + when(q.oldest_waiting.created_at)]);
      fill(box, rows.length ? table(['What', 'Count'], rows, 'Queue health') : empty('The queue is empty.'));
      setTimeout(load, 5000);
    }, failed(box));
  }
  load();
}
