/**
 * The arranger: 2 to 12 completed pictures ticked (a variant each), laid out by the API (row, grid, salon),
 * then moved on the stage (wall-stage.ts) and saved (wall-save.ts).
 */
import { api, type ErrorLike } from '../../../shared/api';
import type { CreateWallRequest, Wall, WallLayout } from '../../../shared/api-types';
import { $all, fill, h, say } from '../../../shared/dom';
import { sizeText } from '../../../shared/size';
import { byId, errMessage, pictureName, snap, thumbOf, wallPic } from './wall-format';
import { draw, fitView, showArrangement } from './wall-stage';
import { type Arranger, MAX_PICS, type Pic, W } from './wall-state';

/** A layout or save request's options (the items added by the caller). */
export type WallRequest = Omit<CreateWallRequest, 'items'> & { items?: CreateWallRequest['items'] };

/** Opens the arranger on a saved wall (its pictures as placed) or on a new one (`w` null). */
export function open(w: Wall | null): void {
  if (!W.showcase) {
    say('The pictures are still loading: try again in a moment.');
    return;
  }
  if (W.A && W.A.dirty && !confirm('Discard the wall you are arranging?')) return;
  // scale, ox and oy come with the first drawing.
  const A = {
    wall: w,
    sel: [],
    pics: [],
    arrangement: w ? w.arrangement : 'row',
    preset: w && w.arrangement !== 'custom' ? w.arrangement : 'row',
    view: null,
    sofaTop: null,
    dirty: false,
    touched: false,
    saving: false,
  } as Partial<Arranger> as Arranger;
  W.A = A;
  W.E.title.textContent = w ? 'Edit "' + w.name + '"' : 'New gallery wall';
  W.E.save.textContent = w ? 'Save changes' : 'Save wall';
  W.E.price.textContent = w ? 'A new layout rebuilds its AR files (free).' : 'Costs 1 credit.';
  W.E.name.value = w ? w.name : '';
  W.E.gap.value = w && w.gap_inches !== null && w.gap_inches !== undefined ? String(w.gap_inches) : '3';
  W.E.align.value = (w && w.align) || 'center';
  W.E.columns.value = w && w.columns ? String(w.columns) : '';
  W.E.err.hidden = true;
  W.E.nameErr.hidden = true;
  W.E.name.removeAttribute('aria-invalid');
  const gone: number[] = [];
  if (w) {
    (w.items || []).forEach(function (x) {
      const it = byId(x.item_id);
      if (x.missing || !it || it.status !== 'completed') {
        gone.push(x.item_id);
        return;
      }
      A.sel.push({ item_id: x.item_id, variant_sku: x.variant_sku || null });
      A.pics.push(wallPic(x));
    });
    if (gone.length) {
      A.dirty = true;
      A.touched = true;
    }
  }
  W.E.arranger.hidden = false;
  W.E.newBtn.setAttribute('aria-expanded', 'true');
  renderPicks();
  showArrangement();
  if (w && A.pics.length >= 2 && !gone.length) {
    fitView(true);
    draw();
  } else relayout(0);
  if (gone.length)
    showErr({
      error: { message: 'Left out, deleted or not ready since the wall was built: ' + gone.map(pictureName).join(', ') + '.' },
    });
  W.E.arranger.scrollIntoView({ block: 'start' });
  W.E.title.focus();
}

export function close(): void {
  if (W.A && W.A.dirty && !W.A.saving && !confirm('Discard the wall you are arranging?')) return;
  const was = W.A && W.A.wall;
  W.A = null;
  clearTimeout(W.layoutTimer);
  W.E.arranger.hidden = true;
  W.E.newBtn.setAttribute('aria-expanded', 'false');
  fill(W.E.stage, []);
  const back = was && W.E.list.querySelector<HTMLElement>('[data-key="edit-' + CSS.escape(was.id) + '"]');
  (back || W.E.newBtn).focus();
}

