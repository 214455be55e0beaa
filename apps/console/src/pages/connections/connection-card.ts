/**
 * A connection's card: the shop and its platform, its status (unauthorized: what happened and what to do), the
 * showcase it fills, its settings, the last sync and the webhook URL to paste into the shop; then Test connection,
 * Sync now, Pause or Resume, Edit and Disconnect. The test result, the sync box and an open edit form are the
 * connection's lasting parts (connections-state), moved into each new drawing of the card.
 */
import type { Connection } from '../../shared/api-types';
import { $, h } from '../../shared/dom';
import { seg, when } from '../../shared/format';
import { disconnect, runTest, setPaused } from './connection-actions';
import { editForm } from './connection-form';
import { showLastSync, syncNow } from './connection-sync';
import { frameLabel, intervalText, PLATFORM_NAMES, pushLabel, showcaseName, STATUS_LABELS, UNAUTHORIZED_HELP } from './connection-text';
import { cs, partsOf } from './connections-state';
import { sortedKeys } from './frames-table';

function fact(term: string, ...value: (Node | string)[]): HTMLDivElement {
  return h('div', {}, [h('dt', { text: term }), h('dd', {}, value)]);
}

function factWide(term: string, ...value: (Node | string)[]): HTMLDivElement {
  const d = fact(term, ...value);
  d.className = 'wide';
  return d;
}

function framesText(c: Connection): string {
  const keys = sortedKeys(c.frames);
  return keys.length
    ? keys
        .map(function (k) {
          return k + ' → ' + frameLabel(c.frames[k]);
        })
        .join('; ')
    : 'None: variants are unframed unless the shop says otherwise';
}

function lastSyncText(c: Connection): string {
  return c.last_sync ? when(c.last_sync.at) + ' (' + c.last_sync.outcome + ')' : 'Never';
}

/** Opens the edit form under the card (focus on its first field) or closes it (focus back on Edit). */
function toggleEdit(c: Connection, card: HTMLElement, focusFirst: boolean): void {
  const parts = partsOf(c.id);
  const slot = $('[data-slot=edit]', card)!;
  const editBtn = $<HTMLButtonElement>('[data-action=edit]', card)!;
  if (parts.edit) {
    slot.removeChild(parts.edit);
    parts.edit = null;
    editBtn.setAttribute('aria-expanded', 'false');
    editBtn.focus();
    return;
  }
  parts.edit = editForm(c, function () {
    const now = $('[data-testid=connection][data-id="' + c.id + '"]');
    if (now && parts.edit) toggleEdit(c, now, false);
    else parts.edit = null;
  });
  slot.appendChild(parts.edit);
  editBtn.setAttribute('aria-expanded', 'true');
  const first = $<HTMLInputElement>('input', parts.edit);
  if (first && focusFirst) first.focus();
}

