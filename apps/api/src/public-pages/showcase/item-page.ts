import { jsonLdScript, t, visualArtworkJsonLd, type LabelItem } from '@app/catalogue';
import { esc } from '../../http/html';
import { headlineHtml, labelLines } from '../artwork';
import { plainSizeBoth } from '../page-locale';
import { forSale, type Platform } from '../platform';
import { brandHeader, htmlDocument } from './page-shell';
import { arButton, pictureImg, wallButton } from './showcase-card';
import { displayTitle, outerInches, type PageItem, type ReadyItem } from './showcase-items';
import { homeUrl, itemShareImage, localeOf, type PageShowcase } from './showcase-page';
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
}

function pager(c: ItemContext, url: (r: ReadyItem) => string, close: { href: string; label: string; glyph: string }): string {
  const locale = localeOf(c.showcase).locale;
  const ready = c.showcase.items.filter((i) => i.ready);
  const at = ready.findIndex((i) => i.id === c.showcase.items[c.index]!.id);
  const prev = ready[at - 1]?.ready;
  const next = ready[at + 1]?.ready;
  const n = new Intl.NumberFormat(locale);
  return (
    `<nav class="pager" aria-label="${esc(t(locale, 'page.picturesLabel'))}"><a class="close" data-nav="close" href="${esc(close.href)}"><span aria-hidden="true">${close.glyph} </span>${esc(close.label)}</a>` +
    (prev ? `<a rel="prev" data-nav="prev" href="${esc(url(prev))}" aria-label="${esc(t(locale, 'nav.previousPicture'))}">‹</a>` : '') +
    `<span class="count">${n.format(at + 1)} / ${n.format(ready.length)}</span>` +
    (next ? `<a rel="next" data-nav="next" href="${esc(url(next))}" aria-label="${esc(t(locale, 'nav.nextPicture'))}">›</a>` : '') +
    '</nav>'
  );
}

/** Whether the item's banner link (buy / details) is offered: not for a sold or not-for-sale work. */
const offersLink = (i: PageItem): boolean => !i.artwork || forSale(i.artwork.label);

const tapScript = (c: ItemContext, i: PageItem, r: ReadyItem): ('quick-look' | 'nav')[] =>
  c.platform === 'ios' && r.presentation?.banner.link_url && offersLink(i) ? ['nav', 'quick-look'] : ['nav'];

/** The address without `?lang=`: what the language alternates are made from. */
const bare = (url: string): string => url.replace(/\?lang=[a-z]+$/, '');

/**
 * The schema.org VisualArtwork of the item page (a JSON-LD data block: never executed, so the page's
 * script-src does not apply to it): the catalogued work's label, or for a plain picture its title and price.
 */
export function itemJsonLd(i: PageItem, r: ReadyItem, c: ItemContext): string {
  const b = r.presentation?.banner ?? {};
  const item: LabelItem = i.artwork?.ld ?? { title: displayTitle(i), price: b.price };
  return jsonLdScript(
    visualArtworkJsonLd(item, { url: bare(r.itemUrl), imageUrl: r.shareUrl ?? r.posterUrl, units: localeOf(c.showcase).units }),
  );
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
    : `<p class="size muted">${esc(framed ? t(loc.locale, 'size.withFramed', { picture, framed: plainSizeBoth(framed.widthInches, framed.heightInches, loc) }) : picture)}</p>`;
  const buy =
    b.link_url && offersLink(i)
      ? `<a class="buy" href="${esc(b.link_url)}" rel="noopener">${esc(b.call_to_action ?? t(loc.locale, 'item.viewDetails'))}</a>`
      : '';
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${pager(c, (x) => x.itemUrl, { href: withFragment(homeUrl(s), `item-${i.id}`), label: t(loc.locale, 'nav.allPictures'), glyph: '✕' })}
<main class="lightbox" data-item="${i.id}" style="--ar:${w / h}">
<div class="stage"><div class="media">${pictureImg(r, title, '(max-width: 800px) 100vw, 66vw', true)}</div></div>
<div class="details${art ? ' label' : ''}">
${heading}
${label}
${art?.description ? `<p class="about">${esc(art.description)}</p>` : ''}
${b.subtitle ? `<p class="sub">${esc(b.subtitle)}</p>` : ''}
${r.frameLabel ? `<p class="frame">${esc(r.frameLabel)}</p>` : ''}
${size}
${buy}
<div class="actions">${arButton(i, r, c.platform, false, loc)}${wallButton(r, false, loc)}</div>
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
    },
    brand: s,
    bodyClass: 'page item-page',
    platform: c.platform,
    body,
    scripts: tapScript(c, i, r),
    extraStyle: ITEM_STYLE,
    loc,
    head: itemJsonLd(i, r, c),
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
  const r = i.ready;
  const title = displayTitle(i);
  const art = i.artwork;
  const { w, h } = outerInches(r);
  const scene = wallScene(r.posterUrl, title, w, h, r.presentation?.placement ?? 'wall', loc, art?.size);
  const picture = plainSizeBoth(r.widthInches, r.heightInches, loc);
  const size =
    art?.size ?? (r.presentation?.framed ? t(loc.locale, 'size.withFramed', { picture, framed: plainSizeBoth(w, h, loc) }) : picture);
  // The reference keeps its own element (and its inches for tests and tools) inside the translated sentence.
  const REF = '\u0000reference\u0000';
  const caption = esc(t(loc.locale, 'wall.caption', { size, reference: REF })).replace(
    REF,
    `<span class="reference" data-inches="${scene.reference.inches}">${esc(scene.referenceLabel)}</span>`,
  );
  const label = art
    ? `<div class="wall-label label">${art.label.headline.length ? `<p class="headline">${headlineHtml(art.label)}</p>` : ''}${labelLines(art, 'p')}</div>`
    : '';
  const ar = c.platform === 'desktop' ? '' : `<div class="actions">${arButton(i, r, c.platform, false, loc)}</div>`;
  const heading = t(loc.locale, 'wall.heading', { title });
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${pager(c, (x) => x.wallUrl, { href: r.itemUrl, label: t(loc.locale, 'nav.back'), glyph: '‹' })}
<main>
<h1 class="title">${esc(heading)}</h1>
<figure class="wall" data-item="${i.id}">${scene.svg}
<figcaption>${caption}</figcaption>
</figure>
${label}
${ar}
</main>
</div>`;
  return htmlDocument({
    title: `${heading} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: { title: heading, description: s.description, canonicalUrl: r.wallUrl, indexable: false },
    brand: s,
    bodyClass: 'page wall-page',
    platform: c.platform,
    body,
    scripts: tapScript(c, i, r),
    extraStyle: ITEM_STYLE,
    loc,
  });
}
