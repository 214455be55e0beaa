/** Failed jobs (owner): every account's failed jobs, each with Retry. */
import { api, type ApiError } from '../../shared/api';
import type { AdminJobList } from '../../shared/api-types';
import { $, empty, failed, fill, h, say, table } from '../../shared/dom';
import { jobLink, seg, when } from '../../shared/format';

export function adminJobsPage(): void {
  const box = $('[data-testid=failed-jobs]')!;
  function load() {
    api<AdminJobList>('GET', '/api/admin/jobs?status=failed&limit=50').then(function (list) {
      fill(
        box,
        list.data.length
          ? table(
              ['Job', 'Kind', 'User', 'Error', 'When', ''],
              list.data.map(function (j) {
                const id = j.id;
                return [
                  jobLink(id),
                  j.kind,
                  j.user_id,
                  j.error ? j.error.message : '',
                  when(j.created_at),
                  h('button', {
                    type: 'button',
                    text: 'Retry',
                    'aria-label': 'Retry job ' + id,
                    on: {
                      click: function () {
                        api('POST', '/api/admin/jobs/' + seg(id) + '/retry').then(
                          function () {
                            say('Job ' + id + ' queued again.');
                            load();
                          },
                          function (e: ApiError) {
                            say(e.error.message);
                          },
                        );
                      },
                    },
                  }),
                ];
              }),
              'Failed jobs',
            )
          : empty('No failed jobs.'),
      );
    }, failed(box));
  }
  load();
}
