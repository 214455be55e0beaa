import { describeAvailability, jsonLdScript, t, visualArtworkJsonLd, type LabelItem } from '@app/catalogue';
import { esc } from '../../http/html';
import { headlineHtml, labelLines } from '../artwork';
import { framedSize, plainSizeBoth, type PageLocale } from '../page-locale';
import { forSale, sizeLabel, type Platform } from '../platform';
import { brandHeader, htmlDocument } from './page-shell';
import {
  selectedVariant,
  shopSize,
  type VariantData,
  variantDataScript,
  variantForSale,
  variantSelector,
  VARIANT_STYLE,
} from './page-variants';
import { roomLink } from '../room/room-link';
import { arButton, arLinks, pictureImg, wallButton } from './showcase-card';
import { displayTitle, outerInches, type PageItem, type ReadyItem, type ReadyVariant, thumbHeight } from './showcase-items';
import { homeUrl, itemShareImage, localeOf, pageBeacon, pageTaps, type PageShowcase } from './showcase-page';
import { wallScene } from './wall-preview';

const ITEM_STYLE = `
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:0 0 16px}
.pager a{display:inline-flex;align-items:center;justify-content:center;gap:.35em;min-width:44px;min-height:44px;padding:6px 12px;border-radius:8px;font-weight:600;text-decoration:none;border:2px solid rgba(127,127,127,.45)}
.pager .count{color:var(--muted)}
.pager .close{margin-right:auto}
.lightbox{display:grid;grid-template-columns:minmax(0,1fr) minmax(260px,380px);gap:24px 40px;align-items:start}
.lightbox .stage{display:flex;justify-content:center}
.lightbox .media{width:min(100%,calc(80vh * var(--ar)))}
.details h1{margin:0 0 4px;font-size:clamp(22px,3vw,32px);line-height:1.2;overflow-wrap:anywhere}
.details .price{font-size:22px;font-weight:650;margin:4px 0}
.details p{margin:6px 0;overflow-wrap:anywhere}
.details .muted{color:var(--muted)}
.details .buy{display:inline-flex;align-items:center;min-height:44px;margin:12px 0;padding:10px 20px;border-radius:999px;background:var(--accent);color:var(--accent-fg);font-weight:650;text-decoration:none}
.details .actions{margin-top:12px}
.details .headline{margin:0 0 4px;font-size:clamp(22px,3vw,32px);line-height:1.2;font-weight:650;overflow-wrap:anywhere}
.details .dims{color:var(--muted)}
.details .about{white-space:pre-line;max-width:60ch}
.wall-label{margin-top:16px}.wall-label .headline{margin:0;font-weight:650;overflow-wrap:anywhere}.wall-label p{margin:2px 0}
.wall{margin:0}
.wall svg{display:block;width:100%;height:auto;max-height:74vh}
.wall figcaption{margin-top:12px;color:var(--muted);max-width:80ch}
@media (max-width:800px){.lightbox{grid-template-columns:1fr}}
`;

export interface ItemContext {
  showcase: PageShowcase;
  /** Index of the item among the showcase's items. */
  index: number;
  platform: Platform;
  /** The variant the address asks for (`?variant=<sku>`); an unknown or unready one shows the default. */
  variant?: string;
}

function pager(
  c: ItemContext,
  url: (r: ReadyItem) => string,
  close: { href: string; label: string; glyph: string; swap?: string },
): string {
  const locale = localeOf(c.showcase).locale;
  const ready = c.showcase.items.filter((i) => i.ready);
  const at = ready.findIndex((i) => i.id === c.showcase.items[c.index]!.id);
  const prev = ready[at - 1]?.ready;
  const next = ready[at + 1]?.ready;
  const n = new Intl.NumberFormat(locale);
  return (
    `<nav class="pager" aria-label="${esc(t(locale, 'page.picturesLabel'))}"><a class="close" data-nav="close" href="${esc(close.href)}"${close.swap ? ` data-v-href="${close.swap}"` : ''}><span aria-hidden="true">${close.glyph} </span>${esc(close.label)}</a>` +
    (prev ? `<a rel="prev" data-nav="prev" href="${esc(url(prev))}" aria-label="${esc(t(locale, 'nav.previousPicture'))}">‹</a>` : '') +
    `<span class="count">${n.format(at + 1)} / ${n.format(ready.length)}</span>` +
    (next ? `<a rel="next" data-nav="next" href="${esc(url(next))}" aria-label="${esc(t(locale, 'nav.nextPicture'))}">›</a>` : '') +
    '</nav>'
  );
}

