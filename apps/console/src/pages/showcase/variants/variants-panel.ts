/**
 * The variants panel of a picture: opened from its card, its table (variants-table.ts) and preview
 * (variants-preview.ts) built from the item, following the page's loads, saved as one PATCH {variants}.
 */
import { api, type ApiError } from '../../../shared/api';
import type { ItemRebuild, ShowcaseItem } from '../../../shared/api-types';
import { $, fill, h, say } from '../../../shared/dom';
import { seg } from '../../../shared/format';
import { itemName } from '../item-format';
import { sc, type ShowcaseView } from '../showcase-state';
import { vBadge, vDirty, vEntry, vRow, vSnap, vValues } from './variant-rows';
import { vDraw } from './variants-preview';
import { vAdd, vRender } from './variants-table';
import { initVariantsState, type VariantEditor, type VariantRow, vs } from './variants-state';

export function openVariants(itemId: number): void {
  if (vs.ve && vs.ve.itemId === itemId) {
    $('#variants-title')!.focus();
    return;
  }
  if (vDirty() && !confirm('Discard the unsaved changes to the variants of picture ' + vs.ve!.itemId + '?')) return;
  const it = sc.showcase!.items.filter(function (x) {
    return x.id === itemId;
  })[0];
  if (!it) return;
  // The rest (its elements, rows, snapshot) is filled by vSkeleton and vInit.
  vs.ve = {
    itemId: itemId,
    units: sc.showcase!.units,
    selected: null,
    dragKey: null,
    saving: false,
    focusNext: null,
  } as Partial<VariantEditor> as VariantEditor;
  vSkeleton();
  vInit(it, null);
  vs.panel.hidden = false;
  sc.actions.renderItems(sc.showcase!);
  $('#variants-title')!.textContent = 'Variants of ' + itemName(it);
  vs.panel.scrollIntoView({ block: 'start' });
  $('#variants-title')!.focus();
}
function closeVariants(): void {
  if (vDirty() && !confirm('Discard the unsaved changes to the variants of picture ' + vs.ve!.itemId + '?')) return;
  const id = vs.ve!.itemId;
  vs.ve = null;
  vs.panel.hidden = true;
  fill(vs.body, []);
  sc.focusNext = 'variants-' + id;
  sc.actions.renderItems(sc.showcase!);
}

/** The page's variants panel: its state from the page, Close, and a warning before leaving with unsaved rows. */
export function initVariants(): void {
  initVariantsState();
  $('[data-action=close-variants]')!.addEventListener('click', closeVariants);
  window.addEventListener('beforeunload', function (e) {
    if (!vDirty()) return;
    e.preventDefault();
    e.returnValue = '';
  });
}

/** The table's holder, its error line, its buttons and the preview: built once per opening. */
function vSkeleton(): void {
  const ve = vs.ve!;
  const canvas = h('canvas', { width: '480', height: '360', role: 'img', 'data-testid': 'variant-canvas', 'aria-label': 'Preview' });
  ve.el = {
    holder: h('div', { class: 'vt-holder' }),
    err: h('p', { class: 'error', 'data-error': 'variants', id: 'variants-err', hidden: true }),
    add: h('button', { type: 'button', class: 'secondary', 'data-key': 'v-add', text: 'Add variant', on: { click: vAdd } }),
    save: h('button', { type: 'button', 'data-key': 'v-save', text: 'Save variants', on: { click: vSave } }),
    reset: h('button', {
      type: 'button',
      class: 'link',
      'data-key': 'v-reset',
      text: 'Discard changes',
      hidden: true,
      on: { click: vReset },
    }),
    dirty: h('span', { class: 'hint', 'data-testid': 'variants-dirty' }),
    title: h('h3', { 'data-testid': 'preview-title' }),
    canvas: canvas,
    caption: h('p', { class: 'hint', 'data-testid': 'preview-caption' }),
    built: h('div', { class: 'vt-built', 'data-testid': 'variant-built' }),
  };
  const E = ve.el;
  fill(vs.body, [
    E.holder,
    E.err,
    h('div', { class: 'vt-bar' }, [E.add, E.save, E.reset, E.dirty]),
    h('div', { class: 'vt-preview', 'data-testid': 'variant-preview' }, [
      E.title,
      h('div', { class: 'vt-figs' }, [h('figure', {}, [canvas, h('figcaption', { text: 'Drawn from the table, as you type' })]), E.built]),
      E.caption,
    ]),
  ]);
}