export function connectionCard(c: Connection): HTMLElement {
  const parts = partsOf(c.id);
  const title = PLATFORM_NAMES[c.platform] + ' shop ' + c.shop;
  const unauthorized = c.status === 'unauthorized';
  const syncing = !!parts.polling;
  const hookId = 'hook-' + c.id;
  const card: HTMLElement = h(
    'article',
    {
      class: 'card conn' + (unauthorized ? ' conn-unauthorized' : ''),
      'data-testid': 'connection',
      'data-id': c.id,
      'data-status': c.status,
      'aria-label': title,
      tabindex: '-1',
    },
    [
      h('div', { class: 'conn-head' }, [
        h('h3', {}, [
          h('span', { class: 'badge conn-platform', text: PLATFORM_NAMES[c.platform] }),
          ' ',
          h('span', { class: 'conn-shop', text: c.shop }),
        ]),
        h('span', { class: 'badge c-' + c.status, 'data-testid': 'connection-status', text: STATUS_LABELS[c.status] }),
      ]),
      unauthorized
        ? h('div', { class: 'conn-alert', 'data-testid': 'unauthorized' }, [
            h('p', {}, [h('strong', { text: 'Unauthorized: ' }), UNAUTHORIZED_HELP[c.platform]]),
            h('button', {
              type: 'button',
              text: 'Enter new credentials',
              on: {
                click: function () {
                  if (!parts.edit) toggleEdit(c, card, true);
                  else {
                    const first = $<HTMLInputElement>('input', parts.edit);
                    if (first) first.focus();
                  }
                },
              },
            }),
          ])
        : null,
      c.status === 'paused' ? h('p', { class: 'hint', text: 'Paused: no scheduled or webhook syncs until you resume it.' }) : null,
      h('dl', { class: 'conn-facts' }, [
        fact('Fills', h('a', { href: '/console/showcases/' + seg(c.showcase_id), text: showcaseName(c.showcase_id, cs.showcases) })),
        fact('Writes back', pushLabel(c.platform, c.push)),
        fact('Sizes without a unit', c.units === 'in' ? 'Inches' : 'Centimetres'),
        fact('Frames', framesText(c)),
        fact('Scheduled sync', intervalText(c.sync_interval_hours)),
        fact('Last sync', h('span', { 'data-testid': 'last-sync', text: lastSyncText(c) })),
        factWide(
          'Webhook URL',
          h('code', { id: hookId, text: c.webhook_urls.products }),
          ' ',
          h('button', {
            type: 'button',
            class: 'secondary',
            'data-copy': '#' + hookId,
            'aria-label': 'Copy the webhook URL of ' + c.shop,
            text: 'Copy',
          }),
        ),
      ]),
      h('p', {
        class: 'hint',
        text: "Point the shop's product webhooks (created, updated, deleted) at the webhook URL: changes then sync within seconds.",
      }),
      h('div', { class: 'conn-actions', role: 'group', 'aria-label': 'Actions for ' + c.shop }, [
        h('button', {
          type: 'button',
          class: 'secondary',
          'data-action': 'test',
          text: 'Test connection',
          on: {
            click: function () {
              runTest(c);
            },
          },
        }),
        cs.syncAvailable
          ? h('button', {
              type: 'button',
              class: 'secondary',
              'data-action': 'sync',
              'aria-disabled': syncing || c.status !== 'active' ? 'true' : null,
              title:
                c.status === 'active' ? null : c.status === 'paused' ? 'Resume the connection to sync' : 'Enter new credentials to sync',
              text: syncing ? 'Syncing…' : 'Sync now',
              on: {
                click: function () {
                  if (c.status !== 'active') {
                    partsOf(c.id).result.textContent =
                      c.status === 'paused' ? 'Resume the connection to sync it.' : 'Enter new credentials before syncing.';
                    return;
                  }
                  syncNow(c);
                },
              },
            })
          : null,
        h('button', {
          type: 'button',
          class: 'secondary',
          'data-action': 'pause',
          text: c.status === 'paused' ? 'Resume' : 'Pause',
          on: {
            click: function () {
              setPaused(c, c.status !== 'paused');
            },
          },
        }),
        h('button', {
          type: 'button',
          class: 'secondary',
          'data-action': 'edit',
          'aria-expanded': parts.edit ? 'true' : 'false',
          text: 'Edit',
          on: {
            click: function () {
              toggleEdit(c, card, true);
            },
          },
        }),
        h('button', {
          type: 'button',
          class: 'danger',
          'data-action': 'disconnect',
          text: 'Disconnect',
          on: {
            click: function () {
              disconnect(c).then(function () {
                if (!cs.parts[c.id]) {
                  const head = $('#con-list-title');
                  if (head) head.focus();
                }
              });
            },
          },
        }),
      ]),
      parts.result,
      h('div', { 'data-slot': 'edit' }, [parts.edit]),
      parts.sync,
    ],
  );
  showLastSync(c);
  return card;
}
