/**
 * The arranger's stage: the wall drawn to scale with a sofa and a scale bar, the pictures on it moved by
 * pointer (mouse, pen, touch) or arrow keys in 0.5 in steps, overlaps and width checked as they move.
 */
import { $all, fill, h } from '../../../shared/dom';
import { sizeText } from '../../../shared/size';
import { inch, pictureName, snap, thumbOf, wallSize } from './wall-format';
import { MAX_WIDTH, NS, type Pic, SOFA, type View, W } from './wall-state';

function bounds(pics: Pic[]): View | null {
  let b = null as View | null;
  pics.forEach(function (p) {
    const l = p.x - p.w / 2;
    const r = p.x + p.w / 2;
    const bt = p.y - p.h / 2;
    const t = p.y + p.h / 2;
    if (!b) b = { l: l, r: r, b: bt, t: t };
    else {
      b.l = Math.min(b.l, l);
      b.r = Math.max(b.r, r);
      b.b = Math.min(b.b, bt);
      b.t = Math.max(b.t, t);
    }
  });
  return b;
}

/**
 * The part of the wall drawn, in inches: the pictures with room around them to drag into, and the sofa
 * (84 × 33 in) hung 8 in under the lowest picture. `fresh`: from scratch (a new layout); else it only
 * grows (no jump while pictures are moved).
 */
export function fitView(fresh: boolean): void {
  const A = W.A!;
  const b = bounds(A.pics);
  if (!b) return;
  if (fresh || A.sofaTop === null) A.sofaTop = b.b - 8;
  const sofaTop = A.sofaTop;
  const pad = Math.max(18, (b.r - b.l) * 0.2);
  let v = {
    l: Math.min(b.l, -SOFA.w / 2) - pad,
    r: Math.max(b.r, SOFA.w / 2) + pad,
    t: b.t + pad,
    b: Math.min(b.b, sofaTop - SOFA.h) - 6,
  };
  // At least 8 ft wide, centred on the wall's centre line.
  const half = Math.max(48, -v.l, v.r);
  v.l = -half;
  v.r = half;
  if (!fresh && A.view)
    v = { l: Math.min(v.l, A.view.l), r: Math.max(v.r, A.view.r), t: Math.max(v.t, A.view.t), b: Math.min(v.b, A.view.b) };
  A.view = v;
}

/** Pairs of pictures whose framed edges overlap (touching is fine). */
function overlaps(): [number, number][] {
  const A = W.A!;
  const out: [number, number][] = [];
  for (let i = 0; i < A.pics.length; i++)
    for (let j = i + 1; j < A.pics.length; j++) {
      const a = A.pics[i];
      const c = A.pics[j];
      const ox = Math.min(a.x + a.w / 2, c.x + c.w / 2) - Math.max(a.x - a.w / 2, c.x - c.w / 2);
      const oy = Math.min(a.y + a.h / 2, c.y + c.h / 2) - Math.max(a.y - a.h / 2, c.y - c.h / 2);
      if (ox > 0.001 && oy > 0.001) out.push([i, j]);
    }
  return out;
}

/** Overlaps and width: marked on the pictures and said under the wall; Save waits until there are none. */
export function check(): void {
  const A = W.A!;
  const pairs = overlaps();
  const bad: Record<string, boolean> = {};
  pairs.forEach(function (p) {
    bad[p[0]] = bad[p[1]] = true;
  });
  $all('.wall-pic', W.E.stage).forEach(function (el) {
    el.classList.toggle('overlap', !!bad[el.getAttribute('data-index') as string]);
  });
  const b = bounds(A.pics);
  const msgs: string[] = [];
  if (pairs.length)
    msgs.push(
      pairs
        .map(function (p) {
          return pictureName(A.pics[p[0]].item_id) + ' and ' + pictureName(A.pics[p[1]].item_id);
        })
        .join('; ') +
        (pairs.length === 1 ? ' overlap' : ' overlap each other') +
        ': move them apart to save.',
    );
  if (b && b.r - b.l > MAX_WIDTH)
    msgs.push('The wall is ' + inch(b.r - b.l) + ' in wide: at most ' + MAX_WIDTH + ' in (40 ft) can be saved.');
  W.E.problem.textContent = msgs.join(' ');
  W.E.size.textContent = b ? 'Outer size: ' + wallSize(b.r - b.l, b.t - b.b) + ', ' + A.pics.length + ' pictures.' : '';
  W.E.stage.setAttribute('data-overlaps', String(pairs.length));
  W.E.save.disabled = A.saving || msgs.length > 0 || A.pics.length < 2;
}

/**
 * The arrangement buttons (pressed: the wall's) and the line under them. Here with the stage, since moving a
 * picture on it makes the wall custom; the arranger shows it on open and on a preset's choice.
 */