/** "On your wall, from a photo" (room/room-page.ts) for a picture that hangs on a wall; '' for a floor piece. */
const roomButton = (r: ReadyItem, loc: PageLocale, swappable = false): string =>
  r.roomUrl && r.presentation?.placement !== 'floor' ? roomLink(r.roomUrl, loc, { swappable }) : '';

/** Whether the item's banner link (buy / details) is offered: not for a sold or not-for-sale work. */
const offersLink = (i: PageItem): boolean => !i.artwork || forSale(i.artwork.label);

const tapScript = (c: ItemContext, i: PageItem, r: ReadyItem): ('quick-look' | 'nav')[] =>
  c.platform === 'ios' && r.presentation?.banner.link_url && offersLink(i) ? ['nav', 'quick-look'] : ['nav'];

/** With variants: the banner-tap script when any variant's AR banner has a link. */
const variantTapScript = (c: ItemContext, i: PageItem): ('quick-look' | 'nav')[] =>
  c.platform === 'ios' && i.variants?.some((v) => v.item?.ready.presentation?.banner.link_url && offersLink(v.item))
    ? ['nav', 'quick-look']
    : ['nav'];

/** The address without `?lang=`: what the language alternates are made from. */
const bare = (url: string): string => url.replace(/\?lang=[a-z]+$/, '');

/**
 * The schema.org VisualArtwork of the item page (a JSON-LD data block: never executed, so the page's
 * script-src does not apply to it): the catalogued work's label, or for a plain picture its title and price.
 */
export function itemJsonLd(i: PageItem, r: ReadyItem, c: ItemContext): string {
  const b = r.presentation?.banner ?? {};
  const item: LabelItem = i.artwork?.ld ?? { title: displayTitle(i), price: b.price };
  const opts = { url: bare(r.itemUrl), imageUrl: r.shareUrl ?? r.posterUrl, units: localeOf(c.showcase).units };
  const ld = visualArtworkJsonLd(item, opts);
  if (!i.variants?.length) return jsonLdScript(ld);
  // Sold in several sizes and frames: an Offer per variant (none for one not for sale), each with its SKU,
  // name and its own page (`?variant=`).
  const offers = i.variants.flatMap((v) => {
    const price = v.item?.ready.presentation?.banner.price ?? v.price ?? undefined;
    const url = `${opts.url}?variant=${encodeURIComponent(v.sku)}`;
    const o = visualArtworkJsonLd({ title: item.title, price, availability: v.availability }, { ...opts, url }).offers;
    return o ? [{ ...o, sku: v.sku, name: v.name }] : [];
  });
  const { offers: _single, ...rest } = ld;
  return jsonLdScript(offers.length ? { ...rest, offers } : rest);
}

/**
 * The larger view of one item, at its own address: the picture as large as the screen allows, its title
 * (a catalogued work: its wall label, in gallery order), subtitle, price, buy link (not for sold works),
 * frame and size, the AR and wall buttons; previous / next / close as links, also on the arrow keys,
 * Escape and a swipe (NAV_SCRIPT); the work's schema.org JSON-LD in the head.
 */
