import { t, translateCount } from '@app/catalogue';
import { esc } from '../../http/html';
import { headlineHtml, labelLines } from '../artwork';
import { DEFAULT_PAGE_LOCALE, num, type PageLocale } from '../page-locale';
import type { Platform } from '../platform';
import { arBanner, forSale, quickLookHref, sceneViewerIntent, sceneViewerTitle, sizeLabel } from '../platform';
import { tapLink, type TapRoute } from '../beacon';
import { fromPrice } from './page-variants';
import { displayTitle, outerInches, type PageItem, type ReadyItem, thumbHeight } from './showcase-items';

export interface CardContext {
  platform: Platform;
  embed: boolean;
  /** The page's language and units (English and inches when absent). */
  loc?: PageLocale;
  layout: string;
  /** Position in the showcase (0-based), for eager loading and the minimal layout's steps. */
  index: number;
  /** The items around this one (minimal layout: previous / next links). */
  prevId?: number;
  nextId?: number;
  count: number;
  /** Where the Scene Viewer banner's taps are counted (analytics on, https service). */
  tap?: TapRoute;
  /** The id of the page's "See them together" form: wall pictures get a "Hang together" checkbox in it. */
  together?: string;
}

/** Pictures above the fold load at once (the first is the page's largest paint); the rest lazily. */
const EAGER = 4;

/** `sizes` per layout: the width the picture takes, so the browser picks the right thumbnail. */
function sizesFor(layout: string, r: ReadyItem): string {
  if (layout === 'minimal') return '(max-width: 1000px) 100vw, 960px';
  if (layout === 'salon') return `${Math.min(Math.ceil(outerInches(r).w * 8), 960)}px`;
  return '(max-width: 600px) calc(100vw - 24px), 320px';
}

/**
 * The picture as a responsive image: AVIF then WebP thumbnails by width (a `<picture>`: each browser takes
 * the first format it reads), width and height set (the box is reserved before it loads: no layout shift),
 * lazy below the fold.
 */
export function pictureImg(r: ReadyItem, alt: string, sizes: string, eager: boolean): string {
  const { w, h } = outerInches(r);
  const first = r.thumbs[0];
  const srcsetOf = (list: { url: string; width: number }[]) => list.map((t) => `${esc(t.url)} ${t.width}w`).join(', ');
  const srcset = srcsetOf(r.thumbs);
  const width = first?.width ?? 480;
  const height = thumbHeight(width, w, h);
  const src = first ? first.url : r.posterUrl;
  const loading = eager ? ' fetchpriority="high"' : ' loading="lazy"';
  const img = `<img src="${esc(src)}"${srcset ? ` srcset="${srcset}" sizes="${esc(sizes)}"` : ''} width="${width}" height="${height}" alt="${esc(alt)}" decoding="async"${loading}>`;
  if (!r.avifThumbs?.length) return img;
  return `<picture><source type="image/avif" srcset="${srcsetOf(r.avifThumbs)}" sizes="${esc(sizes)}">${img}</picture>`;
}

/** Every platform's AR launch of an item: Quick Look's href and banner link, Scene Viewer's intent, the 3D page. */
export interface ArLinks {
  quickLook: string;
  /** The Quick Look banner tap's link (data-link), when there is one. */
  link?: string;
  /** The Quick Look button's icon. */
  icon: string;
  sceneViewer: string;
  /** The desktop 3D / AR page (model-viewer). */
  embed: string;
}

/**
 * `tap`: Scene Viewer's banner link goes through the tap route (counted as a banner_tap, beacon.ts), for the
 * variant `variant` when given; Quick Look's banner tap is seen by the page itself.
 */
export function arLinks(i: PageItem, r: ReadyItem, loc: PageLocale = DEFAULT_PAGE_LOCALE, tap?: TapRoute, variant?: string): ArLinks {
  const p = r.presentation;
  // A catalogued work's banner carries its label; a sold one offers nothing to buy (no action, price or link).
  const b = arBanner(p?.banner ?? {}, i.artwork, loc.locale);
  const title = sceneViewerTitle(p ? (b.title ?? i.title) : i.title, i.artwork);
  return {
    quickLook: quickLookHref(r.usdzUrl, { allowScaling: p?.allowScaling ?? false, banner: b }),
    ...(b.link_url ? { link: b.link_url } : {}),
    icon: r.thumbs[0]?.url ?? r.posterUrl,
    sceneViewer: sceneViewerIntent(
      r.glbUrl,
      r.embedUrl,
      p
        ? { title, link: tapLink(b.link_url, i.id, tap, variant), placement: p.placement, allowScaling: p.allowScaling }
        : { title, placement: 'floor', allowScaling: false },
    ),
    embed: r.embedUrl,
  };
}

