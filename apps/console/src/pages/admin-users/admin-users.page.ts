/** Users (owner): users with their credits and keys; invite by email, grant credits, revoke a user's keys. */
import { api, type ApiError } from '../../shared/api';
import type { AdminUser, AdminUserList, ApiKeyList, Invite } from '../../shared/api-types';
import { $, empty, failed, fill, h, onSubmit, say, showError, table } from '../../shared/dom';
import { credits, seg } from '../../shared/format';

export function adminUsersPage(): void {
  const box = $('[data-testid=users]')!;
  function load() {
    api<AdminUserList>('GET', '/api/admin/users?limit=200').then(function (list) {
      const users = list.data.filter(function (u) {
        return !u.internal;
      });
      fill(
        box,
        users.length
          ? table(
              ['Email', 'Name', 'Credits', 'Grant credits', 'Keys', ''],
              users.map(function (u) {
                const amount = h('input', {
                  type: 'number',
                  min: '0.01',
                  step: '0.01',
                  'aria-label': 'Credits to grant to ' + u.email,
                  class: 'small',
                });
                const keys = h('span', { class: 'keys' }, [
                  h('button', {
                    type: 'button',
                    class: 'link',
                    text: 'Show keys',
                    'aria-label': 'Show keys of ' + u.email,
                    on: {
                      click: function () {
                        showKeys(u, keys);
                      },
                    },
                  }),
                ]);
                return [
                  u.email,
                  u.name,
                  credits(u.credits),
                  h('span', {}, [
                    amount,
                    h('button', {
                      type: 'button',
                      text: 'Grant',
                      'aria-label': 'Grant credits to ' + u.email,
                      on: {
                        click: function () {
                          api('POST', '/api/admin/users/' + seg(u.id) + '/credits', {
                            amount: Number(amount.value),
                            reason: 'console grant',
                          }).then(
                            function () {
                              say('Granted ' + amount.value + ' credits to ' + u.email + '.');
                              load();
                            },
                            function (e: ApiError) {
                              say(e.error.message);
                            },
                          );
                        },
                      },
                    }),
                  ]),
                  keys,
                  h('button', {
                    type: 'button',
                    text: 'Invite again',
                    'aria-label': 'Invite again: ' + u.email,
                    on: {
                      click: function () {
                        invite({ userId: u.id });
                      },
                    },
                  }),
                ];
              }),
              'Users',
            )
          : empty('No users yet. Invite one above.'),
      );
    }, failed(box));
  }
  /** A user's live keys, each with a revoke button (DELETE /api/admin/keys/{id}). */
  function showKeys(u: AdminUser, cell: HTMLElement) {
    api<ApiKeyList>('GET', '/api/admin/users/' + seg(u.id) + '/keys').then(
      function (list) {
        fill(
          cell,
          list.data.length
            ? h(
                'ul',
                { class: 'plain' },
                list.data.map(function (k) {
                  return h('li', {}, [
                    h('code', { text: k.prefix + '…' }),
                    ' ' + (k.name || '') + ' ',
                    h('button', {
                      type: 'button',
                      class: 'danger',
                      text: 'Revoke',
                      'aria-label': 'Revoke key ' + k.prefix + ' of ' + u.email,
                      on: {
                        click: function () {
                          if (!confirm('Revoke this key of ' + u.email + '? Programs using it stop working at once.')) return;
                          api('DELETE', '/api/admin/keys/' + seg(k.id)).then(
                            function () {
                              say('Key revoked.');
                              showKeys(u, cell);
                            },
                            function (e: ApiError) {
                              say(e.error.message);
                            },
                          );
                        },
                      },
                    }),
                  ]);
                }),
              )
            : h('span', { class: 'hint', text: 'no keys' }),
        );
      },
      function (e: ApiError) {
        say(e.error.message);
      },
    );
  }

  function invite(target: { userId?: string; email?: string }) {
    const form = $<HTMLFormElement>('[data-form=invite]')!;
    const req = target.userId
      ? api<Invite>('POST', '/api/admin/users/' + seg(target.userId) + '/invite', {})
      : api<Invite>('POST', '/api/admin/invites', { email: target.email });
    return req.then(
      function (r) {
        $('[data-testid=invite-url]')!.textContent = r.invite_url;
        $('[data-testid=invite-box]')!.hidden = false;
        form.reset();

        say('Invite link for ' + r.email + ' created.');
        load();
      },
      function (e: ApiError) {
        showError(form, e);
      },
    );
  }
  onSubmit('invite', function (form, fd) {
    invite({ email: String(fd.get('email') || '') });
  });
  load();
}
