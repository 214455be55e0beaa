/**
 * Analytics: engagement from the public pages (GET /api/v2/analytics), for the filters in the form (and in
 * the URL): the funnel, views and AR launches per day (inline SVG with a data table), pictures ranked by AR
 * launches, platforms, referrers, CSV links. Days are UTC, as the API counts them.
 */
import { api } from '../../shared/api';
import type { AdminUserList, Analytics, AnalyticsTotals, ShowcaseList, ShowcaseSummary } from '../../shared/api-types';
import { $, $all, failed, fill, h } from '../../shared/dom';
import { drawDaily, redrawOnResize, series } from './analytics-chart';
import { addDays, DAY, dayMs, dayName, num } from './analytics-format';
import { an, type Filters, initAnalyticsState } from './analytics-state';
import { renderDailyTable, renderFunnel, renderItems, renderPlatforms, renderReferrers } from './analytics-tables';

/** The longest range the API counts at once. */
const MAX_DAYS = 366;

function filters(): Filters {
  const fd = new FormData(an.form);
  return {
    from: String(fd.get('from') || ''),
    to: String(fd.get('to') || ''),
    showcase_id: String(fd.get('showcase_id') || ''),
    account_id: an.owner ? String(fd.get('account_id') || '') : '',
  };
}
function query(f: Filters, extra?: Record<string, string>): string {
  const q = new URLSearchParams();
  q.set('from', f.from);
  q.set('to', f.to);
  if (f.showcase_id) q.set('showcase_id', f.showcase_id);
  if (f.account_id) q.set('account_id', f.account_id);
  Object.keys(extra || {}).forEach(function (k) {
    q.set(k, extra![k]);
  });
  return q.toString();
}

/** The range is checked here first: a wrong one is said next to the dates, nothing is asked. */
function check(f: Filters): boolean {
  const re = /^\d{4}-\d{2}-\d{2}$/;
  let msg = '';
  if (!re.test(f.from) || !re.test(f.to)) msg = 'Choose a From and a To date.';
  else if (f.from > f.to) msg = 'From must not be after To.';
  else if ((dayMs(f.to) - dayMs(f.from)) / DAY + 1 > MAX_DAYS) msg = 'Choose at most ' + MAX_DAYS + ' days.';
  an.rangeErr.textContent = msg;
  an.rangeErr.hidden = !msg;
  [an.fromIn, an.toIn].forEach(function (i) {
    if (msg) i.setAttribute('aria-invalid', 'true');
    else i.removeAttribute('aria-invalid');
  });
  return !msg;
}

function markQuick(f: Filters): void {
  $all('[data-days]', an.form).forEach(function (b) {
    const n = Number(b.getAttribute('data-days'));
    b.setAttribute('aria-pressed', String(f.to === an.TODAY && f.from === addDays(an.TODAY, 1 - n)));
  });
}

/** Selects `value`, adding an option for it when the list does not have it (yet). */
function choose(sel: HTMLSelectElement | null, value: string, label: string): void {
  if (!sel) return;
  const has = $all<HTMLOptionElement>('option', sel).some(function (o) {
    return o.value === value;
  });
  if (value && !has) sel.appendChild(h('option', { value: value, text: label }));
  sel.value = value;
}

/** The showcase choices: the caller's own, and (owner) those counted in the range for the chosen account. */
function showcaseOptions(f: Filters): void {
  const ids: Record<string, { id: number; description?: string | null }> = {};
  if (an.own && !f.account_id)
    Object.keys(an.own).forEach(function (id) {
      ids[id] = an.own![id];
    });
  Object.keys(an.counted).forEach(function (id) {
    if (!ids[id]) ids[id] = { id: Number(id) };
  });
  if (f.showcase_id && !ids[f.showcase_id]) ids[f.showcase_id] = { id: Number(f.showcase_id) };
  const keep = an.selShowcase.value;
  fill(
    an.selShowcase,
    [h('option', { value: '', text: 'All showcases' })].concat(
      Object.keys(ids)
        .sort(function (a, b) {
          return Number(b) - Number(a);
        })
        .map(function (id) {
          const d = ids[id].description;
          return h('option', { value: id, text: 'Showcase ' + id + (d ? ' · ' + (d.length > 40 ? d.slice(0, 39) + '…' : d) : '') });
        }),
    ),
  );
  an.selShowcase.value = keep;
}

function loadShowcases(cursor: string | null, pagesLeft: number): Promise<Record<string, ShowcaseSummary>> {
  return api<ShowcaseList>('GET', '/api/v2/showcases?limit=100' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '')).then(
    function (list) {
      const own = (an.own = an.own || {});
      list.data.forEach(function (s) {
        own[s.id] = s;
      });
      return list.has_more && pagesLeft > 1 ? loadShowcases(list.next_cursor, pagesLeft - 1) : own;
    },
  );
}

function csvLinks(f: Filters): void {
  $all('[data-csv]').forEach(function (a) {
    a.setAttribute('href', '/api/v2/analytics?' + query(f, { group_by: a.getAttribute('data-csv') as string, format: 'csv' }));
  });
}

