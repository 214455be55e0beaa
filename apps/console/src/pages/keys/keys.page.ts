/** API keys: the caller's keys (revoke), and a new key shown once. */
import { api, type ApiError } from '../../shared/api';
import type { ApiKey, ApiKeyCreated, ApiKeyList } from '../../shared/api-types';
import { $, empty, failed, fill, h, onSubmit, say, showError, table } from '../../shared/dom';
import { seg, when } from '../../shared/format';

export function keysPage(): void {
  const found = $('[data-testid=keys]');
  if (!found) return;
  const box: HTMLElement = found;
  function load() {
    return api<ApiKeyList>('GET', '/api/v2/keys').then(function (list) {
      const keys = list.data || [];
      fill(
        box,
        keys.length
          ? table(
              ['Name', 'Scope', 'Key', 'Created', 'Last used', ''],
              keys.map(function (k) {
                return [
                  k.name || '(unnamed)',
                  k.scope,
                  h('code', { text: k.prefix + '…' }),
                  when(k.created_at),
                  when(k.last_used_at),
                  h('button', {
                    type: 'button',
                    class: 'danger',
                    'aria-label': 'Revoke key ' + (k.name || k.prefix),
                    text: 'Revoke',
                    on: {
                      click: function () {
                        revoke(k);
                      },
                    },
                  }),
                ];
              }),
              'Your API keys',
            )
          : empty('No keys yet. Create one above to call the API.'),
      );
    }, failed(box));
  }
  function revoke(k: ApiKey) {
    if (!confirm('Revoke the key "' + (k.name || k.prefix) + '"? Programs using it stop working at once.')) return;
    api('DELETE', '/api/v2/keys/' + seg(k.id) + '?force=true').then(
      function () {
        say('Key revoked.');
        load();
      },
      function (e: ApiError) {
        say(e.error.message);
      },
    );
  }
  onSubmit('create-key', function (form, fd) {
    const name = String(fd.get('name') || '').trim();
    if (!name) return showError(form, { error: { param: 'name', message: 'Give the key a name, e.g. the shop that uses it.' } });
    api<ApiKeyCreated>('POST', '/api/v2/keys', { name: name, scope: fd.get('scope') }).then(
      function (k) {
        $('[data-testid=new-api-key]')!.textContent = k.key;
        $('[data-testid=new-key-box]')!.hidden = false;
        form.reset();
        say('Key created. Copy it now: it is shown only once.');
        load();
      },
      function (e: ApiError) {
        showError(form, e);
      },
    );
  });
  load();
}
