import { isFinal, type JobStatus } from '@app/pipeline';
import { esc } from '../../http/html';
import type { Platform } from '../platform';
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
}

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
  const links = s.links.length
    ? `<nav class="links" aria-label="Links">${s.links.map((l) => `<a href="${esc(l.url)}" target="_blank" rel="noopener noreferrer nofollow ugc">${esc(l.title)}</a>`).join('')}</nav>`
    : '';
  const tap = platform === 'ios' && s.items.some((i) => i.ready?.presentation?.banner.link_url);
  const body = `<main class="sc">
${brandHeader(s, { heading: true })}
${s.description ? `<p class="description">${esc(s.description)}</p>` : ''}
${links}
${layoutBody(s.layout, s.items, { platform, embed })}
</main>`;
  return htmlDocument({
    title: s.tagline || 'AR showcase',
    share: {
      title: s.tagline || 'AR showcase',
      description: s.description,
      canonicalUrl: s.pageUrl,
      image: shareImage(s.items),
      indexable: s.indexable && !embed,
    },
    brand: s,
    bodyClass: embed ? 'embed' : 'page',
    platform,
    body,
    scripts: tap ? ['quick-look'] : [],
    refresh: hasPending(s.items),
  });
}
