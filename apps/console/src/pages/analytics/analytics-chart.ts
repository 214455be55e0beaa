/** Views and AR launches per day: the SVG chart of the Analytics page. */
import type { Analytics, AnalyticsGroup } from '../../shared/api-types';
import { $, fill } from '../../shared/dom';
import { addDays, dayName, num } from './analytics-format';
import { an, type DailyPoint } from './analytics-state';

/** Every day of the range, a day without counts as 0. */
export function series(a: Analytics): DailyPoint[] {
  const by: Record<string, AnalyticsGroup> = {};
  (a.groups || []).forEach(function (g) {
    by[g.key] = g;
  });
  const list: DailyPoint[] = [];
  for (let d = a.from; d <= a.to; d = addDays(d, 1)) {
    const g = by[d];
    list.push({
      day: d,
      views: g ? g.views : 0,
      interactions: g ? g.interactions : 0,
      ar: g ? g.ar_launches : 0,
      taps: g ? g.banner_taps : 0,
      visitors: g ? g.unique_visitors : 0,
    });
  }
  return list;
}

/** A whole step of at least m for the value gridlines: 1, 2, 2.5 (from 25 on), 5 or 10 times a power of ten. */
function niceStep(m: number): number {
  if (m <= 1) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(m)));
  const steps = p >= 10 ? [1, 2, 2.5, 5, 10] : [1, 2, 5, 10];
  for (let i = 0; i < steps.length; i++) if (steps[i] * p >= m) return steps[i] * p;
  return 10 * p;
}

/** Views and AR launches per day: an SVG as wide as its box (drawn again when that changes), labelled axes. */
export function drawDaily(): void {
  const daily = an.daily;
  if (!daily) return;
  const box = $('[data-testid=daily-chart]')!;
  const NS = 'http://www.w3.org/2000/svg';
  const el = function (tag: string, attrs: Record<string, string | number>, text?: string) {
    const e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) {
      e.setAttribute(k, String(attrs[k]));
    });
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const list = daily.list;
  const W = Math.max(280, Math.floor(box.clientWidth || 600));
  const H = W < 560 ? 220 : 260;
  const m = { l: 44, r: 24, t: 12, b: 34 };
  const iw = W - m.l - m.r;
  const ih = H - m.t - m.b;
  let max = 0;
  const totals = { views: 0, ar: 0 };
  let peak = list[0];
  list.forEach(function (d) {
    max = Math.max(max, d.views, d.ar);
    totals.views += d.views;
    totals.ar += d.ar;
    if (d.views > peak.views) peak = d;
  });
  const step = niceStep(Math.max(max, 1) / 4);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const n = list.length;
  const x = function (i: number) {
    return Math.round((m.l + (n === 1 ? iw / 2 : (i * iw) / (n - 1))) * 10) / 10;
  };
  const y = function (v: number) {
    return Math.round((m.t + ih - (v / top) * ih) * 10) / 10;
  };
  const svg = el('svg', {
    viewBox: '0 0 ' + W + ' ' + H,
    width: W,
    height: H,
    role: 'img',
    class: 'daily',
    'data-testid': 'daily-svg',
    'aria-labelledby': 'an-chart-title an-chart-desc',
  });
  svg.appendChild(
    el('title', { id: 'an-chart-title' }, 'Views and AR launches per day, ' + dayName(daily.from, true) + ' to ' + dayName(daily.to, true)),
  );
  svg.appendChild(
    el(
      'desc',
      { id: 'an-chart-desc' },
      num(totals.views) +
        ' views and ' +
        num(totals.ar) +
        ' AR launches over ' +
        n +
        (n === 1 ? ' day' : ' days') +
        (peak.views ? '; most views on ' + dayName(peak.day, true) + ' (' + num(peak.views) + ')' : '') +
        '. The table below the chart has every day.',
    ),
  );
  // The value axis: gridlines with their numbers.
  for (let v = 0; v <= top; v += step) {
    svg.appendChild(el('line', { class: 'grid' + (v === 0 ? ' base' : ''), x1: m.l, x2: W - m.r, y1: y(v), y2: y(v) }));
    svg.appendChild(el('text', { class: 'tick', x: m.l - 6, y: y(v) + 4, 'text-anchor': 'end' }, num(v)));
  }
  // The day axis: today (the last day) and every `stride` days before it, a stride of days that leaves room for each label.
  const perDay = n > 1 ? iw / (n - 1) : iw;
  const stride = [1, 2, 3, 7, 14, 28, 56, 91, 182].filter(function (s) {
    return s * perDay >= 62;
  })[0];
  for (let i = n - 1; i >= 0; i -= stride || n) {
    svg.appendChild(el('line', { class: 'tick-mark', x1: x(i), x2: x(i), y1: m.t + ih, y2: m.t + ih + 4 }));
    svg.appendChild(el('text', { class: 'tick', x: x(i), y: H - m.b + 20, 'text-anchor': 'middle' }, dayName(list[i].day)));
  }
  const path = function (key: 'views' | 'ar') {
    return list
      .map(function (d, i) {
        return (i ? 'L' : 'M') + x(i) + ' ' + y(d[key]);
      })
      .join(' ');
  };
  if (n > 1) {
    svg.appendChild(el('path', { class: 'area-views', d: path('views') + ' L' + x(n - 1) + ' ' + y(0) + ' L' + x(0) + ' ' + y(0) + ' Z' }));
    svg.appendChild(el('path', { class: 'line-views', d: path('views') }));
    svg.appendChild(el('path', { class: 'line-ar', d: path('ar') }));
  }
  // A point per day (its numbers on hover); AR launches as squares, so the two differ without colour.
  const r = n === 1 ? 6 : n > 60 ? 2 : 3;
  list.forEach(function (d, i) {
    const c = el('circle', { class: 'pt-views', cx: x(i), cy: y(d.views), r: r, 'data-day': d.day, 'data-views': d.views });
    c.appendChild(el('title', {}, dayName(d.day, true) + ': ' + num(d.views) + ' views'));
    svg.appendChild(c);
    const s = el('rect', {
      class: 'pt-ar',
      x: x(i) - r,
      y: y(d.ar) - r,
      width: 2 * r,
      height: 2 * r,
      'data-day': d.day,
      'data-ar-launches': d.ar,
    });
    s.appendChild(el('title', {}, dayName(d.day, true) + ': ' + num(d.ar) + ' AR launches'));
    svg.appendChild(s);
  });
  box.setAttribute('data-width', String(W));
  fill(box, svg);
}
/** The chart follows its box's width: drawn again (150 ms after the last resize) when that changes. */
export function redrawOnResize(): void {
  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', function () {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(function () {
      const box = $('[data-testid=daily-chart]')!;
      if (an.daily && !an.results.hidden && Math.floor(box.clientWidth) !== Number(box.getAttribute('data-width'))) drawDaily();
    }, 150);
  });
}