function load(announce: boolean): void {
  const f = filters();
  markQuick(f);
  if (!check(f)) return;
  const my = ++an.seq;
  fill(an.out, h('p', { class: 'loading', 'data-testid': 'loading', text: 'Loading…' }));
  an.results.setAttribute('aria-busy', 'true');
  const get = function (by: string, ff?: Filters) {
    return api<Analytics>('GET', '/api/v2/analytics?' + query(ff || f, { group_by: by }));
  };
  const calls: (Promise<Analytics> | null)[] = [get('day'), get('item'), get('platform'), get('referrer')];
  // The owner's showcase choices come from the counts: those of the range, whichever showcase is chosen.
  if (an.owner) calls.push(f.showcase_id ? get('item', { from: f.from, to: f.to, account_id: f.account_id, showcase_id: '' }) : null);
  Promise.all(calls).then(
    function (answers) {
      // Only the owner's fifth call may be null (none asked).
      const r = answers as Analytics[];
      if (my !== an.seq) return;
      fill(an.out, []);
      an.results.removeAttribute('aria-busy');
      if (an.owner) {
        an.counted = {};
        (r[4] || r[1]).groups!.forEach(function (g) {
          if (g.showcase_id) an.counted[g.showcase_id] = true;
        });
        showcaseOptions(f);
      }
      render(f, r[0], r[1], r[2], r[3]);
      if (announce) an.live.textContent = summary(f, r[0].totals);
    },
    function (e) {
      if (my !== an.seq) return;
      an.results.removeAttribute('aria-busy');
      an.results.hidden = true;
      an.emptyBox.hidden = true;
      failed(an.out)(e);
    },
  );
}

function scope(f: Filters): string {
  const account = f.account_id && an.selAccount!.selectedOptions[0] ? an.selAccount!.selectedOptions[0].textContent : f.account_id;
  return (f.showcase_id ? 'showcase ' + f.showcase_id : 'all showcases') + (f.account_id ? ' of ' + account : '');
}
function summary(f: Filters, t: AnalyticsTotals): string {
  return (
    dayName(f.from, true) +
    ' to ' +
    dayName(f.to, true) +
    ', ' +
    scope(f) +
    ': ' +
    num(t.views) +
    ' views, ' +
    num(t.ar_launches) +
    ' AR launches.'
  );
}

function render(f: Filters, days: Analytics, items: Analytics, platforms: Analytics, referrers: Analytics): void {
  const t = days.totals;
  const none = !(t.views || t.interactions || t.ar_launches || t.banner_taps || t.qr_opens || t.variant_selects);
  an.emptyBox.hidden = !none;
  an.results.hidden = none;
  an.privacy.hidden = none;
  csvLinks(f);
  if (none) {
    $('#an-empty-title')!.textContent = f.to >= an.TODAY ? 'Nothing counted yet' : 'Nothing counted in this range';
    $('[data-testid=empty-range]')!.textContent =
      'Nothing was counted for ' + scope(f) + ' from ' + dayName(f.from, true) + ' to ' + dayName(f.to, true) + '.';
    return;
  }
  renderFunnel(days);
  an.daily = { from: days.from, to: days.to, list: series(days) };
  drawDaily();
  renderDailyTable();
  // group_by answers always have their groups.
  renderItems((an.lastItems = items.groups!));
  renderPlatforms(platforms.groups!);
  renderReferrers(referrers.groups!);
}

/** A change of the filters: the URL follows (a view to share or bookmark), the counts are loaded again. */
function apply(): void {
  const f = filters();
  markQuick(f);
  if (!check(f)) return;
  const url = '/console/analytics?' + query(f);
  if (location.pathname + location.search !== url) history.pushState(null, '', url);
  load(true);
}
export function analyticsPage(): void {
  initAnalyticsState();
  redrawOnResize();
  let typing: ReturnType<typeof setTimeout> | undefined;
  an.form.addEventListener('change', function (ev) {
    clearTimeout(typing);
    // Another account has other showcases.
    if (ev.target === an.selAccount) an.selShowcase.value = '';
    // A date typed digit by digit changes at each one (year 0002, 0020, 0202, 2025): the last one counts.
    if (ev.target === an.fromIn || ev.target === an.toIn) typing = setTimeout(apply, 400);
    else apply();
  });
  an.form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    apply();
  });
  $all('[data-days]', an.form).forEach(function (b) {
    b.addEventListener('click', function () {
      an.toIn.value = an.TODAY;
      an.fromIn.value = addDays(an.TODAY, 1 - Number(b.getAttribute('data-days')));
      apply();
    });
  });
  window.addEventListener('popstate', function () {
    const q = new URLSearchParams(location.search);
    an.toIn.value = q.get('to') || an.TODAY;
    an.fromIn.value = q.get('from') || addDays(an.toIn.value, -29);
    choose(an.selShowcase, q.get('showcase_id') || '', 'Showcase ' + q.get('showcase_id'));
    choose(an.selAccount, q.get('account_id') || '', String(q.get('account_id')));
    load(true);
  });
  const toggle = $('[data-action=toggle-daily]')!;
  toggle.addEventListener('click', function () {
    const btn = toggle;
    const box = $('#an-daily-table')!;
    box.hidden = !box.hidden;
    btn.setAttribute('aria-expanded', String(!box.hidden));
    btn.textContent = box.hidden ? 'Show as a table' : 'Hide the table';
  });

  // The choices: the caller's showcases; the owner's also the accounts (users).
  loadShowcases(null, 10).then(
    function () {
      showcaseOptions(filters());
      // The owner's pictures link to their showcase's console page once it is known to be the owner key's.
      if (an.owner && an.lastItems) renderItems(an.lastItems);
    },
    function () {
      an.own = an.own || {};
    },
  );
  if (an.selAccount)
    api<AdminUserList>('GET', '/api/admin/users?limit=200').then(function (list) {
      const sel = an.selAccount!;
      const keep = sel.value;
      fill(
        sel,
        [h('option', { value: '', text: 'All accounts' })].concat(
          list.data
            .filter(function (u) {
              return !u.internal;
            })
            .map(function (u) {
              return h('option', { value: u.id, text: u.email + (u.name ? ' (' + u.name + ')' : '') });
            }),
        ),
      );
      choose(sel, keep, keep);
    });
  load(false);
}