/** The completed pictures to choose from, ticked ones first in their order, then the rest in the showcase's. */
export function renderPicks(): void {
  const items = ((W.showcase && W.showcase.items) || []).filter(function (it) {
    return it.status === 'completed';
  });
  const others = ((W.showcase && W.showcase.items) || []).length - items.length;
  W.E.picksHint.textContent =
    'They hang in the order you tick them.' +
    (others ? ' ' + others + ' picture' + (others === 1 ? ' is' : 's are') + ' not ready and not shown.' : '');
  W.A!.picksKey = items
    .map(function (it) {
      return it.id + ':' + (it.variants || []).length;
    })
    .join(',');
  const had = document.activeElement && W.E.picks.contains(document.activeElement) ? document.activeElement.id : null;
  fill(
    W.E.picks,
    items.map(function (it) {
      const ticked = W.A!.sel.filter(function (s) {
        return s.item_id === it.id;
      })[0];
      const cid = 'wall-pick-' + it.id;
      const box = h('input', {
        type: 'checkbox',
        id: cid,
        'data-item-id': String(it.id),
        checked: !!ticked,
        disabled: !ticked && W.A!.sel.length >= MAX_PICS,
      });
      const variants = it.variants || [];
      const def =
        variants.filter(function (v) {
          return v.default;
        })[0] || variants[0];
      const select = variants.length
        ? h(
            'select',
            { id: 'wall-sku-' + it.id, 'data-item-id': String(it.id) },
            variants.map(function (v) {
              const cur = ticked ? ticked.variant_sku || (def && def.sku) : def && def.sku;
              return h('option', {
                value: v.sku,
                selected: v.sku === cur,
                text: v.sku + (v.name ? ' · ' + v.name : '') + (v.status !== 'ready' ? ' (' + v.status + ')' : ''),
              });
            }),
          )
        : null;
      box.addEventListener('change', function () {
        if (box.checked) W.A!.sel.push({ item_id: it.id, variant_sku: select ? select.value : null });
        else
          W.A!.sel = W.A!.sel.filter(function (s) {
            return s.item_id !== it.id;
          });
        W.A!.dirty = W.A!.touched = true;
        renderPicks();
        relayout(150);
      });
      if (select)
        select.addEventListener('change', function () {
          W.A!.sel.forEach(function (s) {
            if (s.item_id === it.id) s.variant_sku = select.value;
          });
          if (box.checked) {
            W.A!.dirty = W.A!.touched = true;
            relayout(0);
          }
        });
      const dims = it.dimensions;
      const order = ticked ? W.A!.sel.indexOf(ticked) + 1 : 0;
      return h('li', { class: 'ar-pick' + (ticked ? ' on' : ''), 'data-testid': 'wall-pick' }, [
        box,
        h('label', { for: cid }, [
          thumbOf(it.id, ticked && ticked.variant_sku)
            ? h('img', { src: thumbOf(it.id, ticked && ticked.variant_sku), alt: '', loading: 'lazy' })
            : h('span', { class: 'ph', 'aria-hidden': 'true' }),
          h('span', { class: 'ar-pick-name' }, [
            h('strong', { text: W.itemName(it) }),
            dims ? h('span', { class: 'meta', text: sizeText(dims.width_inches, dims.height_inches, 'in', true) }) : null,
          ]),
          order ? h('span', { class: 'ar-order', 'aria-hidden': 'true', text: String(order) }) : null,
          order ? h('span', { class: 'sr-only', text: ', number ' + order }) : null,
        ]),
        select
          ? h('span', { class: 'ar-sku' }, [
              h('label', { for: 'wall-sku-' + it.id }, ['Variant', h('span', { class: 'sr-only', text: ' of ' + W.itemName(it) })]),
              select,
            ])
          : null,
      ]);
    }),
  );
  if (!items.length) fill(W.E.picks, h('li', { class: 'empty', text: 'No picture is ready yet.' }));
  if (had && document.getElementById(had)) document.getElementById(had)!.focus();
}

