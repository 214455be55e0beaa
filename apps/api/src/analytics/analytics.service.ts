import { Injectable } from '@nestjs/common';
import { utcDay } from '@app/analytics';
import { toCsvCell } from '@app/catalogue';
import {
  type AnalyticsGroup,
  AnalyticsRepository,
  type EventCounts,
  JobRepository,
  ShowcaseItemRepository,
  ShowcaseRepository,
} from '@app/persistence';
import { parseInput } from '@app/schema';
import { ApiError } from '../http/api-error';
import type { Principal } from '../http/api-key.guard';
import { AnalyticsQuery, MAX_DAYS } from './analytics.schema';

const DAY_MS = 86_400_000;

/** The totals every answer and group carries, named as the API names them. */
function totalsOf(c: EventCounts, visitors: number | null) {
  return {
    views: c.view ?? 0,
    interactions: c.interact ?? 0,
    ar_launches: c.ar_launch ?? 0,
    banner_taps: c.banner_tap ?? 0,
    qr_opens: c.qr_open ?? 0,
    variant_selects: c.variant_select ?? 0,
    room_views: c.room_view ?? 0,
    unique_visitors: visitors,
  };
}
type Totals = ReturnType<typeof totalsOf>;

/** Share of `of`, 4 decimals; null when `of` is 0. */
const rate = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10_000) / 10_000 : null);

/** views -> interactions -> AR launches -> banner taps: each step's count, its rate from the step before and from views. */
export function funnel(t: Totals) {
  const steps = [
    ['views', t.views],
    ['interactions', t.interactions],
    ['ar_launches', t.ar_launches],
    ['banner_taps', t.banner_taps],
  ] as const;
  return steps.map(([step, count], i) => ({
    step,
    count,
    rate: i === 0 ? null : rate(count, steps[i - 1][1]),
    of_views: rate(count, t.views),
  }));
}

const CSV_COLUMNS = [
  'views',
  'interactions',
  'ar_launches',
  'banner_taps',
  'qr_opens',
  'variant_selects',
  'room_views',
  'unique_visitors',
] as const;

/** A CSV cell as the import report writes it (@app/catalogue toCsvCell: quoted, formulas neutralised). */
const cell = (v: unknown): string => toCsvCell(v === null || v === undefined ? '' : String(v));

/**
 * GET /api/v2/analytics: the caller's engagement counts over a range of days (every account's for the owner
 * key, or one with account_id), optionally for one showcase or item, with the funnel and the groups asked for.
 */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly repo: AnalyticsRepository,
    private readonly showcases: ShowcaseRepository,
    private readonly showcaseItems: ShowcaseItemRepository,
    private readonly jobs: JobRepository,
  ) {}

  async report(p: Principal, query: unknown, now = new Date()) {
    const q = parseInput(AnalyticsQuery, query ?? {});
    const to = q.to ?? utcDay(now);
    const from = q.from ?? utcDay(new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS));
    if ((Date.parse(to) - Date.parse(from)) / DAY_MS + 1 > MAX_DAYS)
      throw ApiError.invalid('from', `from: at most ${MAX_DAYS} days per request (from ${from} to ${to})`);
    const owner = p.keyType === 'owner';
    if (q.account_id && !owner)
      throw ApiError.invalid('account_id', 'account_id: only the owner key reads other accounts', 'parameter_unknown');
    const ownerId = owner ? (q.account_id ?? null) : p.userId;
    if (q.showcase_id !== undefined) {
      const s =
        owner && !q.account_id ? await this.showcases.findById(q.showcase_id) : await this.showcases.findForOwner(q.showcase_id, ownerId!);
      if (!s) throw ApiError.notFound(`showcase ${q.showcase_id}`);
    }
    if (q.item_id !== undefined) {
      const item = await this.showcaseItems.itemOwnedBy(q.item_id, ownerId, q.showcase_id);
      if (!item) throw ApiError.notFound(`item ${q.item_id}`);
    }
    const byJob = q.job_id !== undefined ? await this.jobFilter(q.job_id, ownerId, q.showcase_id, q.item_id) : {};
    const r = await this.repo.totals({ ownerId, from, to, showcaseId: q.showcase_id, itemId: q.item_id, ...byJob }, q.group_by);
    const totals = totalsOf(r.counts, r.visitors);
    const body = {
      object: 'analytics' as const,
      from,
      to,
      account_id: ownerId,
      showcase_id: q.showcase_id ?? null,
      item_id: q.item_id ?? null,
      job_id: q.job_id ?? null,
      totals,
      funnel: funnel(totals),
      group_by: q.group_by ?? null,
      groups: r.groups ? groupsView(r.groups, q.group_by!) : null,
    };
    return { format: q.format ?? 'json', body, csv: () => toCsv(body) };
  }

  /**
   * What `job_id` reads: a conversion of its own (v1, animated AR) is counted as its job (docs/analytics.md,
   * "v1 embeds"); a showcase picture's job, as its item. 404 when the job is not the account's (every
   * account's for the owner key without account_id) or not in the showcase_id / item_id also asked for.
   */
  private async jobFilter(jobId: string, ownerId: string | null, showcaseId?: number, itemId?: number) {
    const job = ownerId === null ? await this.jobs.find(jobId) : await this.jobs.findForOwner(jobId, ownerId);
    const item = job?.kind === 'v2.picture' ? await this.showcaseItems.itemForJob(job.id) : null;
    const fits = item
      ? (showcaseId === undefined || showcaseId === item.showcaseId) && (itemId === undefined || itemId === item.id)
      : showcaseId === undefined && itemId === undefined;
    if (!job || !fits) throw ApiError.notFound(`job ${jobId}`);
    return item ? { itemId: item.id } : { jobId: job.id };
  }
}

function groupsView(groups: AnalyticsGroup[], by: string) {
  const list = groups.map((g) => ({
    key: g.key,
    ...(by === 'item' ? { item_id: Number(g.key), showcase_id: g.showcaseId ?? null, title: g.title ?? null } : {}),
    ...(by === 'job' ? { job_id: g.key } : {}),
    ...totalsOf(g.counts, g.visitors),
  }));
  // Items and conversions are ranked by AR launches (then views); days, platforms and referrers keep their order.
  if (by === 'item') list.sort((a, b) => b.ar_launches - a.ar_launches || b.views - a.views || a.item_id! - b.item_id!);
  if (by === 'job') list.sort((a, b) => b.ar_launches - a.ar_launches || b.views - a.views || a.key.localeCompare(b.key));
  if (by === 'referrer') list.sort((a, b) => b.views - a.views || a.key.localeCompare(b.key));
  return list;
}

function toCsv(body: {
  from: string;
  to: string;
  group_by: string | null;
  totals: Totals;
  groups: ReturnType<typeof groupsView> | null;
}): string {
  const head = body.group_by
    ? [body.group_by, ...(body.group_by === 'item' ? ['showcase_id', 'title'] : []), ...CSV_COLUMNS]
    : ['from', 'to', ...CSV_COLUMNS];
  const lines = [head.join(',')];
  if (body.groups) {
    for (const g of body.groups) {
      const extra = body.group_by === 'item' ? [g.showcase_id, g.title] : [];
      lines.push([g.key || '(none)', ...extra, ...CSV_COLUMNS.map((c) => g[c])].map(cell).join(','));
    }
  } else lines.push([body.from, body.to, ...CSV_COLUMNS.map((c) => body.totals[c])].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
