/** The showcase page's pictures: a card per item, kept while its item does not change. */
import { api, type ApiError } from '../../shared/api';
import type { ShowcaseItem } from '../../shared/api-types';
import { $, $all, empty, fill, h, say } from '../../shared/dom';
import { sizeText } from '../../shared/size';
import { active, seg, statusBadge } from '../../shared/format';
import { editForm, type EditForm, removeItem, syncForm } from './item-edit';
import { AVAILABILITY, itemName } from './item-format';
import { move, moveTo } from './item-order';
import { type Card, sc, type ShowcaseView } from './showcase-state';
import { openVariants } from './variants/variants-panel';
import { variantsBuilding, variantsLine } from './variants/variant-rows';
import { vs } from './variants/variants-state';

export function errText(e: { message?: string } | string | null | undefined): string {
  return typeof e === 'string' ? e : (e && e.message) || 'failed';
}

/** Fills the list from a showcase answer, keeping cards that did not change; true while something is on its way. */
export function renderItems(s: ShowcaseView): boolean {
  const items = s.items;
  let busy = false;
  if (!items.length) {
    sc.cards = {};
    fill(sc.itemsBox, empty('No pictures yet. Drop some above.'));
    return false;
  }
  let list = $<HTMLOListElement>('ol.items', sc.itemsBox);
  if (!list) {
    list = h('ol', { class: 'grid items', 'aria-describedby': 'order-help' });
    fill(sc.itemsBox, list);
  }
  // Focus stays on the same control when its card is built again.
  const had = document.activeElement;
  const hadKey = had && list.contains(had) ? had.getAttribute('data-key') : null;
  const next: Record<number, Card> = {};
  items.forEach(function (it, i) {
    // A later edit may supersede the rebuild (a new rebuild_job_id): done only when none is left.
    if (sc.pending[it.id] && it.rebuild_job_id !== sc.pending[it.id]) {
      delete sc.pending[it.id];
      if (!it.rebuild_job_id)
        say(
          it.rebuild_error
            ? 'Picture ' + it.id + ' could not be rebuilt: ' + errText(it.rebuild_error)
            : 'Picture ' + it.id + ' is rebuilt with its new size and frame.',
        );
    }
    const rebuilding = !!(it.rebuild_job_id || sc.pending[it.id]);
    if (active(it.status) || rebuilding || variantsBuilding(it)) busy = true;
    const key = [JSON.stringify(it), i, items.length, s.units, rebuilding, !!vs.ve && vs.ve.itemId === it.id].join('|');
    const old = sc.cards[it.id];
    const card = old && old.key === key ? old : { key: key, el: itemCard(it, i, items.length, s.units, rebuilding) };
    const openEdit = old && card !== old ? $<HTMLDetailsElement>('details.edit', old.el) : null;
    if (openEdit && openEdit.open) {
      // An open form survives the refresh, with what was typed in it.
      card.el.replaceChild(openEdit, $('details.edit', card.el)!);
      card.el.setAttribute('draggable', 'false');
      syncForm($<EditForm>('form', openEdit)!, it, s.units, rebuilding);
    }
    next[it.id] = card;
    if (list!.children[i] !== card.el) list!.insertBefore(card.el, list!.children[i] || null);
  });
  while (list.children.length > items.length) list.removeChild(list.lastChild!);
  sc.cards = next;
  const key = sc.focusNext || (hadKey && document.activeElement !== had ? hadKey : null);
  sc.focusNext = null;
  const target = key && list.querySelector<HTMLElement>('[data-key="' + CSS.escape(key) + '"]');
  if (target) target.focus();
  // A link to one picture (#item-12, from the Analytics page): shown once its card exists.
  if (!sc.hashShown && /^#item-[0-9]+$/.test(location.hash)) {
    sc.hashShown = true;
    const linked = document.getElementById(location.hash.slice(1));
    if (linked) linked.scrollIntoView({ block: 'center' });
  }
  return busy;
}