export function showArrangement(): void {
  const A = W.A!;
  W.E.arrBtns.forEach(function (b) {
    b.setAttribute('aria-pressed', String(b.getAttribute('data-arrangement') === A.arrangement));
  });
  W.E.columns.disabled = A.preset !== 'grid';
  W.E.arrNow.setAttribute('data-arrangement', A.arrangement);
  W.E.arrNow.textContent =
    A.arrangement === 'custom'
      ? 'Custom: your own positions. Row, Grid or Salon starts again from that arrangement.'
      : 'Now: ' + A.arrangement + '. Drag a picture to make it your own.';
}

/** The wall to scale: a px-per-inch scale fits the view into the stage's width (and at most 70 % of the screen's height). */
export function draw(): void {
  if (!W.A) return;
  if (!W.A.pics.length || !W.A.view) {
    W.E.stage.style.height = '';
    fill(
      W.E.stage,
      h('p', { class: 'wall-empty', text: W.A.sel.length < 2 ? 'Tick 2 to 12 pictures to arrange them here.' : 'Arranging…' }),
    );
    check();
    return;
  }
  const v = W.A.view;
  const width = W.E.stage.clientWidth || 600;
  const maxH = Math.max(260, Math.min(620, window.innerHeight * 0.7));
  const s = Math.min(width / (v.r - v.l), maxH / (v.t - v.b));
  const offX = (width - (v.r - v.l) * s) / 2;
  W.A.scale = s;
  W.A.ox = offX - v.l * s; // the wall centre's x in the stage, px
  W.A.oy = v.t * s; // and its y
  W.E.stage.style.height = Math.round((v.t - v.b) * s) + 'px';
  W.E.stage.setAttribute('data-scale', String(s));
  W.E.stage.setAttribute('data-origin-x', String(W.A.ox));
  W.E.stage.setAttribute('data-origin-y', String(W.A.oy));
  const focusedIdx =
    document.activeElement && W.E.stage.contains(document.activeElement) ? document.activeElement.getAttribute('data-index') : null;
  const kids: Element[] = [sofa(s), floor(s), scaleBar(s)];
  W.A.pics.forEach(function (p, i) {
    kids.push(picEl(p, i));
  });
  fill(W.E.stage, kids);
  W.A.pics.forEach(function (p, i) {
    place(p, i);
  });
  if (focusedIdx !== null) {
    const again = W.E.stage.querySelector<HTMLElement>('[data-index="' + focusedIdx + '"]');
    if (again) again.focus();
  }
  check();
}

function sofa(s: number): SVGSVGElement {
  const A = W.A!;
  const svg = document.createElementNS(NS, 'svg') as SVGSVGElement;
  svg.setAttribute('viewBox', '0 0 84 33');
  svg.setAttribute('class', 'wall-sofa');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('data-testid', 'wall-sofa');
  svg.style.left = A.ox - (SOFA.w / 2) * s + 'px';
  svg.style.top = A.oy - A.sofaTop! * s + 'px';
  svg.style.width = SOFA.w * s + 'px';
  svg.style.height = SOFA.h * s + 'px';
  (
    [
      ['rect', { x: 4, y: 2, width: 76, height: 17, rx: 3, class: 'sf-back' }],
      ['rect', { x: 0, y: 11, width: 9, height: 18, rx: 3, class: 'sf-arm' }],
      ['rect', { x: 75, y: 11, width: 9, height: 18, rx: 3, class: 'sf-arm' }],
      ['rect', { x: 8, y: 18, width: 34, height: 11, rx: 2, class: 'sf-seat' }],
      ['rect', { x: 42, y: 18, width: 34, height: 11, rx: 2, class: 'sf-seat' }],
      ['rect', { x: 5, y: 29, width: 2.5, height: 4, class: 'sf-leg' }],
      ['rect', { x: 76.5, y: 29, width: 2.5, height: 4, class: 'sf-leg' }],
    ] as [string, Record<string, string | number>][]
  ).forEach(function (d) {
    const el = document.createElementNS(NS, d[0]);
    Object.keys(d[1]).forEach(function (k) {
      el.setAttribute(k, String(d[1][k]));
    });
    svg.appendChild(el);
  });
  return svg;
}
function floor(s: number): HTMLDivElement {
  const A = W.A!;
  const top = A.oy - (A.sofaTop! - SOFA.h) * s;
  const el = h('div', { class: 'wall-floor', 'aria-hidden': 'true' });
  el.style.top = top + 'px';
  return el;
}
/** A bar of a round length (6 in to 8 ft) at least 56 px long, and what the sofa is. */
function scaleBar(s: number): HTMLDivElement {
  const len =
    [6, 12, 24, 36, 48, 96].filter(function (l) {
      return l * s >= 56;
    })[0] || 96;
  const bar = h('div', { class: 'wall-scale', 'data-testid': 'wall-scale' }, [
    h('span', { class: 'wall-scale-bar', 'aria-hidden': 'true' }),
    h('span', { text: len >= 12 && len % 12 === 0 ? len / 12 + ' ft (' + len + ' in)' : len + ' in' }),
    h('span', { class: 'wall-scale-sofa', text: ' · sofa 84 in wide' }),
  ]);
  (bar.firstChild as HTMLElement).style.width = len * s + 'px';
  return bar;
}