/**
 * The platform's AR launch as a button (iOS Quick Look, Android Scene Viewer, desktop: the 3D page).
 * `swappable`: an item page with variants, whose script replaces the href (`data-v-href="ar"`) and, on iOS,
 * the banner link (`data-link`, there even when empty so the banner-tap script listens from the start).
 * `tap`, `variant`: see {@link arLinks}.
 */
export function arButton(
  i: PageItem,
  r: ReadyItem,
  platform: Platform,
  embed: boolean,
  loc: PageLocale = DEFAULT_PAGE_LOCALE,
  swappable = false,
  tap?: TapRoute,
  variant?: string,
): string {
  const l = arLinks(i, r, loc, tap, variant);
  const launch = esc(t(loc.locale, 'ar.viewInYourSpace'));
  const hook = swappable ? ' data-v-href="ar"' : '';
  if (platform === 'ios') {
    // Quick Look needs an <img> child inside the rel="ar" anchor; a tap on its banner comes back as a
    // message event on the anchor, and QUICK_LOOK_TAP_SCRIPT opens data-link.
    const link = l.link || swappable ? ` data-link="${esc(l.link ?? '')}"` : '';
    return `<a class="ar" rel="ar" href="${esc(l.quickLook)}"${hook}${link}><img src="${esc(l.icon)}" alt="" width="20" height="20" loading="lazy">${launch}</a>`;
  }
  if (platform === 'android') return `<a class="ar" target="_top" href="${esc(l.sceneViewer)}"${hook}>${launch}</a>`;
  // model-viewer lives on the 3D page only: the showcase never loads it.
  return `<a class="ar" target="${embed ? '_blank' : '_self'}" rel="noopener" href="${esc(l.embed)}"${hook}>${esc(t(loc.locale, 'ar.viewIn3dAr'))}</a>`;
}

/** "See it on a wall": the item hung on a plain wall next to a sofa or a person, to scale. */
export function wallButton(r: ReadyItem, embed: boolean, loc: PageLocale = DEFAULT_PAGE_LOCALE, swappable = false): string {
  return `<a class="wall-btn" href="${esc(r.wallUrl)}"${embed ? ' target="_blank" rel="noopener"' : ''}${swappable ? ' data-v-href="wall"' : ''}>${esc(t(loc.locale, 'wall.seeOnWall'))}</a>`;
}

/**
 * The card's text. A plain picture: title, price, subtitle, frame and buy link (the wall-ready AR banner
 * fields). A catalogued work: its wall label in gallery order (Artist, *Title*, year; medium; size;
 * edition; price; availability, a red dot when sold), then subtitle and frame, and the buy link only while
 * it is for sale. An item sold in several sizes and frames: "from <its lowest price>" for the price and
 * "<n> sizes" instead of one size and frame.
 */
export function caption(i: PageItem, r: ReadyItem, loc: PageLocale = DEFAULT_PAGE_LOCALE): string {
  const b = r.presentation?.banner ?? {};
  const title = displayTitle(i);
  const cta = esc(b.call_to_action ?? t(loc.locale, 'item.viewDetails'));
  const link = (show: boolean) =>
    show && b.link_url ? `<a class="link" href="${esc(b.link_url)}" target="_top" rel="noopener">${cta}</a>` : '';
  const variants = i.variants?.length ? i.variants : undefined;
  // Sold in several sizes and frames: the card names none of them (their number instead), the item page shows each.
  const frame = r.frameLabel && !variants ? `<span class="frame">${esc(r.frameLabel)}</span>` : '';
  const details = `${b.subtitle ? `<span class="sub">${esc(b.subtitle)}</span>` : ''}${frame}`;
  const price = variants ? fromPrice(variants, loc.locale) : b.price;
  const sizes = variants ? `<span class="sizes">${esc(translateCount(loc.locale, 'count.sizes', variants.length))}</span>` : '';
  const art = i.artwork;
  if (art) {
    const head = art.label.headline.length
      ? `<span class="headline">${headlineHtml(art.label)}</span>`
      : `<span class="title">${esc(title)}</span>`;
    // The label states a price only while the work is for sale (formatLabel); with variants, their lowest.
    const shown = variants ? { ...art, size: undefined, label: { ...art.label, price: forSale(art.label) ? price : undefined } } : art;
    return `<div class="caption label">${head}${labelLines(shown, 'span')}${sizes}${details}${link(forSale(art.label))}</div>`;
  }
  return (
    `<div class="caption"><span class="title">${esc(title)}</span>${price ? `<span class="price">${esc(price)}</span>` : ''}` +
    `${sizes}${details}${link(true)}</div>`
  );
}