export function itemPage(c: ItemContext): string {
  const s = c.showcase;
  const loc = localeOf(s);
  const i = s.items[c.index]! as PageItem & { ready: ReadyItem };
  const selected = selectedVariant(i.variants, c.variant);
  if (selected) return variantItemPage(c, i, selected);
  const r = i.ready;
  const b = r.presentation?.banner ?? {};
  const title = displayTitle(i);
  const art = i.artwork;
  const { w, h } = outerInches(r);
  const framed = r.presentation?.framed;
  const heading = art?.label.headline.length
    ? `<h1 class="headline">${headlineHtml(art.label)}</h1>`
    : `<h1 class="title">${esc(title)}</h1>`;
  const label = art ? labelLines(art, 'p') : b.price ? `<p class="price">${esc(b.price)}</p>` : '';
  const picture = plainSizeBoth(r.widthInches, r.heightInches, loc);
  const size = art?.size
    ? ''
    : `<p class="size muted">${esc(framedSize(picture, framed && plainSizeBoth(framed.widthInches, framed.heightInches, loc, framed.depthInches), loc))}</p>`;
  const buy =
    b.link_url && offersLink(i)
      ? `<a class="buy" href="${esc(b.link_url)}" rel="noopener">${esc(b.call_to_action ?? t(loc.locale, 'item.viewDetails'))}</a>`
      : '';
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${pager(c, (x) => x.itemUrl, { href: withFragment(homeUrl(s), `item-${i.id}`), label: t(loc.locale, 'nav.allPictures'), glyph: '✕' })}
<main class="lightbox" data-item="${i.id}" style="--ar:${w / h}">
<div class="stage"><div class="media" data-view="${i.id}">${pictureImg(r, title, '(max-width: 800px) 100vw, 66vw', true)}</div></div>
<div class="details${art ? ' label' : ''}">
${heading}
${label}
${art?.description ? `<p class="about">${esc(art.description)}</p>` : ''}
${b.subtitle ? `<p class="sub">${esc(b.subtitle)}</p>` : ''}
${r.frameLabel ? `<p class="frame">${esc(r.frameLabel)}</p>` : ''}
${size}
${buy}
<div class="actions">${arButton(i, r, c.platform, false, loc, false, pageTaps(s, 'item'))}${wallButton(r, false, loc)}${roomButton(r, loc)}</div>
</div>
</main>
</div>`;
  return htmlDocument({
    title: `${title} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: {
      title,
      description: b.subtitle ?? art?.description ?? s.description,
      canonicalUrl: r.itemUrl,
      indexable: s.indexable,
      image: itemShareImage(i),
      alternates: s.indexable ? bare(r.itemUrl) : undefined,
      oembed: s.oembed,
    },
    brand: s,
    bodyClass: 'page item-page',
    platform: c.platform,
    body,
    scripts: tapScript(c, i, r),
    extraStyle: ITEM_STYLE,
    loc,
    head: itemJsonLd(i, r, c),
    beacon: pageBeacon(s, 'item', i.id),
  });
}

/** What the details state for one variant (server-rendered for the selected one, in the JSON for the script). */
function variantFacts(v: ReadyVariant, loc: PageLocale): Pick<VariantData, 'dims' | 'frame' | 'price' | 'kind' | 'availability' | 'buy'> {
  const r = v.item.ready;
  const b = r.presentation?.banner ?? {};
  const sale = variantForSale(v) && offersLink(v.item);
  return {
    dims: shopSize(r.widthInches, r.heightInches, r.presentation, loc),
    frame: r.frameLabel ?? '',
    price: sale ? (b.price ?? '') : '',
    kind: v.availability,
    availability: v.availability === 'available' ? '' : describeAvailability(v.availability, loc.locale).text,
    buy: sale && b.link_url ? { href: b.link_url, text: b.call_to_action ?? t(loc.locale, 'item.viewDetails') } : null,
  };
}

const ITEM_SIZES = '(max-width: 800px) 100vw, 66vw';