function picLabel(p: Pic): string {
  return (
    pictureName(p.item_id) +
    (p.variant_sku ? ' (' + p.variant_sku + ')' : '') +
    ', ' +
    // The arranger works in inches (positions, scale bar): the size too, as every page writes one.
    sizeText(p.w, p.h, 'in', true) +
    ', at x ' +
    inch(p.x) +
    ' in, y ' +
    inch(p.y) +
    ' in'
  );
}

function picEl(p: Pic, i: number): HTMLButtonElement {
  const src = thumbOf(p.item_id, p.variant_sku);
  const el = h(
    'button',
    {
      type: 'button',
      class: 'wall-pic',
      'data-testid': 'wall-pic',
      'data-index': String(i),
      'data-item-id': String(p.item_id),
      'aria-roledescription': 'movable picture',
      'aria-describedby': 'wall-drag-help',
    },
    [src ? h('img', { src: src, alt: '', draggable: 'false' }) : null],
  );
  el.addEventListener('pointerdown', function (e) {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    el.focus();
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      // a pointer that is already gone
    }
    W.drag = { i: i, el: el, id: e.pointerId, sx: e.clientX, sy: e.clientY, x0: W.A!.pics[i].x, y0: W.A!.pics[i].y, moved: false };
    el.classList.add('dragging');
  });
  el.addEventListener('pointermove', function (e) {
    if (!W.drag || W.drag.id !== e.pointerId || W.drag.el !== el) return;
    const q = W.A!.pics[W.drag.i];
    let nx = snap(W.drag.x0 + (e.clientX - W.drag.sx) / W.A!.scale);
    let ny = snap(W.drag.y0 - (e.clientY - W.drag.sy) / W.A!.scale);
    // Kept on the drawn wall.
    nx = Math.max(W.A!.view!.l + q.w / 2, Math.min(W.A!.view!.r - q.w / 2, nx));
    ny = Math.max(W.A!.view!.b + q.h / 2, Math.min(W.A!.view!.t - q.h / 2, ny));
    if (nx === q.x && ny === q.y) return;
    q.x = nx;
    q.y = ny;
    W.drag.moved = true;
    place(q, W.drag.i);
    check();
  });
  const end = function (e: PointerEvent) {
    if (!W.drag || W.drag.id !== e.pointerId || W.drag.el !== el) return;
    const d = W.drag;
    W.drag = null;
    el.classList.remove('dragging');
    if (d.moved) moved(d.i);
  };
  el.addEventListener('pointerup', end);
  el.addEventListener('pointercancel', end);
  el.addEventListener('keydown', function (e) {
    const step = e.shiftKey ? 6 : 1;
    const d = ({ ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] } as Record<string, number[]>)[
      e.key
    ];
    if (!d) return;
    e.preventDefault();
    const q = W.A!.pics[i];
    q.x = snap(q.x + d[0]);
    q.y = snap(q.y + d[1]);
    moved(i);
  });
  return el;
}

/** A picture moved: the wall is custom now; the view grows when it reaches an edge; its place is said. */
function moved(i: number): void {
  const A = W.A!;
  const q = A.pics[i];
  A.dirty = A.touched = true;
  if (A.arrangement !== 'custom') {
    A.arrangement = 'custom';
    showArrangement();
  }
  const v = A.view!;
  // Pushed against an edge of the drawn wall (or past it, by keyboard): more wall is drawn around it.
  const edge = 0.5;
  if (q.x - q.w / 2 < v.l + edge || q.x + q.w / 2 > v.r - edge || q.y + q.h / 2 > v.t - edge || q.y - q.h / 2 < v.b + edge) {
    const before = JSON.stringify(A.view);
    fitView(false);
    if (JSON.stringify(A.view) !== before) draw();
    else place(q, i);
  } else place(q, i);
  check();
  const ov = W.E.stage.querySelector('[data-index="' + i + '"]')!.classList.contains('overlap');
  W.E.live.textContent =
    pictureName(q.item_id) + ': x ' + inch(q.x) + ' in, y ' + inch(q.y) + ' in' + (ov ? ', overlapping another picture.' : '.');
}

function place(p: Pic, i: number): void {
  const A = W.A!;
  const el = W.E.stage.querySelector<HTMLElement>('[data-index="' + i + '"]');
  if (!el) return;
  const s = A.scale;
  el.style.left = A.ox + (p.x - p.w / 2) * s + 'px';
  el.style.top = A.oy - (p.y + p.h / 2) * s + 'px';
  el.style.width = p.w * s + 'px';
  el.style.height = p.h * s + 'px';
  el.setAttribute('data-x', String(p.x));
  el.setAttribute('data-y', String(p.y));
  el.setAttribute('aria-label', picLabel(p));
}