function itemCard(it: ShowcaseItem, i: number, n: number, units: ShowcaseView['units'], rebuilding: boolean): HTMLLIElement {
  const ref = 'picture ' + it.id;
  const b = it.banner || {};
  // As the pages state it (shared/size.ts): height × width, one decimal, in the showcase's unit.
  const d = it.dimensions;
  const size = d ? sizeText(d.width_inches, d.height_inches, units === 'cm' ? 'cm' : 'in', true) : null;
  const line = function (parts: (string | null | undefined)[], cls?: string) {
    const t = parts.filter(Boolean).join(' · ');
    return t ? h('p', { class: cls || 'meta', text: t }) : null;
  };
  const soldId = 'sold-' + it.id;
  const sold: HTMLInputElement = h('input', {
    type: 'checkbox',
    id: soldId,
    'data-key': soldId,
    checked: it.availability === 'sold',
    on: {
      change: function () {
        const want = sold.checked ? 'sold' : 'available';
        api('PATCH', sc.base + '/items/' + seg(it.id), { availability: want }).then(
          function () {
            say(want === 'sold' ? 'Picture ' + it.id + ' marked sold.' : 'Picture ' + it.id + ' marked available.');
            sc.actions.load();
          },
          function (e: ApiError) {
            sold.checked = !sold.checked;
            say(e.error.message);
          },
        );
      },
    },
  });
  const moveBtn = function (dir: 'up' | 'down', label: string, disabled: boolean) {
    return h('button', {
      type: 'button',
      class: 'secondary',
      'data-key': dir + '-' + it.id,
      'aria-label': label + ': ' + ref,
      disabled: disabled,
      text: label,
      on: {
        click: function () {
          move(it.id, dir === 'up' ? -1 : 1);
        },
      },
    });
  };
  const card = h(
    'li',
    {
      class: 'card item',
      id: 'item-' + it.id,
      'data-testid': 'item',
      'data-status': it.status,
      'data-id': String(it.id),
      'data-availability': it.availability || 'available',
      draggable: 'true',
    },
    [
      it.preview_url
        ? h('img', { src: it.preview_url, alt: 'Picture ' + it.id, loading: 'lazy', draggable: 'false' })
        : h('div', { class: 'ph', 'aria-hidden': 'true' }),
      h('p', { class: 'name' }, [statusBadge(it.status), ' ', h('strong', { text: itemName(it) })]),
      active(it.status) ? h('progress', { max: '100', value: String(it.progress), 'aria-label': 'Progress of ' + ref }) : null,
      line([it.artist, it.year]),
      line([it.medium, it.edition ? 'Edition ' + it.edition : null]),
      line([size, b.price]),
      it.availability && it.availability !== 'available'
        ? h('p', { class: 'avail a-' + it.availability, 'data-testid': 'availability' }, [
            h('span', { class: 'dot', 'aria-hidden': 'true' }),
            AVAILABILITY[it.availability] || it.availability,
          ])
        : null,
      rebuilding ? h('p', { class: 'rebuilding', 'data-testid': 'rebuilding', text: 'Rebuilding…' }) : null,
      variantsLine(it),
      it.rebuild_error ? h('p', { class: 'error', text: 'Rebuild failed: ' + errText(it.rebuild_error) }) : null,
      it.error ? h('p', { class: 'error', text: it.error.message }) : null,
      h('div', { class: 'controls' }, [
        h('span', { class: 'check' }, [
          sold,
          h('label', { for: soldId }, ['Sold', h('span', { class: 'sr-only', text: ' (' + ref + ')' })]),
        ]),
        moveBtn('up', 'Move up', i === 0),
        moveBtn('down', 'Move down', i === n - 1),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary wide',
            'data-key': 'variants-' + it.id,
            'aria-controls': 'variants-panel',
            'aria-expanded': String(!!vs.ve && vs.ve.itemId === it.id),
            on: {
              click: function () {
                openVariants(it.id);
              },
            },
          },
          [
            'Variants',
            h('span', { class: 'sr-only', text: ' of ' + ref }),
            it.variants && it.variants.length ? ' (' + it.variants.length + ')' : '',
          ],
        ),
      ]),
      editForm(it, units),
      h('button', {
        type: 'button',
        class: 'danger',
        'aria-label': 'Delete ' + ref,
        text: 'Delete',
        disabled: active(it.status) || rebuilding,
        on: {
          click: function () {
            removeItem(it);
          },
        },
      }),
    ],
  );
  // Drag and drop: a card dropped on another takes its place (Move up / Move down do the same by keyboard).
  card.addEventListener('dragstart', function (e) {
    if (sc.ordering) return e.preventDefault();
    sc.dragging = it.id;
    card.classList.add('dragging');
    e.dataTransfer!.effectAllowed = 'move';
    e.dataTransfer!.setData('text/plain', String(it.id));
  });
  card.addEventListener('dragend', function () {
    sc.dragging = null;
    $all('.dragging, .drop-target', sc.itemsBox).forEach(function (el) {
      el.classList.remove('dragging', 'drop-target');
    });
  });
  card.addEventListener('dragover', function (e) {
    if (sc.dragging === null || sc.dragging === it.id) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = 'move';
    card.classList.add('drop-target');
  });
  card.addEventListener('dragleave', function (e) {
    if (!card.contains(e.relatedTarget as Node | null)) card.classList.remove('drop-target');
  });
  card.addEventListener('drop', function (e) {
    if (sc.dragging === null) return;
    e.preventDefault();
    const from = sc.dragging;
    sc.dragging = null;
    card.classList.remove('drop-target');
    if (from !== it.id) moveTo(from, it.id);
  });
  return card;
}
