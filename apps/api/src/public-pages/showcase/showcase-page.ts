import { t } from '@app/catalogue';
import { isFinal, type JobStatus } from '@app/pipeline';
import { esc } from '../../http/html';
import { DEFAULT_PAGE_LOCALE, withLang, type PageLocale } from '../page-locale';
import type { Surface } from '@app/analytics';
import type { BeaconConfig, TapRoute } from '../beacon';
import { forSale, type Platform } from '../platform';
import type { ShareImage } from './open-graph';
import { brandHeader, htmlDocument } from './page-shell';
import { displayTitle, outerInches, type PageItem, thumbHeight } from './showcase-items';
import { layoutBody } from './showcase-layouts';

export { SHOWCASE_CSP } from './page-shell';
export { readableOn } from './showcase-theme';
export type { PageItem } from './showcase-items';

export interface PageShowcase {
  layout: string;
  logoUrl: string | null;
  description: string | null;
  links: { title: string; url: string }[];
  tagline: string | null;
  /** Validated hex colours (#rgb / #rrggbb) or null for the layout's default. */
  primary: string | null;
  secondary: string | null;
  /** The full page's public address (canonical, also for the embed variant). */
  pageUrl: string;
  /** The owner's choice; embed pages are never indexable whatever it says. */
  indexable: boolean;
  items: PageItem[];
  /** The page's language and units, and the visitor's `?lang=` (English and inches when absent). */
  loc?: PageLocale;
  /**
   * Analytics on (the deployment's and the showcase's switch): the beacon endpoint, the showcase's public id,
   * and on an https service the base of its tap route (`…/r/shw_…`). Absent: the pages send nothing.
   */
  analytics?: { url: string; site: string; taps?: string };
}

/** What the page's beacon script reads (beacon.ts), or undefined when the showcase's pages send nothing. */
export function pageBeacon(s: PageShowcase, surface: BeaconConfig['surface'], itemId?: number): BeaconConfig | undefined {
  const a = s.analytics;
  return a ? { url: a.url, site: a.site, surface, ...(itemId ? { item_id: itemId } : {}) } : undefined;
}

/** Where the page's Scene Viewer banner taps are counted, or undefined (analytics off, an http service). */
export function pageTaps(s: PageShowcase, surface: Surface): TapRoute | undefined {
  return s.analytics?.taps ? { base: s.analytics.taps, surface } : undefined;
}

/** The page's language and units. */
export const localeOf = (s: PageShowcase): PageLocale => s.loc ?? DEFAULT_PAGE_LOCALE;

/** The showcase page's address in the visitor's chosen language (pageUrl itself when they chose none). */
export const homeUrl = (s: PageShowcase): string => withLang(s.pageUrl, localeOf(s).lang);

/** Whether any item is still converting (the page then refreshes itself and is not cached). */
export const hasPending = (items: readonly { status: string }[]): boolean => items.some((i) => !isFinal(i.status as JobStatus));

/** The picture a shared link shows: the first converted item, as the 1200 px JPEG made from its poster, with its size. */
export function shareImage(items: PageItem[]): ShareImage | undefined {
  const first = items.find((i) => i.ready);
  if (!first?.ready) return undefined;
  return itemShareImage(first);
}

export function itemShareImage(i: PageItem): ShareImage | undefined {
  const r = i.ready;
  if (!r) return undefined;
  const { w, h } = outerInches(r);
  if (!r.shareUrl) return { url: r.posterUrl, width: 1024 * Math.min(1, w / h), height: 1024 * Math.min(1, h / w), alt: displayTitle(i) };
  return { url: r.shareUrl, width: SHARE_WIDTH, height: thumbHeight(SHARE_WIDTH, w, h), alt: displayTitle(i) };
}
const SHARE_WIDTH = 1200;

/**
 * The public showcase page (and, with `embed`, its iframe variant): logo, tagline, colours, description,
 * custom links and the items in the chosen layout. It refreshes itself while pictures are converting (no
 * script for that). The one script: on iOS, when an item has a link, the Quick Look banner-tap script
 * (only a script can open it: Quick Look reports the tap as a DOM message event).
 */
export function showcasePage(s: PageShowcase, platform: Platform, embed: boolean): string {
  const loc = localeOf(s);
  const links = s.links.length
    ? `<nav class="links" aria-label="${esc(t(loc.locale, 'page.linksLabel'))}">${s.links.map((l) => `<a href="${esc(l.url)}" target="_blank" rel="noopener noreferrer nofollow ugc">${esc(l.title)}</a>`).join('')}</nav>`
    : '';
  // The tap script only where a banner link survives (a sold work's is dropped: see arBanner).
  const tap = platform === 'ios' && s.items.some((i) => i.ready?.presentation?.banner.link_url && (!i.artwork || forSale(i.artwork.label)));
  const body = `<main class="sc">
${brandHeader(s, { heading: true, loc })}
${s.description ? `<p class="description">${esc(s.description)}</p>` : ''}
${links}
${layoutBody(s.layout, s.items, { platform, embed, loc, tap: pageTaps(s, 'showcase') })}
</main>`;
  const title = s.tagline || t(loc.locale, 'page.showcaseTitle');
  return htmlDocument({
    title,
    share: {
      title,
      description: s.description,
      // The chosen language's page is a page of its own (crawlers find the others through hreflang).
      canonicalUrl: homeUrl(s),
      alternates: s.indexable && !embed ? s.pageUrl : undefined,
      image: shareImage(s.items),
      indexable: s.indexable && !embed,
    },
    brand: s,
    bodyClass: embed ? 'embed' : 'page',
    platform,
    body,
    scripts: tap ? ['quick-look'] : [],
    refresh: hasPending(s.items),
    loc,
    beacon: pageBeacon(s, 'showcase'),
  });
}
