/** The variants table: a row per variant with its inputs, actions (add, duplicate, delete, move, drag). */
import { $, $all, empty, fill, h, say } from '../../../shared/dom';
import { AVAILABILITY, FRAMES } from '../item-format';
import { capital, unitLabel, vBadge, vDirty, vIndex, vRow } from './variant-rows';
import { vDraw } from './variants-preview';
import { MOULDED, type VariantRow, vs } from './variants-state';

/** The row's fields an input or select edits as text. */
type TextKey = 'sku' | 'name' | 'width' | 'height' | 'frame' | 'frame_color' | 'mat' | 'mat_color' | 'price' | 'availability';
type Control = HTMLInputElement | HTMLSelectElement;

function vRef(r: VariantRow, n: number): string {
  return 'row ' + n + (r.sku.trim() ? ' (' + r.sku.trim() + ')' : '');
}
function vSelect(r: VariantRow): void {
  const ve = vs.ve!;
  if (ve.selected === r.key) return;
  ve.selected = r.key;
  $all('tr.selected', vs.body).forEach(function (tr) {
    tr.classList.remove('selected');
  });
  const tr = vs.body.querySelector('tr[data-row="' + CSS.escape(r.key) + '"]');
  if (tr) tr.classList.add('selected');
  vDraw();
}
/** A value typed in: the model, the unsaved mark, the drawing. */
function vChanged(): void {
  const ve = vs.ve!;
  const d = vDirty();
  ve.el.dirty.textContent = d ? 'Unsaved changes' : '';
  ve.el.reset.hidden = !d;
  vDraw();
}

export function vAdd(): void {
  const ve = vs.ve!;
  if (ve.rows.length >= vs.MAX_VARIANTS) return say('At most ' + vs.MAX_VARIANTS + ' variants per picture.');
  const it = ve.item;
  const last = ve.rows[ve.rows.length - 1];
  const r = vRow({ sku: '', availability: 'available', default: !ve.rows.length }, it, ve.units);
  if (last) {
    r.width = last.width;
    r.height = last.height;
  }
  ve.rows.push(r);
  ve.selected = r.key;
  ve.focusNext = r.key + '-sku';
  vRender();
  say('Variant added as row ' + ve.rows.length + '. Give it a SKU.');
}
function vDuplicate(r: VariantRow): void {
  const ve = vs.ve!;
  if (ve.rows.length >= vs.MAX_VARIANTS) return say('At most ' + vs.MAX_VARIANTS + ' variants per picture.');
  const c = {} as VariantRow;
  (Object.keys(r) as (keyof VariantRow)[]).forEach(function (k) {
    (c as unknown as Record<string, unknown>)[k] = r[k];
  });
  const taken = ve.rows.map(function (x) {
    return x.sku.trim();
  });
  let n = 1;
  const stem = r.sku.trim() + '-COPY';
  c.sku = stem;
  while (taken.indexOf(c.sku) >= 0) c.sku = stem + '-' + ++n;
  c.key = 'n' + ++vs.seq;
  c.id = null;
  c.default = false;
  c.status = 'new';
  c.build = null;
  c.error = null;
  c.errors = {};
  const at = vIndex(r.key) + 1;
  ve.rows.splice(at, 0, c);
  ve.selected = c.key;
  ve.focusNext = c.key + '-sku';
  vRender();
  const input = vs.body.querySelector<HTMLInputElement>('[data-key="' + CSS.escape(c.key) + '-sku"]');
  if (input) input.select();
  say('Row ' + at + ' duplicated as row ' + (at + 1) + ' (' + c.sku + ').');
}
function vDelete(r: VariantRow): void {
  const ve = vs.ve!;
  const at = vIndex(r.key);
  ve.rows.splice(at, 1);
  if (r.default && ve.rows.length) ve.rows[0].default = true;
  const next = ve.rows[at] || ve.rows[at - 1];
  if (ve.selected === r.key) ve.selected = next ? next.key : null;
  ve.focusNext = next ? next.key + '-delete' : 'v-add';
  vRender();
  say('Row ' + (at + 1) + (r.sku.trim() ? ' (' + r.sku.trim() + ')' : '') + ' deleted. Save to apply.');
}
function vMove(r: VariantRow, to: number, focusKey: string | null): void {
  const ve = vs.ve!;
  const from = vIndex(r.key);
  if (from < 0 || to < 0 || to >= ve.rows.length || to === from) return;
  ve.rows.splice(from, 1);
  ve.rows.splice(to, 0, r);
  ve.focusNext = focusKey;
  vRender();
  say('Row ' + (r.sku.trim() || 'new') + ' moved to position ' + (to + 1) + ' of ' + ve.rows.length + '.');
}
function vMoveBy(r: VariantRow, delta: number): void {
  const ve = vs.ve!;
  const to = vIndex(r.key) + delta;
  const n = ve.rows.length;
  // Focus follows the row; at either end, onto the button still usable.
  const dir = delta < 0 ? (to === 0 ? 'down' : 'up') : to === n - 1 ? 'up' : 'down';
  vMove(r, to, r.key + '-' + dir);
}

