/**
 * Connections: the caller's Shopify and WooCommerce shops (GET /api/v2/connections), each a card with its
 * status, the showcase it fills, Test connection, Sync now (with progress and the last report), Pause, Edit
 * and Disconnect; and the form that connects a new one. Credentials are write-only: never shown again.
 */
import { api } from '../../shared/api';
import type { ConnectionList, ShowcaseList } from '../../shared/api-types';
import { $, empty, failed, fill } from '../../shared/dom';
import { connectionCard } from './connection-card';
import { connectForm } from './connection-form';
import { cs } from './connections-state';

export function connectionsPage(): void {
  const listBox = $('[data-testid=connections]');
  const formBox = $('[data-testid=connect]');
  if (!listBox || !formBox) return;
  const box: HTMLElement = listBox;

  cs.actions.load = function () {
    return api<ConnectionList>('GET', '/api/v2/connections').then(function (list) {
      cs.list = list.data || [];
      fill(
        box,
        cs.list.length
          ? cs.list.map(function (c) {
              return connectionCard(c);
            })
          : empty('No shop connected yet. Connect one below: its products come into a showcase and stay in sync.'),
      );
    }, failed(box));
  };

  // The showcases name the cards' showcase and fill the form's choice; a failure leaves both with ids only.
  api<ShowcaseList>('GET', '/api/v2/showcases?limit=100')
    .then(
      function (s) {
        cs.showcases = s.data || [];
      },
      function () {
        cs.showcases = [];
      },
    )
    .then(function () {
      connectForm(formBox);
      return cs.actions.load();
    });
}
