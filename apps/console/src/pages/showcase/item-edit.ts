/** A picture's Edit form: its label, size, fit, frame, price and availability, saved as one PATCH of what changed. */
import { api, type ApiError } from '../../shared/api';
import type { ItemRebuild, ShowcaseItem } from '../../shared/api-types';
import { $, $all, clearError, h, say, showError } from '../../shared/dom';
import { seg } from '../../shared/format';
import { AVAILABILITY, FRAMES } from './item-format';
import { sc, type ShowcaseView } from './showcase-state';

type InchSize = NonNullable<ShowcaseItem['dimensions']>;
type CmSize = NonNullable<ShowcaseItem['dimensions_cm']>;

/** What the form shows for an item, every value as text. */
type ItemValues = Record<
  'artist' | 'title' | 'year' | 'medium' | 'edition' | 'price' | 'availability' | 'frame' | 'fit' | 'unit' | 'width' | 'height',
  string
>;
type Field = keyof ItemValues;
/** The form, with the values it was built (or last saved, or synced) with. */
export type EditForm = HTMLFormElement & { _was: ItemValues };
type Control = HTMLInputElement | HTMLSelectElement;

/** A control of the form by name (the form's `elements[name]`). */
function control(f: HTMLFormElement, name: string): Control {
  return f.elements.namedItem(name) as Control;
}

const TEXT_FIELDS: Field[] = ['artist', 'title', 'year', 'medium', 'edition', 'price'];

/** What the form shows for an item: every value as text. Sizes in the showcase's unit. */
function itemValues(it: ShowcaseItem, units: ShowcaseView['units']): ItemValues {
  const b = it.banner || {};
  const cm = units === 'cm';
  const d = cm ? it.dimensions_cm : it.dimensions;
  // The frame as the item has it: its style, or (as sent) the style alone.
  const frame = it.frame as ShowcaseItem['frame'] | string | undefined;
  const style = typeof frame === 'string' ? frame : frame && frame.style;
  return {
    artist: it.artist || '',
    title: b.title || '',
    year: it.year || '',
    medium: it.medium || '',
    edition: it.edition || '',
    price: b.price || '',
    availability: it.availability || 'available',
    frame: style && style !== 'none' ? style : '',
    fit: (it.fit && it.fit.requested) || 'crop',
    unit: cm ? 'cm' : 'in',
    // Two decimals, as the card shows them (the same size within 0.01 in, see sameSize).
    width: d ? String(Math.round((cm ? (d as CmSize).width_cm : (d as InchSize).width_inches) * 100) / 100) : '',
    height: d ? String(Math.round((cm ? (d as CmSize).height_cm : (d as InchSize).height_inches) * 100) / 100) : '',
  };
}
function formValues(f: EditForm): ItemValues {
  const v = {} as ItemValues;
  (Object.keys(f._was) as Field[]).forEach(function (k) {
    v[k] = String(control(f, k).value);
  });
  return v;
}
function num(v: string): number | null {
  return String(v).trim() === '' ? null : Number(v);
}
function toInches(v: string, unit: string): number | null {
  const n = num(v);
  return n === null || unit !== 'cm' ? n : n / 2.54;
}
/** The same size, whatever unit each is written in. */
function sameSize(a: ItemValues, b: ItemValues): boolean {
  const eq = function (x: number | null, y: number | null) {
    return x === null || y === null ? x === y : Math.abs(x - y) < 0.01;
  };
  return eq(toInches(a.width, a.unit), toInches(b.width, b.unit)) && eq(toInches(a.height, a.unit), toInches(b.height, b.unit));
}
/** Fields the person has not touched follow the item (the Sold box, an import, a finished rebuild). */
export function syncForm(f: EditForm, it: ShowcaseItem, units: ShowcaseView['units'], rebuilding: boolean): void {
  const now = itemValues(it, units);
  const cur = formValues(f);
  (Object.keys(now) as Field[]).forEach(function (k) {
    if (rebuilding && /^(width|height|unit|fit|frame)$/.test(k)) return;
    if (cur[k] === f._was[k] && now[k] !== f._was[k]) {
      control(f, k).value = now[k];
      f._was[k] = now[k];
    }
  });
}
/** The PATCH body: only what changed; an emptied text is null (cleared). */
function changes(was: ItemValues, now: ItemValues): Record<string, string | number | null> {
  const patch: Record<string, string | number | null> = {};
  TEXT_FIELDS.forEach(function (k) {
    if (now[k].trim() !== was[k].trim()) patch[k] = now[k].trim() || null;
  });
  if (now.availability !== was.availability) patch.availability = now.availability;
  if (now.frame !== was.frame) patch.frame = now.frame || null;
  if (!sameSize(now, was)) {
    const u = now.unit === 'cm' ? '_cm' : '_inches';
    patch['width' + u] = num(now.width);
    patch['height' + u] = num(now.height);
  }
  if (now.fit !== was.fit) patch.fit = now.fit;
  return patch;
}
/** A 400's param as the form's field: width_cm -> width, banner.title -> title, frame.style -> frame. */
function fieldOf(param: string): string {
  const parts = String(param || '')
    .split(/[.[\]]+/)
    .filter(Boolean);
  if (parts[0] === 'banner') parts.shift();
  const k = parts[0] || '';
  return /^width_/.test(k) ? 'width' : /^(height|depth)_/.test(k) ? 'height' : k;
}

