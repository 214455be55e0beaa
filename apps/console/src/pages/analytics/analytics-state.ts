/** The Analytics page's elements and what it has loaded, shared by its modules (one page per load). */
import type { AnalyticsGroup, ShowcaseSummary } from '../../shared/api-types';
import { $ } from '../../shared/dom';

/** One day of the chart and its table: a day without counts is 0. */
export interface DailyPoint {
  day: string;
  views: number;
  interactions: number;
  ar: number;
  taps: number;
  visitors: number | null;
}
/** The range drawn: its first and last day and every day of it. */
export interface Daily {
  from: string;
  to: string;
  list: DailyPoint[];
}
/** The filters as the form holds them (and the URL): dates YYYY-MM-DD; '' for none. */
export interface Filters {
  from: string;
  to: string;
  showcase_id: string;
  account_id: string;
}

export interface AnalyticsState {
  form: HTMLFormElement;
  /** The owner's console: other accounts are counted too (the account filter). */
  owner: boolean;
  /** Today (UTC) as the server saw it when it rendered the page. */
  TODAY: string;
  out: HTMLElement;
  results: HTMLElement;
  emptyBox: HTMLElement;
  privacy: HTMLElement;
  live: HTMLElement;
  rangeErr: HTMLElement;
  selShowcase: HTMLSelectElement;
  /** Only on the owner's page. */
  selAccount: HTMLSelectElement | null;
  fromIn: HTMLInputElement;
  toIn: HTMLInputElement;
  /** Showcases the console can open (the caller's own): id -> summary. */
  own: Record<string, ShowcaseSummary> | null;
  /** Showcases seen in the counts (the owner's view of other accounts): id -> true. */
  counted: Record<string, boolean>;
  /** The latest load: an older answer that comes later is dropped. */
  seq: number;
  daily: Daily | null;
  lastItems: AnalyticsGroup[] | null;
}

/** Filled by {@link initAnalyticsState} when the page starts. */
export const an = {} as AnalyticsState;

export function initAnalyticsState(): void {
  const body = document.body;
  an.form = $<HTMLFormElement>('[data-form=analytics-filter]')!;
  an.owner = body.getAttribute('data-role') === 'owner';
  an.TODAY = body.getAttribute('data-today') as string;
  an.out = $('[data-testid=analytics]')!;
  an.results = $('[data-testid=analytics-results]')!;
  an.emptyBox = $('[data-testid=analytics-empty]')!;
  an.privacy = $('[data-testid=privacy]')!;
  an.live = $('[data-testid=analytics-live]')!;
  an.rangeErr = $('#an-range-err')!;
  an.selShowcase = $<HTMLSelectElement>('#an-showcase')!;
  an.selAccount = $<HTMLSelectElement>('#an-account');
  an.fromIn = $<HTMLInputElement>('#an-from')!;
  an.toIn = $<HTMLInputElement>('#an-to')!;
  an.own = null;
  an.counted = {};
  an.seq = 0;
  an.daily = null;
  an.lastItems = null;
}
