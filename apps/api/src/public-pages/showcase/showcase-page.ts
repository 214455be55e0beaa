import { t } from '@app/catalogue';
import { isFinal, type JobStatus } from '@app/pipeline';
import { esc } from '../../http/html';
import { DEFAULT_PAGE_LOCALE, plainSize, withLang, type PageLocale } from '../page-locale';
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
  /**
   * Visitors may choose pictures to see together (visitor walls on, the full page, two or more wall pictures):
   * the together page's address, the form's action.
   */
  together?: { action: string };
  /** The owner's saved gallery walls that are built, newest first: a card each after the pictures. */
  walls?: PageWall[];
  /** The oEmbed endpoint its pages (showcase, item, wall) name in their discovery link (absent: no link). */
  oembed?: string;
}

/** A saved gallery wall's card: its name, poster, outer size and page. */
export interface PageWall {
  id: string;
  name: string;
  posterUrl: string;
  url: string;
  widthInches: number;
  heightInches: number;
}

/** The id of the showcase page's together form (the cards' checkboxes name it in `form=`; NAV_SCRIPT finds it). */
export const TOGETHER_FORM = 'together';

const TOGETHER_STYLE = `
body{counter-reset:chosen}
.hang{display:inline-flex;align-items:center;gap:8px;min-height:40px;margin-top:6px;font-size:14px;font-weight:600;cursor:pointer}
.hang input{width:20px;height:20px;margin:0;accent-color:var(--primary)}
.hang:has(:checked){counter-increment:chosen}
.together-bar{position:sticky;bottom:12px;z-index:5;display:none;flex-wrap:wrap;align-items:center;justify-content:center;gap:8px 16px;max-width:720px;margin:24px auto 0;padding:10px 12px 10px 20px;border-radius:999px;background:var(--fg);color:var(--bg);box-shadow:0 4px 18px rgba(0,0,0,.3)}
body:has(.hang :checked) .together-bar{display:flex}
.together-bar[hidden]{display:none!important}
.together-bar .chosen{font-weight:650}
.together-bar .chosen .n:empty::before{content:counter(chosen)}
.together-bar button{min-height:44px;padding:8px 20px;border:0;border-radius:999px;background:var(--primary);color:var(--primary-fg);font:inherit;font-weight:650;cursor:pointer}
.together-bar button:focus-visible,.hang input:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
@media (max-width:600px){.together-bar{border-radius:16px;padding:10px 12px}.together-bar button{width:100%}}
.walls{margin-top:40px}
.walls h2{margin:0 0 16px;font-size:22px}
.walls .wall-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:28px 24px;align-items:start}
.wall-card{display:flex;flex-direction:column;min-width:0;text-decoration:none;color:inherit}
.wall-card img{display:block;width:100%;height:auto;aspect-ratio:var(--ar);object-fit:contain;background:#ebe6de;border-radius:6px}
.wall-card .name{margin-top:10px;font-weight:650;overflow-wrap:anywhere}
.wall-card .size{display:block}
.wall-card .go{align-self:flex-start;margin-top:8px}
`;

/**
 * The bar that appears once two or more pictures are ticked ("3 chosen · See them together on your wall"): a
 * GET form whose checkboxes are the cards' (`form="together"`). Without a script the count is a CSS counter of
 * the ticked boxes and the bar shows once one is ticked; with one (NAV_SCRIPT) the script writes the count, the
 * bar shows from two, and the button opens the canonical `?items=12,15,19` address.
 */
function togetherBar(s: PageShowcase, loc: PageLocale): string {
  if (!s.together) return '';
  const [pre, post] = t(loc.locale, 'together.chosen', { n: '\u0000' }).split('\u0000');
  const lang = loc.lang ? `<input type="hidden" name="lang" value="${loc.lang}">` : '';
  return (
    `<form id="${TOGETHER_FORM}" class="together-bar" method="get" action="${esc(s.together.action)}">${lang}` +
    `<span class="chosen" aria-live="polite">${esc(pre ?? '')}<span class="n"></span>${esc(post ?? '')}</span>` +
    `<button type="submit">${esc(t(loc.locale, 'together.see'))}</button></form>`
  );
}

/** The saved gallery walls' cards: poster, name, outer size and "View on your wall". */
function wallCards(s: PageShowcase, loc: PageLocale, embed: boolean): string {
  if (!s.walls?.length) return '';
  const target = embed ? ' target="_blank" rel="noopener"' : '';
  const cards = s.walls
    .map((w) => {
      const width = 480;
      const height = Math.max(1, Math.round((width * w.heightInches) / w.widthInches));
      return (
        `<a class="wall-card" id="${esc(w.id)}" href="${esc(withLang(w.url, loc.lang))}"${target} style="--ar:${w.widthInches / w.heightInches}">` +
        `<img src="${esc(w.posterUrl)}" alt="" width="${width}" height="${height}" loading="lazy" decoding="async">` +
        `<span class="name">${esc(w.name)}</span><span class="size">${esc(t(loc.locale, 'together.size', { size: plainSize(w.widthInches, w.heightInches, loc) }))}</span>` +
        `<span class="wall-btn go">${esc(t(loc.locale, 'ar.viewOnYourWall'))}</span></a>`
      );
    })
    .join('');
  return `<section class="walls" aria-labelledby="walls-heading"><h2 id="walls-heading">${esc(t(loc.locale, 'together.walls'))}</h2><div class="wall-cards">${cards}</div></section>`;
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
  if (!r.shareUrl) {
    const size = r.posterSize ?? { width: 1024 * Math.min(1, w / h), height: 1024 * Math.min(1, h / w) };
    return { url: r.posterUrl, ...size, alt: displayTitle(i) };
  }
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
${layoutBody(s.layout, s.items, { platform, embed, loc, tap: pageTaps(s, 'showcase'), together: s.together && !embed ? TOGETHER_FORM : undefined })}
${wallCards(s, loc, embed)}
${embed ? '' : togetherBar(s, loc)}
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
      oembed: s.oembed,
    },
    brand: s,
    bodyClass: embed ? 'embed' : 'page',
    platform,
    body,
    // The together form's script is NAV_SCRIPT's (it finds nothing else to do here).
    scripts: [...(tap ? (['quick-look'] as const) : []), ...(s.together && !embed ? (['nav'] as const) : [])],
    refresh: hasPending(s.items),
    extraStyle: s.together || s.walls?.length ? TOGETHER_STYLE : undefined,
    loc,
    beacon: pageBeacon(s, 'showcase'),
  });
}