export function editForm(it: ShowcaseItem, units: ShowcaseView['units']): HTMLDetailsElement {
  const p = 'e' + it.id + '-';
  const was = itemValues(it, units);
  const field = function (name: Field, label: string, control: Control) {
    control.id = p + name;
    control.name = name;
    control.setAttribute('aria-describedby', p + name + '-err');
    return h('div', { class: 'field f-' + name }, [
      h('label', { for: p + name, text: label }),
      control,
      h('p', { class: 'error', id: p + name + '-err', hidden: true }),
    ]);
  };
  const text = function (name: Field, label: string, max: number) {
    return field(name, label, h('input', { value: was[name], maxlength: String(max), autocomplete: 'off' }));
  };
  const select = function (name: Field, label: string, options: [string, string][]) {
    return field(
      name,
      label,
      h(
        'select',
        {},
        options.map(function (o) {
          return h('option', { value: o[0], selected: o[0] === was[name], text: o[1] });
        }),
      ),
    );
  };
  const number = function (name: Field, label: string) {
    return field(name, label, h('input', { type: 'number', min: '0', step: 'any', inputmode: 'decimal', value: was[name] }));
  };
  const f = h('form', { class: 'edit-form', novalidate: true }, [
    text('artist', 'Artist', 120),
    text('title', 'Title', 200),
    h('div', { class: 'pair' }, [text('year', 'Year', 20), text('edition', 'Edition', 60)]),
    text('medium', 'Medium', 200),
    h('fieldset', { class: 'size' }, [
      h('legend', { text: 'Size' }),
      number('width', 'Width'),
      number('height', 'Height'),
      select('unit', 'Unit', [
        ['in', 'in'],
        ['cm', 'cm'],
      ]),
    ]),
    h('div', { class: 'pair' }, [
      select('fit', 'Fit', [
        ['crop', 'Crop'],
        ['stretch', 'Stretch'],
      ]),
      select('frame', 'Frame', FRAMES),
    ]),
    h('div', { class: 'pair' }, [
      text('price', 'Price', 50),
      select(
        'availability',
        'Availability',
        Object.keys(AVAILABILITY).map(function (k): [string, string] {
          return [k, AVAILABILITY[k]];
        }),
      ),
    ]),
    h('p', { class: 'error', 'data-error': 'form', hidden: true }),
    h('button', { type: 'submit', 'data-key': 'save-' + it.id, text: 'Save' }),
  ]) as EditForm;
  f._was = was;
  if (it.variants && it.variants.length) {
    // The API takes size and frame per variant then (item_has_variants): set in the Variants table.
    ['width', 'height', 'unit', 'fit', 'frame'].forEach(function (k) {
      control(f, k).disabled = true;
    });
    f.insertBefore(h('p', { class: 'hint', text: 'Sizes and frames are set per variant: use Variants.' }), $('fieldset.size', f));
  }
  // A new unit converts the numbers shown: the size stays the same.
  control(f, 'unit').addEventListener('change', function () {
    const to = control(f, 'unit').value;
    ['width', 'height'].forEach(function (k) {
      const el = control(f, k);
      if (el.value === '') return;
      const n = Number(el.value);
      el.value = String(Math.round((to === 'cm' ? n * 2.54 : n / 2.54) * 100) / 100);
    });
  });
  let busy = false;
  f.addEventListener('submit', function (ev) {
    ev.preventDefault();
    if (busy) return;
    clearError(f);
    $all('[aria-invalid]', f).forEach(function (el) {
      el.removeAttribute('aria-invalid');
    });
    const now = formValues(f);
    const patch = changes(f._was, now);
    if (!Object.keys(patch).length) return say('Nothing changed for picture ' + it.id + '.');
    busy = true;
    api<ShowcaseItem | ItemRebuild>('PATCH', sc.base + '/items/' + seg(it.id), patch).then(
      function (r) {
        busy = false;
        f._was = now;
        // 202 {item, rebuild_job_id}: the files are built again; 200: the item, changed at once.
        if (r && r.rebuild_job_id) {
          sc.pending[it.id] = r.rebuild_job_id;
          say('Saved picture ' + it.id + '. Rebuilding its AR files…');
        } else say('Saved picture ' + it.id + '.');
        details.open = false;
        sc.focusNext = 'edit-' + it.id;
        summary.focus();
        sc.actions.load();
      },
      function (e: ApiError) {
        busy = false;
        if (e.error && e.error.param) e.error.param = fieldOf(e.error.param);
        showError(f, e);
      },
    );
  });
  const summary = h('summary', { 'data-key': 'edit-' + it.id }, ['Edit', h('span', { class: 'sr-only', text: ' picture ' + it.id })]);
  const details = h('details', { class: 'edit' }, [summary, f]);
  // Text in the form can be selected with the mouse: the card is not draggable while it is open.
  details.addEventListener('toggle', function () {
    const card = details.closest('.item');
    if (card) card.setAttribute('draggable', details.open ? 'false' : 'true');
  });
  return details;
}

export function removeItem(it: ShowcaseItem): void {
  if (!confirm('Delete picture ' + it.id + '?')) return;
  api('DELETE', sc.base + '/items/' + seg(it.id)).then(
    function () {
      say('Picture deleted.');
      sc.actions.load();
    },
    function (e: ApiError) {
      say(e.error.message);
    },
  );
}
