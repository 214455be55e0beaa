/**
 * The frames table of a connection's form: one row per option value ("Oak frame") with the frame preset it
 * means (or no frame), rows added and removed; read back as the API's `frames` object.
 */
import type { ConnectionFrames } from '../../shared/api-types';
import { $all, h } from '../../shared/dom';
import { FRAME_CHOICES, type FramePreset } from './connection-text';

/** At most this many option values (the API's limit). */
const MAX_ROWS = 50;

export interface FramesTable {
  el: HTMLFieldSetElement;
  /** The table as the API takes it; an error message instead when a row is incomplete or repeated. */
  read(): { frames: ConnectionFrames } | { error: string; input: HTMLInputElement };
  /** Marks the row of `value` (an API error's frames.<value>) invalid with `message`. */
  fail(value: string, message: string): boolean;
}

/** `prefix` keeps the ids unique on a page with several forms. */
export function framesTable(prefix: string, initial: ConnectionFrames): FramesTable {
  const list = h('ol', { class: 'frames', 'data-testid': 'frames' });
  const err = h('p', { class: 'error', id: prefix + '-frames-err', hidden: true });
  let seq = 0;
  const addBtn = h('button', {
    type: 'button',
    class: 'secondary',
    text: 'Add an option value',
    on: {
      click: function () {
        const row = addRow('', null);
        $all<HTMLInputElement>('input', row)[0].focus();
      },
    },
  });
  const el = h('fieldset', { class: 'frames-set' }, [
    h('legend', { text: 'Frames' }),
    h('p', {
      class: 'hint',
      id: prefix + '-frames-help',
      text: 'A variant whose option value is one of these gets that frame ("Oak frame" → Classic, "Unframed" → No frame). Compared without case.',
    }),
    list,
    err,
    addBtn,
  ]);

  function renumber() {
    $all<HTMLLIElement>('li', list).forEach(function (li, i) {
      const n = String(i + 1);
      $all('.row-n', li).forEach(function (s) {
        s.textContent = n;
      });
    });
    addBtn.hidden = list.children.length >= MAX_ROWS;
  }

  function addRow(value: string, preset: FramePreset | null): HTMLLIElement {
    const id = prefix + '-fr' + seq++;
    const select = h(
      'select',
      { id: id + '-p', name: 'frame_preset' },
      FRAME_CHOICES.map(function (c) {
        return h('option', { value: c.value, text: c.label });
      }),
    );
    select.value = preset === 'none' || !preset ? '' : preset;
    const li: HTMLLIElement = h('li', { class: 'frame-row' }, [
      h('div', { class: 'field' }, [
        h('label', { for: id + '-v' }, ['Option value ', h('span', { class: 'sr-only' }, ['of row ', h('span', { class: 'row-n' })])]),
        h('input', { id: id + '-v', name: 'frame_value', value: value, maxlength: '100', 'aria-describedby': prefix + '-frames-help' }),
      ]),
      h('div', { class: 'field' }, [
        h('label', { for: id + '-p' }, ['Frame ', h('span', { class: 'sr-only' }, ['of row ', h('span', { class: 'row-n' })])]),
        select,
      ]),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          on: {
            click: function () {
              const next = (li.nextElementSibling || li.previousElementSibling) as HTMLElement | null;
              list.removeChild(li);
              renumber();
              const to = next ? $all<HTMLInputElement>('input', next)[0] : addBtn;
              to.focus();
            },
          },
        },
        ['Remove', h('span', { class: 'sr-only' }, [' row ', h('span', { class: 'row-n' })])],
      ),
    ]);
    list.appendChild(li);
    renumber();
    return li;
  }

  sortedKeys(initial).forEach(function (k) {
    addRow(k, initial[k]);
  });

  function clear() {
    err.hidden = true;
    $all('[aria-invalid]', list).forEach(function (i) {
      i.removeAttribute('aria-invalid');
    });
  }

  return {
    el: el,
    read: function () {
      clear();
      const frames: ConnectionFrames = {};
      const seen: Record<string, boolean> = {};
      const rows = $all<HTMLLIElement>('li', list);
      for (let i = 0; i < rows.length; i++) {
        const input = $all<HTMLInputElement>('input', rows[i])[0];
        const preset = $all<HTMLSelectElement>('select', rows[i])[0].value as '' | FramePreset;
        const value = input.value.trim();
        if (!value) {
          if (!preset) continue; // an empty row: left out
          return { error: 'Row ' + (i + 1) + ': enter the option value this frame is for.', input: input };
        }
        const key = value.toLowerCase();
        if (seen[key]) return { error: 'Row ' + (i + 1) + ': "' + value + '" is already in the table.', input: input };
        seen[key] = true;
        frames[value] = preset || null;
      }
      return { frames: frames };
    },
    fail: function (value: string, message: string) {
      clear();
      const rows = $all<HTMLLIElement>('li', list);
      let input: HTMLInputElement | null = null;
      rows.forEach(function (li) {
        const i = $all<HTMLInputElement>('input', li)[0];
        if (i.value.trim() === value) input = i;
      });
      err.textContent = message;
      err.hidden = false;
      if (input) {
        (input as HTMLInputElement).setAttribute('aria-invalid', 'true');
        (input as HTMLInputElement).focus();
      }
      return true;
    },
  };
}

/** Two frames tables are the same (keys and presets; "none" and null both mean no frame). */
export function sameFrames(a: ConnectionFrames, b: ConnectionFrames): boolean {
  const norm = function (f: ConnectionFrames) {
    return Object.keys(f || {})
      .sort()
      .map(function (k) {
        return k + '\u0000' + (f[k] === 'none' ? '' : f[k] || '');
      })
      .join('\u0001');
  };
  return norm(a) === norm(b);
}

/** A frames table's option values in alphabetical order (the API keeps no order). */
export function sortedKeys(f: ConnectionFrames | null | undefined): string[] {
  return Object.keys(f || {}).sort(function (a, b) {
    return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  });
}
