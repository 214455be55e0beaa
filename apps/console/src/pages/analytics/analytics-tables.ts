/** The Analytics page's funnel, figures and tables (days, pictures, platforms, referrers). */
import type { Analytics, AnalyticsGroup } from '../../shared/api-types';
import { $, type Cell, empty, fill, h } from '../../shared/dom';
import { seg } from '../../shared/format';
import { dayName, num, pct } from './analytics-format';
import { an } from './analytics-state';

const STEP: Record<string, string> = {
  views: 'Views',
  interactions: '3D interactions',
  ar_launches: 'AR launches',
  banner_taps: 'Banner taps',
};
const STEP_OF: Record<string, string> = { views: 'views', interactions: 'interactions', ar_launches: 'AR launches' };
const STEP_HINT: Record<string, string> = {
  views: 'the picture was on screen',
  interactions: 'the 3D preview turned or zoomed',
  ar_launches: 'opened in AR Quick Look, Scene Viewer or WebXR',
  banner_taps: "the AR banner's button or the buy link",
};
export function renderFunnel(a: Analytics): void {
  fill(
    $('[data-testid=funnel]')!,
    a.funnel.map(function (s, i) {
      const bar = h('span', { class: 'fill', hidden: !s.count });
      bar.style.width = (s.of_views === null ? 0 : Math.min(100, s.of_views * 100)) + '%';
      const rates: string[] = [];
      if (i > 0 && s.of_views !== null) rates.push(pct(s.of_views) + ' of views');
      if (i > 1 && s.rate !== null) rates.push(pct(s.rate) + ' of ' + STEP_OF[a.funnel[i - 1].step]);
      return h('li', { class: 'f-' + s.step, 'data-testid': 'funnel-step', 'data-step': s.step }, [
        h('div', { class: 'f-head' }, [
          h('span', {}, [h('span', { class: 'f-label', text: STEP[s.step] }), h('span', { class: 'f-hint', text: STEP_HINT[s.step] })]),
          h('strong', { class: 'f-count', 'data-testid': 'funnel-count', text: num(s.count) }),
        ]),
        h('div', { class: 'track', 'aria-hidden': 'true' }, [bar]),
        h('p', {
          class: 'f-rate',
          'data-testid': 'funnel-rate',
          text: rates.join(' · ') || (i === 0 ? 'Where the funnel starts' : ''),
        }),
      ]);
    }),
  );
  const t = a.totals;
  fill(
    $('[data-testid=figures]')!,
    (
      [
        ['Unique visitors', t.unique_visitors, 'unique-visitors'],
        ['QR opens', t.qr_opens, 'qr-opens'],
        ['Variant choices', t.variant_selects, 'variant-selects'],
        ['Room views (from a photo)', t.room_views, 'room-views'],
      ] as [string, number | null, string][]
    ).map(function (x) {
      return h('div', { 'data-testid': x[2] }, [h('dt', { text: x[0] }), h('dd', { text: num(x[1]) })]);
    }),
  );
}

/** A column of a data table: `num` ones align right. */
interface Col {
  label: string;
  key: string;
  num?: boolean;
}
/** A row: its key, which cell names it (a row header), its cells. */
interface Row {
  key: string;
  head: number;
  cells: Cell[];
}

/** A table whose first column names the row (a row header) and whose number columns align right. */
function dataTable(cols: Col[], rows: Row[], caption: string, testid: string, stack?: boolean): HTMLDivElement {
  // stack: on a phone each row is a card, each cell with its column's name (shown there only; the header says it otherwise).
  const label = function (i: number) {
    return stack && i !== rows[0].head ? h('span', { class: 'an-l', 'aria-hidden': 'true', text: cols[i].label }) : null;
  };
  return h('div', { class: 'table-wrap' + (stack ? ' stack' : ''), tabindex: '0', role: 'region', 'aria-label': caption }, [
    h('table', { class: 'an-table', 'data-testid': testid }, [
      h('caption', { class: 'sr-only', text: caption }),
      h('thead', {}, [
        h(
          'tr',
          {},
          cols.map(function (c) {
            return h('th', { scope: 'col', class: c.num ? 'num' : null, text: c.label });
          }),
        ),
      ]),
      h(
        'tbody',
        {},
        rows.map(function (r) {
          return h(
            'tr',
            { 'data-key': r.key },
            r.cells.map(function (c, i) {
              const v = c === null || c === undefined ? '—' : typeof c === 'object' ? c : String(c);
              return i === r.head
                ? h('th', { scope: 'row', class: cols[i].num ? 'num' : null, 'data-col': cols[i].key }, [v])
                : h('td', { class: cols[i].num ? 'num' : null, 'data-col': cols[i].key }, [label(i), v]);
            }),
          );
        }),
      ),
    ]),
  ]);
}

