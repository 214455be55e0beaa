/** Building and filling the page's elements: text is always set as text, never as HTML. */
import type { ErrorLike } from './api';

/** The first element matching `sel` in `root` (the document by default), null when none. */
export function $<E extends Element = HTMLElement>(sel: string, root?: ParentNode | null): E | null {
  return (root || document).querySelector<E>(sel);
}
export function $all<E extends Element = HTMLElement>(sel: string, root?: ParentNode | null): E[] {
  return Array.prototype.slice.call((root || document).querySelectorAll<E>(sel));
}

/** Event listeners by event name, as `h` adds them (`on: {click: fn}`). */
export type Listeners = { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
export type AttrValue = string | number | boolean | null | undefined;
/**
 * An element's attributes: `text` is its text; `on` its listeners; any other is set as an attribute (true:
 * present and empty; false, null and undefined: left out).
 */
export interface Attrs {
  on?: Listeners;
  [name: string]: AttrValue | Listeners;
}
/** A child: a node, or a string as a text node; null and undefined are left out. */
export type Child = Node | string | null | undefined;

/** Builds an element: h('a', {href: '/x', text: 'Go'}, [children]). Text is always set as text, never HTML. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, children?: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  const a: Attrs = attrs || {};
  Object.keys(a).forEach(function (k) {
    const v = a[k];
    if (v === undefined || v === null || v === false) return;
    if (k === 'text') el.textContent = String(v);
    else if (k === 'on') {
      const on = v as Record<string, EventListener>;
      Object.keys(on).forEach(function (ev) {
        el.addEventListener(ev, on[ev]);
      });
    } else el.setAttribute(k, v === true ? '' : String(v));
  });
  (children || []).forEach(function (c) {
    if (c !== null && c !== undefined) el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  });
  return el;
}

export type Nodes = Node | null | undefined | (Node | null | undefined)[];

/** Replaces what `el` holds with `nodes` (nulls left out). */
export function fill(el: Element, nodes: Nodes): void {
  el.textContent = '';
  ([] as (Node | null | undefined)[]).concat(nodes).forEach(function (n) {
    if (n) el.appendChild(n);
  });
}

/** The page's status line (a live region): what just happened, for everyone and for screen readers. */
export function say(msg: string): void {
  const s = $('[data-testid=status]');
  if (s) s.textContent = msg;
}

/** Shows an API error next to the form field it names (error.param), else on the form. */
export function showError(form: HTMLElement, err: ErrorLike): void {
  $all('.error[data-api]', form).forEach(function (e) {
    e.hidden = true;
    e.textContent = '';
  });
  $all('[aria-invalid]', form).forEach(function (e) {
    e.removeAttribute('aria-invalid');
  });
  const e = (err && err.error) || {};
  const msg = e.message || 'Something went wrong.';
  const input = e.param && form.querySelector('[name="' + String(e.param).split(/[.[]/)[0] + '"]');
  let box: HTMLElement | null = input ? document.getElementById(String(input.getAttribute('aria-describedby'))) : null;
  if (!box) box = $('.error[data-error]', form) || $('.error', form);
  if (input) input.setAttribute('aria-invalid', 'true');
  if (box) {
    box.textContent = msg;
    box.hidden = false;
    box.setAttribute('data-api', '');
  }
  say(msg);
}

export function clearError(form: HTMLElement): void {
  $all('.error', form).forEach(function (e) {
    e.hidden = true;
  });
}

export function empty(text: string): HTMLParagraphElement {
  return h('p', { class: 'empty', text: text });
}

/** A table cell's content: a node as is, anything else as text ("—" for none). */
export type Cell = Node | string | number | null | undefined;

export function table(headers: string[], rows: Cell[][], caption: string): HTMLDivElement {
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption }, [
    h('table', {}, [
      h('caption', { class: 'sr-only', text: caption }),
      h('thead', {}, [
        h(
          'tr',
          {},
          headers.map(function (t) {
            return h('th', { scope: 'col', text: t });
          }),
        ),
      ]),
      h(
        'tbody',
        {},
        rows.map(function (r) {
          return h(
            'tr',
            {},
            r.map(function (c) {
              return h('td', {}, [c === null || c === undefined ? '—' : typeof c === 'object' ? c : String(c)]);
            }),
          );
        }),
      ),
    ]),
  ]);
}

/** A rejection handler that shows the error (or "Could not load.") in place of `el`'s content. */
export function failed(el: Element): (err: ErrorLike) => void {
  return function (err) {
    fill(el, h('p', { class: 'error', role: 'alert', text: (err && err.error && err.error.message) || 'Could not load.' }));
  };
}

/** The form `data-form=name`, its submit handled here: no page load, errors cleared, then `fn(form, data)`. */
export function onSubmit(name: string, fn: (form: HTMLFormElement, fd: FormData) => void): HTMLFormElement | null {
  const form = $<HTMLFormElement>('[data-form="' + name + '"]');
  if (form)
    form.addEventListener('submit', function (ev) {
      ev.preventDefault();
      clearError(form);
      fn(form, new FormData(form));
    });
  return form;
}
