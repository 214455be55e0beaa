/** Webhooks: recent callback deliveries with their answer and attempt number; refreshed every 10 s. */
import { api } from '../../shared/api';
import type { WebhookDeliveryList } from '../../shared/api-types';
import { $, empty, failed, fill, h, table } from '../../shared/dom';
import { jobLink, when } from '../../shared/format';

export function webhooksPage(): void {
  const box = $('[data-testid=deliveries]')!;
  function load() {
    api<WebhookDeliveryList>('GET', '/api/v2/webhooks/deliveries?limit=100').then(function (list) {
      fill(
        box,
        list.data.length
          ? table(
              ['When', 'Job', 'Event', 'Attempt', 'Answer', 'Time'],
              list.data.map(function (d) {
                return [
                  when(d.created_at),
                  jobLink(d.job_id),
                  d.event,
                  d.attempt,
                  h('span', {}, [
                    h('span', {
                      class: 'badge ' + (d.succeeded ? 's-completed' : 's-failed'),
                      text: d.succeeded ? 'delivered' : 'failed',
                    }),
                    ' ',
                    d.status_code ? 'HTTP ' + d.status_code : d.error || 'no answer',
                  ]),
                  d.duration_ms + ' ms',
                ];
              }),
              'Callback deliveries',
            )
          : empty('No callbacks sent yet. Pass callback_url when you convert to get one.'),
      );
      setTimeout(load, 10000);
    }, failed(box));
  }
  load();
}