function colorOptions(current: string, first?: [string, string]): [string, string][] {
  const opts = (first ? [first] : []).concat(
    vs.COLOR_NAMES.map(function (c): [string, string] {
      return [c, capital(c)];
    }),
  );
  if (current && current.charAt(0) === '#') opts.push([current, current]);
  return opts;
}

/** One cell: its controls, each with a label (seen on phones, read by screen readers), and the cell's error line. */
function vCell(r: VariantRow, n: number, cls: string, name: string, controls: { name: string; label: string; el: Control }[]) {
  const errId = r.key + '-' + name + '-err';
  const kids: Node[] = [];
  controls.forEach(function (c) {
    const id = 'v-' + r.key + '-' + c.name;
    const el = c.el;
    el.id = id;
    el.setAttribute('data-key', r.key + '-' + c.name);
    el.setAttribute('aria-describedby', errId);
    if (r.errors.control === c.name) el.setAttribute('aria-invalid', 'true');
    kids.push(h('label', { for: id, class: 'vt-l' }, [c.label, h('span', { class: 'sr-only', text: ' (row ' + n + ')' })]), el);
  });
  const msg = r.errors.cell === name ? r.errors.message : '';
  kids.push(h('p', { class: 'error', id: errId, hidden: !msg, text: msg }));
  return h('td', { class: 'vt-' + cls }, [h('div', { class: 'vt-c' }, kids)]);
}
function vInput(r: VariantRow, k: TextKey, attrs?: Record<string, string | boolean>): HTMLInputElement {
  const el = h('input', attrs || {});
  el.value = r[k];
  el.addEventListener('input', function () {
    r[k] = el.value;
    vChanged();
  });
  return el;
}
function vSelectEl(r: VariantRow, k: TextKey, options: [string, string][], after?: (el: HTMLSelectElement) => void): HTMLSelectElement {
  const el = h(
    'select',
    {},
    options.map(function (o) {
      return h('option', { value: o[0], text: o[1] });
    }),
  );
  el.value = r[k];
  el.addEventListener('change', function () {
    r[k] = el.value;
    if (after) after(el);
    vChanged();
  });
  return el;
}

