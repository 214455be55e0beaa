/** Overview: balance, showcase slots, jobs this month and the recent failures. */
import { api } from '../../shared/api';
import type { JobList, Me } from '../../shared/api-types';
import { $, empty, failed, fill, table } from '../../shared/dom';
import { credits, jobLink, when } from '../../shared/format';

export function overviewPage(): void {
  api<Me>('GET', '/api/v2/me').then(
    function (me) {
      // The owner key is never billed: its balance means nothing.
      $('[data-testid=balance]')!.textContent = me.key && me.key.type === 'owner' ? 'Not billed (owner)' : credits(me.credits) + ' credits';
      $('[data-testid=slots]')!.textContent = me.showcase_slots.used + ' of ' + (me.showcase_slots.limited ? me.showcase_slots.total : '∞');
    },
    failed($('[data-testid=balance]')!),
  );
  const start = new Date();
  start.setDate(1);
  start.setHours(0, 0, 0, 0);
  api<JobList>('GET', '/api/v2/jobs?limit=100').then(
    function (list) {
      const n = list.data.filter(function (j) {
        return new Date(j.created_at) >= start;
      }).length;
      $('[data-testid=jobs-month]')!.textContent = n + (list.has_more && n === list.data.length ? '+' : '');
    },
    failed($('[data-testid=jobs-month]')!),
  );
  const box = $('[data-testid=failures]')!;
  api<JobList>('GET', '/api/v2/jobs?status=failed&limit=5').then(function (list) {
    fill(
      box,
      list.data.length
        ? table(
            ['Job', 'Kind', 'Error', 'When'],
            list.data.map(function (j) {
              return [jobLink(j.job_id), j.kind, j.error ? j.error.message : '', when(j.created_at)];
            }),
            'Recent failures',
          )
        : empty('No failed jobs.'),
    );
  }, failed(box));
}