/** Everything the page's script needs to show a variant (`surface`: the page's, for the Scene Viewer banner's tap route). */
function variantData(v: ReadyVariant, c: ItemContext, loc: PageLocale, surface: 'item' | 'wall'): VariantData {
  const r = v.item.ready;
  const l = arLinks(v.item, r, loc, pageTaps(c.showcase, surface), v.sku);
  const { w, h } = outerInches(r);
  const width = r.thumbs[0]?.width ?? 480;
  const srcset = (list: { url: string; width: number }[] | undefined) => (list ?? []).map((x) => `${x.url} ${x.width}w`).join(', ');
  return {
    sku: v.sku,
    ratio: w / h,
    img: {
      src: r.thumbs[0]?.url ?? r.posterUrl,
      srcset: srcset(r.thumbs),
      avif: srcset(r.avifThumbs),
      w: width,
      h: thumbHeight(width, w, h),
    },
    ...variantFacts(v, loc),
    links: {
      ar: c.platform === 'ios' ? l.quickLook : c.platform === 'android' ? l.sceneViewer : l.embed,
      wall: r.wallUrl,
      ...(r.roomUrl ? { room: r.roomUrl } : {}),
      item: r.itemUrl,
      embed: r.embedUrl,
      quickLook: l.quickLook,
      sceneViewer: l.sceneViewer,
      glb: r.glbUrl,
      usdz: r.usdzUrl,
      poster: r.posterUrl,
    },
    link: l.link ?? '',
    icon: l.icon,
  };
}

/** The picture of the shown variant, in the markup the script swaps (`data-v="img"` inside a `<picture>`). */
function variantPicture(d: VariantData, alt: string): string {
  const source = d.img.avif ? `<source type="image/avif" srcset="${esc(d.img.avif)}" sizes="${ITEM_SIZES}">` : '';
  const srcset = d.img.srcset ? ` srcset="${esc(d.img.srcset)}"` : '';
  return `<picture>${source}<img data-v="img" src="${esc(d.img.src)}"${srcset} sizes="${ITEM_SIZES}" width="${d.img.w}" height="${d.img.h}" alt="${esc(alt)}" decoding="async" fetchpriority="high"></picture>`;
}

const hidden = (show: unknown): string => (show ? '' : ' hidden');

/** The details lines the script rewrites: size, frame, price, availability and the buy link. */
function variantDetails(d: VariantData): string {
  return [
    `<p class="dims" data-v="dims">${esc(d.dims)}</p>`,
    `<p class="frame" data-v="frame"${hidden(d.frame)}>${esc(d.frame)}</p>`,
    `<p class="price" data-v="price"${hidden(d.price)}>${esc(d.price)}</p>`,
    `<p class="availability ${d.kind}" data-v="availability" data-availability="${d.kind}"${hidden(d.availability)}><span class="dot" aria-hidden="true"${hidden(d.kind === 'sold')}></span><span class="text">${esc(d.availability)}</span></p>`,
    d.buy
      ? `<a class="buy" data-v="buy" href="${esc(d.buy.href)}" rel="noopener">${esc(d.buy.text)}</a>`
      : '<a class="buy" data-v="buy" rel="noopener" hidden></a>',
  ].join('\n');
}

/**
 * The item page of an item sold in several sizes and frames: the work's heading and label as always, then
 * the selector (page-variants.ts) and what the selected variant is: its picture, size, frame, price or
 * availability, buy link (none once sold or not for sale), AR and wall links. Every ready variant's values go
 * in a JSON block the page's script (NAV_SCRIPT) shows on a change, without a reload. The address's
 * `?variant=` is the one shown (the canonical address and JSON-LD stay the item's).
 */
