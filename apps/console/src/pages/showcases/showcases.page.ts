/** Showcases: the caller's showcases, and a new one. */
import { api, type ApiError } from '../../shared/api';
import type { CreateShowcaseRequest, ShowcaseCreated, ShowcaseList } from '../../shared/api-types';
import { $, empty, failed, fill, h, onSubmit, showError } from '../../shared/dom';
import { seg } from '../../shared/format';

export function showcasesPage(): void {
  const box = $('[data-testid=showcases]')!;
  api<ShowcaseList>('GET', '/api/v2/showcases?limit=100').then(function (list) {
    fill(
      box,
      list.data.length
        ? h(
            'ul',
            { class: 'grid' },
            list.data.map(function (s) {
              return h('li', { class: 'card' }, [
                h('h3', {}, [h('a', { href: '/console/showcases/' + seg(s.id), text: 'Showcase ' + s.id })]),
                h('p', { text: s.description || 'No description' }),
                h('p', { class: 'hint', text: s.item_count + ' pictures · ' + s.layout_choice }),
              ]);
            }),
          )
        : empty('No showcases yet. Create one above.'),
    );
  }, failed(box));
  onSubmit('create-showcase', function (form, fd) {
    const data: CreateShowcaseRequest = { layout_choice: fd.get('layout_choice') as CreateShowcaseRequest['layout_choice'] };
    if (fd.get('description')) data.description = fd.get('description') as string;
    api<ShowcaseCreated>('POST', '/api/v2/showcases', data).then(
      function (s) {
        location.href = '/console/showcases/' + seg(s.id);
      },
      function (e: ApiError) {
        showError(form, e);
      },
    );
  });
}