/** The minimal layout's steps: previous, "n / N", next (anchors: no script needed). */
function steps(c: CardContext): string {
  if (c.layout !== 'minimal' || c.count < 2) return '';
  const locale = (c.loc ?? DEFAULT_PAGE_LOCALE).locale;
  const prev =
    c.prevId !== undefined
      ? `<a class="step" href="#item-${c.prevId}" aria-label="${esc(t(locale, 'nav.previousPicture'))}"><span aria-hidden="true">‹ </span>${esc(t(locale, 'nav.previous'))}</a>`
      : '<i class="step"></i>';
  const next =
    c.nextId !== undefined
      ? `<a class="step" href="#item-${c.nextId}" aria-label="${esc(t(locale, 'nav.nextPicture'))}">${esc(t(locale, 'nav.next'))}<span aria-hidden="true"> ›</span></a>`
      : '<i class="step"></i>';
  return `<nav class="steps" aria-label="${esc(t(locale, 'page.picturesLabel'))}">${prev}<b class="count">${num(locale, c.index + 1, 0)} / ${num(locale, c.count, 0)}</b>${next}</nav>`;
}

/**
 * The "Hang together" checkbox of a wall picture (none for a floor piece or an item made before placements
 * existed): `name="item"` in the page's together form (`form=`), so without a script the form asks for
 * `?item=12&item=15`; its value is the item id (the together page takes an item's default variant).
 */
export function hangCheckbox(i: PageItem, r: ReadyItem, form: string | undefined, loc: PageLocale): string {
  if (!form || r.presentation?.placement !== 'wall') return '';
  const label = t(loc.locale, 'together.hangTitle', { title: displayTitle(i) });
  return `<label class="hang"><input type="checkbox" name="item" value="${i.id}" form="${esc(form)}" aria-label="${esc(label)}"><span>${esc(t(loc.locale, 'together.hang'))}</span></label>`;
}

/** One item of any layout: picture (opens the larger view), details, size, AR and wall buttons. */
export function itemCard(i: PageItem, c: CardContext): string {
  const loc = c.loc ?? DEFAULT_PAGE_LOCALE;
  const r = i.ready;
  if (!r) {
    const status = i.status === 'failed' ? 'failed' : esc(i.status);
    const pct = Math.round(i.progress);
    const body =
      i.status === 'failed'
        ? esc(t(loc.locale, 'item.failed'))
        : `<span>${esc(t(loc.locale, 'item.preparing'))}</span><progress max="100" value="${pct}">${num(loc.locale, pct, 0)}%</progress>`;
    return `<article class="item ${i.status === 'failed' ? 'failed' : 'pending'}" id="item-${i.id}" data-item="${i.id}" data-status="${status}" style="--w:24;--ar:1"><div class="media placeholder">${body}</div><div class="info"><div class="meta"><span>${esc(i.title)}</span></div></div></article>`;
  }
  const p = r.presentation;
  const { w, h } = outerInches(r);
  const title = displayTitle(i);
  const img = pictureImg(r, title, sizesFor(c.layout, r), c.index < (c.layout === 'minimal' ? 1 : EAGER));
  const target = c.embed ? ' target="_blank" rel="noopener"' : '';
  const placement = p ? ` data-placement="${p.placement}"` : '';
  // A work with a real size states it in its label; a plain picture shows the AR model's size here.
  const size =
    i.artwork?.size || i.variants?.length ? '' : `<span class="size">${esc(sizeLabel(r.widthInches, r.heightInches, p, loc))}</span>`;
  const availability = i.artwork ? ` data-availability="${i.artwork.label.availability.kind}"` : '';
  return (
    `<article class="item" id="item-${i.id}" data-item="${i.id}" data-status="completed"${availability}${placement} data-width-inches="${w}" data-height-inches="${h}" style="--w:${w};--ar:${w / h}">` +
    `<a class="media" href="${esc(r.itemUrl)}"${target} data-view="${i.id}" aria-label="${esc(t(loc.locale, 'item.largerView', { title }))}">${img}</a>` +
    `<div class="info">${caption(i, r, loc)}<div class="meta">${size}` +
    `<div class="actions">${arButton(i, r, c.platform, c.embed, loc, false, c.tap)}${wallButton(r, c.embed, loc)}</div></div>${hangCheckbox(i, r, c.together, loc)}${steps(c)}</div></article>`
  );
}