export function renderDailyTable(): void {
  const cols: Col[] = [
    { label: 'Day', key: 'day' },
    { label: 'Views', key: 'views', num: true },
    { label: '3D interactions', key: 'interactions', num: true },
    { label: 'AR launches', key: 'ar_launches', num: true },
    { label: 'Banner taps', key: 'banner_taps', num: true },
    { label: 'Unique visitors', key: 'unique_visitors', num: true },
  ];
  fill(
    $('[data-testid=daily-table]')!,
    dataTable(
      cols,
      an.daily!.list.map(function (d) {
        return {
          key: d.day,
          head: 0,
          cells: [dayName(d.day, true), num(d.views), num(d.interactions), num(d.ar), num(d.taps), num(d.visitors)],
        };
      }),
      'Counts per day',
      'daily-rows',
    ),
  );
}

const ITEM_ROWS = 50;
/** The console opens a showcase of the caller's own account only (the owner's: the owner key's). */
function openable(showcaseId: number | null | undefined): boolean {
  return showcaseId !== null && showcaseId !== undefined && (!an.owner || !!(an.own && an.own[showcaseId]));
}

export function renderItems(groups: AnalyticsGroup[]): void {
  const box = $('[data-testid=items-table]')!;
  if (!groups.length) return fill(box, empty('No picture was viewed in this range (only showcase pages were).'));
  const cols: Col[] = [
    { label: '#', key: 'rank', num: true },
    { label: 'Picture', key: 'title' },
    { label: 'Showcase', key: 'showcase' },
    { label: 'Views', key: 'views', num: true },
    { label: '3D interactions', key: 'interactions', num: true },
    { label: 'AR launches', key: 'ar_launches', num: true },
    { label: 'Banner taps', key: 'banner_taps', num: true },
    { label: 'AR rate', key: 'ar_rate', num: true },
    { label: 'Unique visitors', key: 'unique_visitors', num: true },
  ];
  const rows: Row[] = groups.slice(0, ITEM_ROWS).map(function (g, i) {
    const title = g.title || 'Picture ' + g.item_id;
    const sc = g.showcase_id;
    const link = openable(sc);
    return {
      key: String(g.item_id),
      head: 1,
      cells: [
        i + 1,
        link ? h('a', { href: '/console/showcases/' + seg(sc!) + '#item-' + seg(g.item_id!), text: title }) : title,
        sc === null ? '—' : link ? h('a', { href: '/console/showcases/' + seg(sc!), text: 'Showcase ' + sc }) : 'Showcase ' + sc,
        num(g.views),
        num(g.interactions),
        num(g.ar_launches),
        num(g.banner_taps),
        g.views ? pct(g.ar_launches / g.views) : '—',
        num(g.unique_visitors),
      ],
    };
  });
  fill(box, [
    dataTable(cols, rows, 'Pictures ranked by AR launches', 'items-rows', true),
    groups.length > ITEM_ROWS
      ? h('p', { class: 'hint', text: 'The first ' + ITEM_ROWS + ' of ' + groups.length + ' pictures; the CSV has them all.' })
      : null,
    h('p', { class: 'hint', text: 'AR rate: AR launches per view of the picture.' }),
  ]);
}

const PLATFORMS = [
  ['quick_look', 'AR Quick Look (iOS)'],
  ['scene_viewer', 'Scene Viewer (Android)'],
  ['webxr', 'WebXR (browser)'],
];
export function renderPlatforms(groups: AnalyticsGroup[]): void {
  const by: Record<string, number> = {};
  let all = 0;
  groups.forEach(function (g) {
    by[g.key] = g.ar_launches;
    if (g.key) all += g.ar_launches;
  });
  fill(
    $('[data-testid=platforms]')!,
    dataTable(
      [
        { label: 'Platform', key: 'platform' },
        { label: 'AR launches', key: 'ar_launches', num: true },
        { label: 'Share', key: 'share', num: true },
      ],
      PLATFORMS.map(function (p) {
        const n = by[p[0]] || 0;
        return { key: p[0], head: 0, cells: [p[1], num(n), all ? pct(n / all) : '—'] };
      }),
      'AR launches by platform',
      'platform-rows',
    ),
  );
}

const REFERRER_ROWS = 10;
export function renderReferrers(groups: AnalyticsGroup[]): void {
  const box = $('[data-testid=referrers]')!;
  if (!groups.length) return fill(box, empty('No visits in this range.'));
  fill(box, [
    dataTable(
      [
        { label: 'Referring site', key: 'referrer' },
        { label: 'Views', key: 'views', num: true },
        { label: 'AR launches', key: 'ar_launches', num: true },
      ],
      groups.slice(0, REFERRER_ROWS).map(function (g) {
        return { key: g.key, head: 0, cells: [g.key || 'None (direct, or your own pages)', num(g.views), num(g.ar_launches)] };
      }),
      'Top referrers',
      'referrer-rows',
    ),
    groups.length > REFERRER_ROWS
      ? h('p', { class: 'hint', text: 'The top ' + REFERRER_ROWS + ' of ' + groups.length + ' referrers; the CSV has them all.' })
      : null,
  ]);
}