/** Rows from the item as the API shows it; `prev`: the rows just saved (a building variant's look as sent). */
function vInit(it: ShowcaseItem, prev: VariantRow[] | null): void {
  const ve = vs.ve!;
  const old: Record<string, VariantRow> = {};
  (prev || []).forEach(function (r) {
    old[r.sku.trim()] = r;
  });
  const sel =
    ve.rows &&
    ve.rows.filter(function (r) {
      return r.key === ve.selected;
    })[0];
  ve.item = it;
  ve.source = JSON.stringify(it.variants || null);
  ve.rows = (it.variants || []).map(function (v) {
    const r = vRow(v, it, ve.units);
    const p = old[r.sku];
    if (p && !('frame' in v))
      (['frame', 'frame_color', 'frame_width', 'mat', 'mat_color'] as const).forEach(function (k) {
        (r as unknown as Record<string, unknown>)[k] = p[k];
      });
    return r;
  });
  ve.bySku = {};
  ve.byId = {};
  ve.rows.forEach(function (r) {
    ve.bySku[r.sku] = vValues(r);
    ve.byId[r.id as string] = ve.bySku[r.sku];
  });
  ve.snapshot = vSnap();
  const keep =
    sel &&
    ve.rows.filter(function (r) {
      return r.key === sel.key || r.sku === sel.sku.trim();
    })[0];
  ve.selected = keep ? keep.key : ve.rows[0] ? ve.rows[0].key : null;
  vRender();
}

function vReset(): void {
  const ve = vs.ve!;
  vInit(ve.item, null);
  vErr(null);
  ve.el.save.focus();
  say('The variants are as saved again.');
}

/** The open table follows the item (polling): all of it while nothing is edited, else only each row's status. */
export function variantsSync(s: ShowcaseView): boolean {
  const ve = vs.ve;
  if (!ve) return false;
  const it = s.items.filter(function (x) {
    return x.id === ve.itemId;
  })[0];
  if (!it) {
    vs.ve = null;
    vs.panel.hidden = true;
    say('The picture was deleted.');
    return false;
  }
  if (ve.saving || JSON.stringify(it.variants || null) === ve.source) return false;
  if (!vDirty()) {
    const before = ve.rows.filter(function (r) {
      return r.status === 'building';
    }).length;
    vInit(it, ve.rows);
    const after = ve.rows.filter(function (r) {
      return r.status === 'building';
    }).length;
    if (before && !after) say('The variants of picture ' + it.id + ' are rebuilt.');
    return false;
  }
  ve.item = it;
  const byId: Record<string, NonNullable<ShowcaseItem['variants']>[number]> = {};
  (it.variants || []).forEach(function (v) {
    byId[v.id] = v;
  });
  ve.rows.forEach(function (r) {
    const v = r.id && byId[r.id];
    if (!v) return;
    r.status = v.status;
    r.build = v.status === 'ready' && v.preview_url ? v : null;
    r.error = v.error || null;
    vStatus(r);
  });
  vDraw();
  return false;
}

function vStatus(r: VariantRow): void {
  const el = vs.body.querySelector('[data-status-of="' + CSS.escape(r.key) + '"]');
  if (el) el.parentNode!.replaceChild(vBadge(r), el);
}