export function choose(a: Wall['arrangement']): void {
  const A = W.A!;
  if (A.arrangement === 'custom' && A.dirty && A.pics.length && !confirm('Start again from ' + a + '? Your own positions are lost.'))
    return;
  A.arrangement = a;
  A.preset = a;
  A.dirty = A.touched = true;
  showArrangement();
  relayout(0);
}

export function itemsOut(): CreateWallRequest['items'] {
  const A = W.A!;
  return A.sel.map(function (s) {
    return s.variant_sku ? { item_id: s.item_id, variant_sku: s.variant_sku } : { item_id: s.item_id };
  });
}
export function options(arrangement: Wall['arrangement']): WallRequest {
  const o: WallRequest = { arrangement: arrangement, gap_inches: Number(W.E.gap.value || 0), align: W.E.align.value as Wall['align'] };
  if (arrangement === 'grid' && W.E.columns.value) o.columns = Number(W.E.columns.value);
  return o;
}

/**
 * Asks the API for the preset's positions (and every picture's framed size). A custom wall keeps the
 * positions it has; a picture new to it goes to the right of the others, and a new variant keeps its
 * picture's centre.
 */
export function relayout(delay: number): void {
  clearTimeout(W.layoutTimer);
  W.layoutTimer = setTimeout(function () {
    if (!W.A) return;
    const seq = ++W.layoutSeq;
    if (W.A.sel.length < 2) {
      W.A.pics = [];
      draw();
      return;
    }
    const b = options(W.A.preset);
    b.items = itemsOut();
    api<WallLayout>('POST', W.WALLS + '/layout', b).then(
      function (r) {
        if (!W.A || seq !== W.layoutSeq) return;
        W.E.err.hidden = true;
        [W.E.gap, W.E.align, W.E.columns].forEach(function (el) {
          el.removeAttribute('aria-invalid');
        });
        const next = r.items.map(wallPic);
        if (W.A.arrangement === 'custom') {
          const old: Record<number, Pic> = {};
          W.A.pics.forEach(function (p) {
            old[p.item_id] = p;
          });
          let right = null as number | null;
          W.A.pics.forEach(function (p) {
            if (right === null || p.x + p.w / 2 > right) right = p.x + p.w / 2;
          });
          next.forEach(function (p) {
            const o = old[p.item_id];
            if (o) {
              p.x = o.x;
              p.y = o.y;
            } else {
              p.x = snap((right === null ? 0 : right + Number(W.E.gap.value || 0)) + p.w / 2);
              p.y = 0;
              right = p.x + p.w / 2;
            }
          });
          W.A.pics = next;
          fitView(false);
        } else {
          W.A.pics = next;
          if (r.columns && W.A.preset === 'grid' && !W.E.columns.value) W.E.columns.placeholder = 'Auto (' + r.columns + ')';
          fitView(true);
        }
        draw();
      },
      function (e: ErrorLike) {
        if (!W.A || seq !== W.layoutSeq) return;
        showErr(e);
      },
    );
  }, delay);
}

export function showErr(e: ErrorLike): void {
  const er = (e && e.error) || {};
  W.E.err.textContent = errMessage(e);
  W.E.err.hidden = false;
  const opt = ({ gap_inches: W.E.gap, align: W.E.align, columns: W.E.columns } as Record<string, HTMLElement>)[er.param as string];
  if (opt) opt.setAttribute('aria-invalid', 'true');
  if (er.param === 'name') {
    W.E.name.setAttribute('aria-invalid', 'true');
    W.E.nameErr.textContent = er.message as string;
    W.E.nameErr.hidden = false;
  }
  const m = /^items\[(\d+)\]/.exec(er.param || '');
  $all('.wall-pic', W.E.stage).forEach(function (el) {
    el.classList.toggle('invalid', !!m && el.getAttribute('data-index') === m[1]);
  });
  say(errMessage(e));
}
