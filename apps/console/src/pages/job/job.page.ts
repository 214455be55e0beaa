/** A job: status, progress, error, its steps and stage times; cancel while running, retry a failed job (owner). */
import { api, type ApiError } from '../../shared/api';
import type { JobDetail } from '../../shared/api-types';
import { $, empty, failed, fill, h, say, table } from '../../shared/dom';
import { active, seg, statusBadge, STEPS, when } from '../../shared/format';

export function jobPage(): void {
  const id = String(document.body.getAttribute('data-id'));
  const path = id.indexOf('v2_') === 0 ? '/api/v2/jobs/' + seg(id) : '/api/v1/status/' + seg(id);
  const box = $('[data-testid=job]')!;
  const cancel = $('[data-action=cancel-job]')!;
  const retry = $('[data-action=retry-job]')!;
  let timer: ReturnType<typeof setTimeout> | undefined;
  function load() {
    api<JobDetail>('GET', path).then(function (j) {
      const st = j.status;
      // A v2 job's error names the stage it failed in; a v1 job's does not.
      const error: { message: string; stage?: string } | undefined = j.error;
      fill(
        box,
        h('dl', { class: 'facts' }, [
          h('dt', { text: 'Status' }),
          h('dd', {}, [statusBadge(st)]),
          h('dt', { text: 'Progress' }),
          h('dd', { text: j.progress + '%' }),
          h('dt', { text: 'Created' }),
          h('dd', { text: when(j.created_at) }),
          error ? h('dt', { text: 'Error' }) : null,
          error ? h('dd', { class: 'error', text: error.message + (error.stage ? ' (stage ' + error.stage + ')' : '') }) : null,
        ]),
      );
      const failedAt =
        error && error.stage
          ? Math.max(1, STEPS.indexOf(error.stage === 'fetch' ? 'downloading' : error.stage === 'publish' ? 'uploading' : 'converting'))
          : 1;
      const steps = st === 'failed' ? STEPS.slice(0, failedAt).concat(['failed']) : STEPS;
      const at = st === 'failed' ? steps.length - 1 : STEPS.indexOf(st);
      fill(
        $('[data-testid=timeline]')!,
        steps.map(function (s, i) {
          return h('li', { class: i < at ? 'done' : i === at ? 'now' : 'todo', 'aria-current': i === at ? 'step' : null, text: s });
        }),
      );
      // Each stage of the last run with its start and duration (the API's stage timeline).
      fill(
        $('[data-testid=stage-times]')!,

        j.stages && j.stages.length
          ? table(
              ['Stage', 'Started', 'Took'],
              j.stages.map(function (s) {
                return [
                  s.stage,
                  when(s.started_at),
                  s.duration_ms === null
                    ? active(st)
                      ? 'running'
                      : '—'
                    : s.duration_ms < 1000
                      ? Math.round(s.duration_ms) + ' ms'
                      : (s.duration_ms / 1000).toFixed(1) + ' s',
                ];
              }),
              'Stage times',
            )
          : empty(active(st) ? 'Waiting for a worker.' : 'No stage ran.'),
      );
      // Only for a status known to be running: an answer without one never offers a state change.
      cancel.hidden = !active(st);
      retry.hidden = !(st === 'failed' && document.querySelector('nav a[href="/console/admin/users"]'));
      clearTimeout(timer);
      if (active(st)) timer = setTimeout(load, 1500);
    }, failed(box));
  }
  cancel.addEventListener('click', function () {
    api('POST', (id.indexOf('v2_') === 0 ? '/api/v2/jobs/' : '/api/v1/jobs/') + seg(id) + '/cancel').then(
      function () {
        say('Cancel requested.');
        load();
      },
      function (e: ApiError) {
        say(e.error.message);
      },
    );
  });
  retry.addEventListener('click', function () {
    api('POST', '/api/admin/jobs/' + seg(id) + '/retry').then(
      function () {
        say('Job queued again.');
        load();
      },
      function (e: ApiError) {
        say(e.error.message);
      },
    );
  });
  load();
}