export function vErr(msg: string | null): void {
  const ve = vs.ve!;
  ve.el.err.textContent = msg || '';
  ve.el.err.hidden = !msg;
}
/** A 400's param as a row and cell: variants[2].frame.color -> row 2, the frame cell, its colour control. */
function vWhere(param: string | undefined): { row: number; cell?: string; control?: string } | null {
  const m = /^variants\[(\d+)\](?:\.([a-z_]+)(?:\.([a-z_]+))?)?/.exec(String(param || ''));
  if (!m || !m[2]) return null;
  const k = m[2];
  const sub = m[3];
  const at: { row: number; cell?: string; control?: string } = { row: Number(m[1]) };
  if (/^(width_|depth_)|^fit$/.test(k)) return ((at.cell = 'size'), (at.control = 'width'), at);
  if (/^height_/.test(k)) return ((at.cell = 'size'), (at.control = 'height'), at);
  if (k === 'frame' || k === 'mat') return ((at.cell = k), (at.control = sub === 'color' ? k + '_color' : k), at);
  if (['sku', 'name', 'price', 'availability', 'default'].indexOf(k) >= 0) return ((at.cell = k), (at.control = k), at);
  return null;
}
/** The API's words with rows for indexes: "variants[1].sku: A3 is also variants[0]'s" -> "A3 is also the SKU of row 1". */
function vWords(msg: string | undefined): string {
  return String(msg || 'Something went wrong.')
    .replace(/^variants\[\d+\][\w.]*: /, '')
    .replace(/is also variants\[(\d+)\]'s/, function (_, i: string) {
      return 'is also the SKU of row ' + (Number(i) + 1);
    })
    .replace(/variants\[(\d+)\]/g, function (_, i: string) {
      return 'row ' + (Number(i) + 1);
    });
}

/** Saves the table as the item's variants (PATCH …/items/{id} {variants}); a 400 is shown at its row and cell. */
export function vSave(): void {
  const ve = vs.ve!;
  if (ve.saving) return;
  ve.rows.forEach(function (r) {
    r.errors = {};
  });
  vErr(null);
  const rows = ve.rows.slice();
  const itemId = ve.itemId;
  ve.saving = true;
  ve.el.save.setAttribute('aria-disabled', 'true');
  ve.el.save.textContent = 'Saving…';
  api<ShowcaseItem | ItemRebuild>('PATCH', sc.base + '/items/' + seg(itemId), { variants: rows.map(vEntry) }).then(
    function (res) {
      if (!vs.ve || vs.ve.itemId !== itemId) return;
      vs.ve.saving = false;
      vs.ve.el.save.removeAttribute('aria-disabled');
      vs.ve.el.save.textContent = 'Save variants';
      // 202 {item, rebuild_job_id} or 200 the item.
      const item = res && 'item' in res && res.item ? res.item : (res as ShowcaseItem);
      sc.showcase!.items = sc.showcase!.items.map(function (x) {
        return x.id === item.id ? item : x;
      });
      vs.ve.focusNext = 'v-save';
      vInit(item, rows);
      const n = (item.variants || []).length;
      const b = vs.ve.rows.filter(function (r) {
        return r.status === 'building';
      }).length;
      say('Saved ' + n + (n === 1 ? ' variant' : ' variants') + ' of picture ' + itemId + (b ? '. Rebuilding ' + b + '…' : '.'));
      sc.actions.load();
    },
    function (e: ApiError) {
      if (!vs.ve || vs.ve.itemId !== itemId) return;
      vs.ve.saving = false;
      vs.ve.el.save.removeAttribute('aria-disabled');
      vs.ve.el.save.textContent = 'Save variants';
      const err: Partial<ApiError['error']> = (e && e.error) || {};
      const at = vWhere(err.param);
      const msg = vWords(err.message);
      const r = at && vs.ve.rows[at.row];
      if (r) {
        r.errors = { cell: at!.cell, control: at!.control, message: msg };
        vs.ve.selected = r.key;
        vs.ve.focusNext = r.key + '-' + at!.control;
        vRender();
        say('Row ' + (at!.row + 1) + ': ' + msg);
      } else {
        const row = /^variants\[(\d+)\]/.exec(err.param || '');
        vErr((row ? 'Row ' + (Number(row[1]) + 1) + ': ' : '') + msg);
        say(msg);
      }
    },
  );
}
