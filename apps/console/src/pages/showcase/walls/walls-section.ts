/**
 * The "Gallery walls" section of a showcase page, built by the script after the variants panel: the saved
 * walls (GET …/walls) with their poster, size, page link, Edit and Delete; and the arranger, where 2 to 12
 * completed pictures are laid out by the API (POST …/walls/layout: row, grid, salon), then moved by drag
 * (mouse, pen or touch) or arrow keys in 0.5 in steps on a wall drawn to scale with a sofa beneath, and
 * saved (POST …/walls, PATCH for an edit) as one AR model. `sync(showcase)` follows the page's loads.
 */
import type { Showcase, ShowcaseItem } from '../../../shared/api-types';
import { $, h } from '../../../shared/dom';
import { choose, close, open, relayout, renderPicks } from './wall-arranger';
import { loadList } from './wall-list';
import { save } from './wall-save';
import { draw, showArrangement } from './wall-stage';
import { W, type WallElements } from './wall-state';

/** What the showcase page tells the section: each new answer for the showcase. */
export interface GalleryWalls {
  sync(s: Showcase): void;
}

export function galleryWalls(base: string, itemName: (it: ShowcaseItem) => string): GalleryWalls {
  W.WALLS = base + '/walls';
  W.itemName = itemName;
  W.showcase = null;
  W.walls = [];
  W.A = null;
  W.layoutSeq = 0;
  W.drag = null;

  const anchor = $('[data-testid=variants]');
  if (!anchor) return { sync: function () {} };
  // ---- the section: list, result of the last save, arranger (built once)

  W.E = {} as WallElements;
  W.E.list = h('div', { 'data-testid': 'wall-list' }, [h('p', { class: 'loading', text: 'Loading…' })]);
  W.E.result = h('div', { class: 'wall-result', 'data-testid': 'wall-result', hidden: true });
  W.E.newBtn = h('button', { type: 'button', 'data-action': 'new-wall', 'aria-controls': 'wall-arranger', text: 'New wall' });
  W.E.title = h('h3', { id: 'arranger-title', tabindex: '-1' });
  W.E.name = h('input', {
    id: 'wall-name',
    name: 'name',
    maxlength: '80',
    placeholder: 'Gallery wall',
    'aria-describedby': 'wall-name-err',
  });
  W.E.nameErr = h('p', { class: 'error', id: 'wall-name-err', hidden: true });
  W.E.picks = h('ul', { class: 'ar-picks', 'data-testid': 'wall-picks' });
  W.E.picksHint = h('p', { class: 'hint', id: 'wall-picks-hint' });
  W.E.arrBtns = (['row', 'grid', 'salon'] as const).map(function (a) {
    return h('button', {
      type: 'button',
      class: 'secondary',
      'data-arrangement': a,
      'aria-pressed': 'false',
      text: a.charAt(0).toUpperCase() + a.slice(1),
      on: {
        click: function () {
          choose(a);
        },
      },
    });
  });
  W.E.arrNow = h('p', { class: 'hint', 'data-testid': 'wall-arrangement', 'aria-live': 'polite' });
  W.E.gap = h('input', {
    id: 'wall-gap',
    name: 'gap_inches',
    type: 'number',
    min: '0',
    max: '48',
    step: '0.5',
    value: '3',
    inputmode: 'decimal',
    'aria-describedby': 'wall-error',
  });
  W.E.align = h(
    'select',
    { id: 'wall-align', name: 'align', 'aria-describedby': 'wall-error' },
    [
      ['center', 'Centre'],
      ['top', 'Top'],
      ['bottom', 'Bottom'],
    ].map(function (o) {
      return h('option', { value: o[0], text: o[1] });
    }),
  );
  W.E.columns = h('input', {
    id: 'wall-columns',
    name: 'columns',
    type: 'number',
    min: '1',
    max: '12',
    step: '1',
    placeholder: 'Auto',
    inputmode: 'numeric',
    'aria-describedby': 'wall-error',
  });
  W.E.stage = h('div', { class: 'wall-stage', 'data-testid': 'wall-stage' });
  W.E.size = h('p', { class: 'wall-size', 'data-testid': 'wall-size' });
  W.E.live = h('p', { class: 'sr-only', 'aria-live': 'polite', 'data-testid': 'wall-live' });
  W.E.problem = h('p', { class: 'error', id: 'wall-problem', 'data-testid': 'wall-problem', 'aria-live': 'polite' });
  W.E.err = h('p', { class: 'error', id: 'wall-error', 'data-testid': 'wall-error', role: 'alert', hidden: true });
  W.E.save = h('button', {
    type: 'button',
    'data-action': 'save-wall',
    'aria-describedby': 'wall-problem wall-price',
    text: 'Save wall',
    on: { click: save },
  });
  W.E.cancel = h('button', { type: 'button', class: 'secondary', text: 'Cancel', on: { click: close } });
  W.E.price = h('span', { class: 'hint', id: 'wall-price' });
  const field = function (id: string, label: string, control: HTMLElement, hint?: HTMLElement) {
    return h('div', { class: 'field' }, [h('label', { for: id, text: label }), control, hint || null]);
  };
  W.E.arranger = h(
    'div',
    {
      class: 'arranger',
      id: 'wall-arranger',
      'data-testid': 'wall-arranger',
      role: 'group',
      'aria-labelledby': 'arranger-title',
      hidden: true,
    },
    [
      W.E.title,
      h('div', { class: 'ar-grid' }, [
        h('div', { class: 'ar-side' }, [
          field('wall-name', 'Wall name', W.E.name, W.E.nameErr),
          h('fieldset', { class: 'ar-set' }, [h('legend', { text: 'Pictures (2 to 12)' }), W.E.picksHint, W.E.picks]),
          h('fieldset', { class: 'ar-set' }, [
            h('legend', { text: 'Arrangement' }),
            h('div', { class: 'ar-btns' }, W.E.arrBtns),
            W.E.arrNow,
            h('div', { class: 'ar-opts' }, [
              field('wall-gap', 'Gap (in)', W.E.gap),
              field('wall-align', 'Align', W.E.align),
              field('wall-columns', 'Columns', W.E.columns),
            ]),
          ]),
        ]),
        h('div', { class: 'ar-main' }, [
          W.E.stage,
          W.E.size,
          h('p', {
            class: 'hint',
            id: 'wall-drag-help',
            text: 'Drag a picture to move it (in 0.5 in steps), or select it and use the arrow keys: 1 in, 6 in with Shift. Positions are the centres of the framed pictures from the centre of the wall.',
          }),
          W.E.live,
          W.E.problem,
          W.E.err,
          h('div', { class: 'ar-bar' }, [W.E.save, W.E.cancel, W.E.price]),
        ]),
      ]),
    ],
  );
  W.E.section = h('section', { class: 'card walls', id: 'walls-panel', 'data-testid': 'walls', 'aria-labelledby': 'walls-title' }, [
    h('div', { class: 'sec-head' }, [h('h2', { id: 'walls-title', text: 'Gallery walls' }), W.E.newBtn]),
    h('p', {
      class: 'hint',
      text: '2 to 12 pictures hung together as one AR model, each at its own size, frame and place. A saved wall costs 1 credit, gets its own page and shows as a card on the showcase page.',
    }),
    W.E.result,
    W.E.arranger,
    h('h3', { class: 'walls-saved', text: 'Saved walls' }),
    W.E.list,
  ]);
  anchor.parentNode!.insertBefore(W.E.section, anchor.nextSibling);

  W.E.newBtn.addEventListener('click', function () {
    open(null);
  });
  [W.E.gap, W.E.align, W.E.columns].forEach(function (el) {
    el.addEventListener(el.tagName === 'SELECT' ? 'change' : 'input', function () {
      if (!W.A) return;
      W.A.touched = true;
      if (W.A.arrangement !== 'custom') relayout(250);
      else showArrangement();
    });
  });
  W.E.name.addEventListener('input', function () {
    W.E.name.removeAttribute('aria-invalid');
    W.E.nameErr.hidden = true;
  });

  const resizeObs = window.ResizeObserver
    ? new ResizeObserver(function () {
        if (W.A && !W.drag) draw();
      })
    : null;
  if (resizeObs) resizeObs.observe(W.E.stage);
  else
    window.addEventListener('resize', function () {
      if (W.A && !W.drag) draw();
    });

  loadList();

  return {
    /** A new answer for the showcase: the pictures to choose from follow it (a picture gone is unticked). */
    sync: function (s) {
      W.showcase = s;
      if (!W.A) return;
      const A = W.A;
      const ok: Record<number, boolean> = {};
      s.items.forEach(function (it) {
        if (it.status === 'completed') ok[it.id] = true;
      });
      const before = A.sel.length;
      A.sel = A.sel.filter(function (x) {
        return ok[x.item_id];
      });
      const key = s.items
        .filter(function (it) {
          return it.status === 'completed';
        })
        .map(function (it) {
          return it.id + ':' + (it.variants || []).length;
        })
        .join(',');
      if (key !== A.picksKey) renderPicks();
      if (A.sel.length !== before) relayout(0);
    },
  };
}