function variantItemPage(c: ItemContext, i: PageItem & { ready: ReadyItem }, sel: ReadyVariant): string {
  const s = c.showcase;
  const loc = localeOf(s);
  const v = sel.item;
  const r = v.ready;
  const b = i.ready.presentation?.banner ?? {};
  const title = displayTitle(i);
  const art = i.artwork;
  const { w, h } = outerInches(r);
  const data = i.variants!.filter((x): x is ReadyVariant => x.item !== undefined).map((x) => variantData(x, c, loc, 'item'));
  const shown = data.find((d) => d.sku === sel.sku)!;
  const heading = art?.label.headline.length
    ? `<h1 class="headline">${headlineHtml(art.label)}</h1>`
    : `<h1 class="title">${esc(title)}</h1>`;
  const line = (cls: string, text: string | undefined) => (text ? `<p class="${cls}">${esc(text)}</p>` : '');
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${pager(c, (x) => x.itemUrl, { href: withFragment(homeUrl(s), `item-${i.id}`), label: t(loc.locale, 'nav.allPictures'), glyph: '✕' })}
<main class="lightbox" data-item="${i.id}" data-ratio style="--ar:${w / h}">
<div class="stage"><div class="media" data-view="${i.id}">${variantPicture(shown, title)}</div></div>
<div class="details${art ? ' label' : ''}">
${heading}
${line('medium', art?.label.medium)}${line('edition', art?.label.edition)}${art?.description ? `<p class="about">${esc(art.description)}</p>` : ''}${b.subtitle ? `<p class="sub">${esc(b.subtitle)}</p>` : ''}
${variantSelector(i.variants!, sel, loc.locale)}
${variantDetails(shown)}
<div class="actions">${arButton(v, r, c.platform, false, loc, true, pageTaps(s, 'item'), sel.sku)}${wallButton(r, false, loc, true)}${roomButton(r, loc, true)}</div>
</div>
</main>
</div>
${variantDataScript(data)}`;
  return htmlDocument({
    title: `${title} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: {
      title,
      description: b.subtitle ?? art?.description ?? s.description,
      canonicalUrl: i.ready.itemUrl,
      indexable: s.indexable,
      image: itemShareImage(i),
      alternates: s.indexable ? bare(i.ready.itemUrl) : undefined,
      oembed: s.oembed,
    },
    brand: s,
    bodyClass: 'page item-page',
    platform: c.platform,
    body,
    scripts: variantTapScript(c, i),
    extraStyle: ITEM_STYLE + VARIANT_STYLE,
    loc,
    head: itemJsonLd(i, i.ready, c),
    beacon: pageBeacon(s, 'item', i.id),
  });
}

/**
 * The wall scene and its caption: the picture (its outer size `w` x `h`) next to a sofa or a person, both sizes
 * stated. `size`: the picture's size as the caption states it; `sceneSize`: as the scene's label does (the
 * plain outer size when absent). `attrs`: more attributes of the figure.
 */
function wallFigure(
  i: PageItem,
  r: ReadyItem,
  title: string,
  size: string,
  sceneSize: string | undefined,
  loc: PageLocale,
  attrs = '',
): string {
  const { w, h } = outerInches(r);
  // The drawing's label: the label's size, else the picture's with its framed size (labelled), as the card states it.
  const scene = wallScene(
    r.posterUrl,
    title,
    w,
    h,
    r.presentation?.placement ?? 'wall',
    loc,
    sceneSize ?? sizeLabel(r.widthInches, r.heightInches, r.presentation, loc),
  );
  // The reference keeps its own element (and its inches for tests and tools) inside the translated sentence.
  const REF = '\u0000reference\u0000';
  const caption = esc(t(loc.locale, 'wall.caption', { size, reference: REF })).replace(
    REF,
    `<span class="reference" data-inches="${scene.reference.inches}">${esc(scene.referenceLabel)}</span>`,
  );
  return `<figure class="wall" data-item="${i.id}" data-view="${i.id}"${attrs}>${scene.svg}
<figcaption>${caption}</figcaption>
</figure>`;
}

/**
 * The wall preview of an item sold in several sizes and frames: a scene per ready variant, the selected one
 * shown (`data-for-variant`: the script shows another on a change), the work's heading lines, the selector,
 * and the AR launch and the way back carrying the chosen variant.
 */
