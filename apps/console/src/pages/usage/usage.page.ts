/** Usage: credits per day (last 30 days), ledger entries, CSV download. */
import { api } from '../../shared/api';
import type { LedgerEntry, Usage } from '../../shared/api-types';
import { $, empty, failed, fill, h, table } from '../../shared/dom';
import { credits, when } from '../../shared/format';

export function usagePage(): void {
  const chart = $('[data-testid=chart]')!;
  const ledger = $('[data-testid=ledger]')!;
  let entries: LedgerEntry[] = [];
  api<Usage>('GET', '/api/v2/usage?limit=200').then(function (u) {
    entries = u.data;
    fill(
      ledger,
      entries.length
        ? table(
            ['Date', 'Kind', 'Operation', 'Credits', 'Balance after', 'Job'],
            entries.map(function (e) {
              return [
                when(e.created_at),
                e.kind,
                e.operation,
                (e.kind === 'charge' ? '−' : '+') + credits(e.amount),
                e.balance_after === null ? null : credits(e.balance_after),
                e.job_id,
              ];
            }),
            'Ledger entries',
          )
        : empty('No ledger entries yet.'),
    );
    drawChart(chart, entries);
  }, failed(ledger));
  $('[data-action=csv]')!.addEventListener('click', function () {
    const head: (string | number | null)[][] = [['id', 'created_at', 'kind', 'operation', 'amount', 'balance_after', 'job_id', 'reason']];
    const rows = head.concat(
      entries.map(function (e) {
        return [e.id, e.created_at, e.kind, e.operation, e.amount, e.balance_after, e.job_id, e.reason];
      }),
    );
    const csv = rows
      .map(function (r) {
        return r
          .map(function (c) {
            const s = c === null || c === undefined ? '' : String(c);
            return /[",\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
          })
          .join(',');
      })
      .join('\n');
    const a = h('a', { href: URL.createObjectURL(new Blob([csv], { type: 'text/csv' })), download: 'usage.csv' });
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
}

/** Credits spent per day over the last 30 days, as an inline SVG bar chart with a text alternative. */
function drawChart(box: HTMLElement, entries: LedgerEntry[]) {
  const days: { t: number; v: number }[] = [];
  const now = new Date();
  now.setHours(0, 0, 0, 0);
  for (let i = 29; i >= 0; i--) days.push({ t: now.getTime() - i * 86400000, v: 0 });
  entries.forEach(function (e) {
    if (e.kind !== 'charge') return;
    const d = new Date(e.created_at);
    d.setHours(0, 0, 0, 0);
    const slot = days.filter(function (x) {
      return x.t === d.getTime();
    })[0];
    if (slot) slot.v += e.amount;
  });
  const max = Math.max.apply(
    null,
    days
      .map(function (d) {
        return d.v;
      })
      .concat([1]),
  );
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 300 110');
  svg.setAttribute('role', 'img');
  const total = days.reduce(function (s, d) {
    return s + d.v;
  }, 0);
  svg.setAttribute(
    'aria-label',
    'Credits spent per day, last 30 days: ' + credits(total) + ' in total, at most ' + credits(max) + ' on one day',
  );
  days.forEach(function (d, i) {
    const hgt = (d.v / max) * 100;
    const r = document.createElementNS(NS, 'rect');
    r.setAttribute('x', String(i * 10 + 1));
    r.setAttribute('width', '8');
    r.setAttribute('y', String(102 - hgt));
    r.setAttribute('height', String(Math.max(hgt, 0.5)));
    r.setAttribute('class', 'bar');
    const tt = document.createElementNS(NS, 'title');
    tt.textContent = new Date(d.t).toLocaleDateString() + ': ' + credits(d.v) + ' credits';
    r.appendChild(tt);
    svg.appendChild(r);
  });
  fill(box, total ? svg : empty('No credits spent in the last 30 days.'));
}