function vTr(r: VariantRow, i: number): HTMLTableRowElement {
  const n = i + 1;
  const U = unitLabel(vs.ve!.units);
  const ref = vRef(r, n);
  const btn = function (key: string, text: string, label: string, disabled: boolean, fn: () => void, cls?: string) {
    return h('button', {
      type: 'button',
      class: cls || 'secondary',
      'data-key': r.key + '-' + key,
      'data-label': label,
      'aria-label': label + ': ' + ref,
      disabled: disabled,
      text: text,
      on: { click: fn },
    });
  };
  const noMoulding = MOULDED.indexOf(r.frame) < 0;
  const frameColor = vSelectEl(r, 'frame_color', colorOptions(r.frame_color, ['', 'Standard']));
  const matWidth = vInput(r, 'mat', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' });
  const matColor = vSelectEl(r, 'mat_color', colorOptions(r.mat_color));
  const syncLook = function () {
    const none = MOULDED.indexOf(r.frame) < 0;
    frameColor.disabled = !r.frame || r.frame === 'canvas';
    matWidth.disabled = none;
    matColor.disabled = none;
  };
  const frameStyle = vSelectEl(r, 'frame', FRAMES, function () {
    // Another style: its own moulding width.
    r.frame_width = null;
    syncLook();
  });
  frameColor.disabled = !r.frame || r.frame === 'canvas';
  matWidth.disabled = noMoulding;
  matColor.disabled = noMoulding;
  const radio = h('input', { type: 'radio', name: 'v-default', checked: r.default });
  radio.addEventListener('change', function () {
    vs.ve!.rows.forEach(function (x) {
      x.default = x === r;
    });
    vChanged();
  });
  const grip = h('span', { class: 'grip', draggable: 'true', title: 'Drag to move', 'aria-hidden': 'true', text: '⠿' });
  grip.addEventListener('dragstart', function (e) {
    vs.ve!.dragKey = r.key;
    tr.classList.add('dragging');
    e.dataTransfer!.effectAllowed = 'move';
    e.dataTransfer!.setData('text/plain', r.sku);
    // Not every browser has setDragImage.
    const dt: Partial<DataTransfer> = e.dataTransfer!;
    if (dt.setDragImage) dt.setDragImage(tr, 12, 12);
  });
  grip.addEventListener('dragend', function () {
    vs.ve!.dragKey = null;
    $all('.dragging, .drop-target', vs.body).forEach(function (el) {
      el.classList.remove('dragging', 'drop-target');
    });
  });
  const skuCell = vCell(r, n, 'sku', 'sku', [
    { name: 'sku', label: 'SKU', el: vInput(r, 'sku', { maxlength: '64', autocomplete: 'off', spellcheck: 'false', required: true }) },
  ]);
  const skuBox = $('.vt-c', skuCell)!;
  skuBox.insertBefore(vBadge(r), skuBox.lastChild);
  const tr = h('tr', { 'data-row': r.key, 'data-testid': 'variant-row', class: vs.ve!.selected === r.key ? 'selected' : null }, [
    h('td', { class: 'vt-grip' }, [grip]),
    skuCell,
    vCell(r, n, 'name', 'name', [{ name: 'name', label: 'Name', el: vInput(r, 'name', { maxlength: '80', autocomplete: 'off' }) }]),
    vCell(r, n, 'size', 'size', [
      {
        name: 'width',
        label: 'Width (' + U + ')',
        el: vInput(r, 'width', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' }),
      },
      {
        name: 'height',
        label: 'Height (' + U + ')',
        el: vInput(r, 'height', { type: 'number', min: '0', step: 'any', inputmode: 'decimal' }),
      },
    ]),
    vCell(r, n, 'frame', 'frame', [
      { name: 'frame', label: 'Frame', el: frameStyle },
      { name: 'frame_color', label: 'Frame colour', el: frameColor },
    ]),
    vCell(r, n, 'mat', 'mat', [
      { name: 'mat', label: 'Mat (' + U + ')', el: matWidth },
      { name: 'mat_color', label: 'Mat colour', el: matColor },
    ]),
    vCell(r, n, 'price', 'price', [{ name: 'price', label: 'Price', el: vInput(r, 'price', { maxlength: '50', autocomplete: 'off' }) }]),
    vCell(r, n, 'avail', 'availability', [
      {
        name: 'availability',
        label: 'Availability',
        el: vSelectEl(
          r,
          'availability',
          Object.keys(AVAILABILITY).map(function (k): [string, string] {
            return [k, AVAILABILITY[k]];
          }),
        ),
      },
    ]),
    vCell(r, n, 'default', 'default', [{ name: 'default', label: 'Default', el: radio }]),
    h('td', { class: 'vt-actions' }, [
      h('div', { class: 'vt-btns' }, [
        btn('up', '↑', 'Move up', i === 0, function () {
          vMoveBy(r, -1);
        }),
        btn('down', '↓', 'Move down', i === vs.ve!.rows.length - 1, function () {
          vMoveBy(r, 1);
        }),
        btn('duplicate', 'Duplicate', 'Duplicate', vs.ve!.rows.length >= vs.MAX_VARIANTS, function () {
          vDuplicate(r);
        }),
        btn(
          'delete',
          'Delete',
          'Delete',
          false,
          function () {
            vDelete(r);
          },
          'danger',
        ),
      ]),
    ]),
  ]);
  // The buttons name their row by its SKU as typed.
  $('input', skuCell)!.addEventListener('input', function () {
    $all('button[data-label]', tr).forEach(function (b) {
      b.setAttribute('aria-label', b.getAttribute('data-label') + ': ' + vRef(r, n));
    });
  });
  tr.addEventListener('focusin', function () {
    vSelect(r);
  });
  tr.addEventListener('click', function () {
    // Not after an action that drew the table again (Duplicate selects the copy).
    if (tr.isConnected) vSelect(r);
  });
  // Drag and drop by the handle: a row dropped on another takes its place (Move up / Move down by keyboard).
  tr.addEventListener('dragover', function (e) {
    if (!vs.ve!.dragKey || vs.ve!.dragKey === r.key) return;
    e.preventDefault();
    e.dataTransfer!.dropEffect = 'move';
    tr.classList.add('drop-target');
  });
  tr.addEventListener('dragleave', function (e) {
    if (!tr.contains(e.relatedTarget as Node | null)) tr.classList.remove('drop-target');
  });
  tr.addEventListener('drop', function (e) {
    if (!vs.ve!.dragKey) return;
    e.preventDefault();
    const moving = vs.ve!.rows[vIndex(vs.ve!.dragKey)];
    vs.ve!.dragKey = null;
    if (moving && moving !== r) vMove(moving, vIndex(r.key), null);
  });
  return tr;
}

/** The table from the model; focus stays on the same control (or goes where an action sent it). */
export function vRender(): void {
  const ve = vs.ve!;
  const had = document.activeElement;
  const hadKey = had && vs.body.contains(had) ? had.getAttribute('data-key') : null;
  const U = unitLabel(ve.units);
  const cols = ['SKU', 'Name', 'Size (W × H, ' + U + ')', 'Frame', 'Mat (' + U + ')', 'Price', 'Availability', 'Default', 'Actions'];
  fill(
    ve.el.holder,
    ve.rows.length
      ? h('div', { class: 'table-wrap vt-wrap', tabindex: '0', role: 'region', 'aria-label': 'Variants table' }, [
          h('table', { class: 'vtable', 'aria-describedby': 'variants-help' }, [
            h('caption', { class: 'sr-only', text: 'Variants of picture ' + ve.itemId }),
            h('thead', {}, [
              h(
                'tr',
                {},
                [h('th', { scope: 'col' }, [h('span', { class: 'sr-only', text: 'Drag' })])].concat(
                  cols.map(function (c) {
                    return h('th', { scope: 'col', text: c });
                  }),
                ),
              ),
            ]),
            h('tbody', {}, ve.rows.map(vTr)),
          ]),
        ])
      : empty('No variants: the picture is sold in one size. Add a variant for each size and frame you sell.'),
  );
  ve.el.add.disabled = ve.rows.length >= vs.MAX_VARIANTS;
  const key = ve.focusNext || hadKey;
  ve.focusNext = null;
  const target = key && vs.body.querySelector<HTMLElement>('[data-key="' + CSS.escape(key) + '"]');
  if (target && target !== document.activeElement) target.focus();
  vChanged();
}