function variantWallPage(c: ItemContext, i: PageItem & { ready: ReadyItem }, sel: ReadyVariant): string {
  const s = c.showcase;
  const loc = localeOf(s);
  const r = sel.item.ready;
  const title = displayTitle(i);
  const art = i.artwork;
  const ready = i.variants!.filter((x): x is ReadyVariant => x.item !== undefined);
  const data = ready.map((x) => variantData(x, c, loc, 'wall'));
  const figures = ready
    .map((x, k) => {
      const own = x === sel;
      const html = wallFigure(i, x.item.ready, title, data[k]!.dims, undefined, loc, ` data-for-variant="${esc(x.sku)}"${hidden(own)}`);
      // One scene is shown at a time; the others' ids are their own.
      return own ? html : html.replace(/ id="wall-(picture|reference)"/g, ` id="wall-$1-${k}"`);
    })
    .join('\n');
  const line = (cls: string, text: string | undefined) => (text ? `<p class="${cls}">${esc(text)}</p>` : '');
  const label = art
    ? `<div class="wall-label label">${art.label.headline.length ? `<p class="headline">${headlineHtml(art.label)}</p>` : ''}${line('medium', art.label.medium)}${line('edition', art.label.edition)}</div>`
    : '';
  const ar = `<div class="actions">${c.platform === 'desktop' ? '' : arButton(sel.item, r, c.platform, false, loc, true, pageTaps(s, 'wall'), sel.sku)}${roomButton(r, loc, true)}</div>`;
  const heading = t(loc.locale, 'wall.heading', { title });
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${pager(c, (x) => x.wallUrl, { href: r.itemUrl, label: t(loc.locale, 'nav.back'), glyph: '‹', swap: 'item' })}
<main>
<h1 class="title">${esc(heading)}</h1>
${figures}
${label}
${variantSelector(i.variants!, sel, loc.locale, 'wall-variants')}
${ar}
</main>
</div>
${variantDataScript(data)}`;
  return htmlDocument({
    title: `${heading} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: { title: heading, description: s.description, canonicalUrl: i.ready.wallUrl, indexable: false, oembed: s.oembed },
    brand: s,
    bodyClass: 'page wall-page',
    platform: c.platform,
    body,
    scripts: variantTapScript(c, i),
    extraStyle: ITEM_STYLE + VARIANT_STYLE,
    loc,
    beacon: pageBeacon(s, 'wall', i.id),
  });
}

/** `url#fragment`, the fragment after any query (`…/shw_x?lang=de#item-3`). */
const withFragment = (url: string, fragment: string): string => `${url}#${fragment}`;

/**
 * "See it on a wall": the item on a plain wall next to a sofa or a person drawn at the same scale, with
 * both sizes stated, and a catalogued work's label under it. On phones the AR launch sits next to it.
 */
export function wallPage(c: ItemContext): string {
  const s = c.showcase;
  const loc = localeOf(s);
  const i = s.items[c.index]! as PageItem & { ready: ReadyItem };
  const selected = selectedVariant(i.variants, c.variant);
  if (selected) return variantWallPage(c, i, selected);
  const r = i.ready;
  const title = displayTitle(i);
  const art = i.artwork;
  const picture = plainSizeBoth(r.widthInches, r.heightInches, loc);
  const f = r.presentation?.framed;
  const size = art?.size ?? framedSize(picture, f && plainSizeBoth(f.widthInches, f.heightInches, loc, f.depthInches), loc);
  const figure = wallFigure(i, r, title, size, art?.size, loc);
  const label = art
    ? `<div class="wall-label label">${art.label.headline.length ? `<p class="headline">${headlineHtml(art.label)}</p>` : ''}${labelLines(art, 'p')}</div>`
    : '';
  const ar = `<div class="actions">${c.platform === 'desktop' ? '' : arButton(i, r, c.platform, false, loc, false, pageTaps(s, 'wall'))}${roomButton(r, loc)}</div>`;
  const heading = t(loc.locale, 'wall.heading', { title });
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${pager(c, (x) => x.wallUrl, { href: r.itemUrl, label: t(loc.locale, 'nav.back'), glyph: '‹' })}
<main>
<h1 class="title">${esc(heading)}</h1>
${figure}
${label}
${ar}
</main>
</div>`;
  return htmlDocument({
    title: `${heading} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: { title: heading, description: s.description, canonicalUrl: r.wallUrl, indexable: false, oembed: s.oembed },
    brand: s,
    bodyClass: 'page wall-page',
    platform: c.platform,
    body,
    scripts: tapScript(c, i, r),
    extraStyle: ITEM_STYLE,
    loc,
    beacon: pageBeacon(s, 'wall', i.id),
  });
}
