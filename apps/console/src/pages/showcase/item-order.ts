/** Reordering the pictures: Move up / Move down and drag and drop, shown at once and saved (PUT …/items/order). */
import { api, type ApiError } from '../../shared/api';
import type { ShowcaseItem } from '../../shared/api-types';
import { say } from '../../shared/dom';
import { sc } from './showcase-state';

function ids(): number[] {
  return sc.showcase!.items.map(function (x) {
    return x.id;
  });
}
export function move(id: number, delta: number): void {
  const order = ids();
  const at = order.indexOf(id);
  if (at < 0 || at + delta < 0 || at + delta >= order.length) return;
  order.splice(at, 1);
  order.splice(at + delta, 0, id);
  // Focus follows the card; at either end, onto the button still usable.
  const to = at + delta;
  const dir = delta < 0 ? (to === 0 ? 'down' : 'up') : to === order.length - 1 ? 'up' : 'down';
  saveOrder(order, id, dir + '-' + id);
}
/** The dragged card takes the target's place: before it when moved up the list, after it when moved down. */
export function moveTo(id: number, targetId: number): void {
  const order = ids();
  const from = order.indexOf(id);
  const to = order.indexOf(targetId);
  if (from < 0 || to < 0) return;
  order.splice(from, 1);
  order.splice(to, 0, id);
  saveOrder(order, id, null);
}
function saveOrder(order: number[], id: number, focusKey: string | null): void {
  const byId: Record<number, ShowcaseItem> = {};
  sc.showcase!.items.forEach(function (x) {
    byId[x.id] = x;
  });
  // Shown at once, then saved; the answer (or a reload after an error) is the truth.
  sc.focusNext = focusKey;
  sc.showcase = {
    units: sc.showcase!.units,
    items: order.map(function (x) {
      return byId[x];
    }),
  };
  sc.actions.renderItems(sc.showcase);
  sc.ordering = true;
  api('PUT', sc.base + '/items/order', { item_ids: order }).then(
    function () {
      sc.ordering = false;
      say('Picture ' + id + ' moved to position ' + (order.indexOf(id) + 1) + ' of ' + order.length + '.');
      sc.actions.load();
    },
    function (e: ApiError) {
      sc.ordering = false;
      say('The order was not saved: ' + e.error.message);
      sc.actions.load();
    },
  );
}
