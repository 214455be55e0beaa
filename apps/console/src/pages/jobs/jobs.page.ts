/** Jobs: the caller's jobs, filtered by status (kept in the URL). */
import { api } from '../../shared/api';
import type { JobList } from '../../shared/api-types';
import { $, empty, failed, fill, table } from '../../shared/dom';
import { jobLink, statusBadge, when } from '../../shared/format';

export function jobsPage(): void {
  const box = $('[data-testid=jobs]')!;
  const form = $<HTMLFormElement & { status: HTMLSelectElement }>('[data-form=job-filter]')!;
  const status = new URLSearchParams(location.search).get('status') || '';
  form.status.value = status;
  api<JobList>('GET', '/api/v2/jobs?limit=50' + (status ? '&status=' + encodeURIComponent(status) : '')).then(function (list) {
    fill(
      box,
      list.data.length
        ? table(
            ['Job', 'Kind', 'Status', 'Progress', 'Created'],
            list.data.map(function (j) {
              return [jobLink(j.job_id), j.kind, statusBadge(j.status), j.progress + '%', when(j.created_at)];
            }),
            'Jobs',
          )
        : empty(status ? 'No ' + status + ' jobs.' : 'No jobs yet. Convert a picture to start.'),
    );
  }, failed(box));
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    location.search = form.status.value ? '?status=' + form.status.value : '';
  });
}
