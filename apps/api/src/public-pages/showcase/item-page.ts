import { esc } from '../../http/html';
import type { Platform } from '../platform';
import { brandHeader, htmlDocument } from './page-shell';
import { arButton, pictureImg, wallButton } from './showcase-card';
import { displayTitle, outerInches, sizeWithCm, type PageItem, type ReadyItem } from './showcase-items';
import { itemShareImage, type PageShowcase } from './showcase-page';
import { wallScene } from './wall-preview';

const ITEM_STYLE = `
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:0 0 16px}
.pager a{display:inline-flex;align-items:center;justify-content:center;min-width:44px;min-height:44px;padding:6px 12px;border-radius:8px;font-weight:600;text-decoration:none;border:2px solid rgba(127,127,127,.45)}
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

function pager(c: ItemContext, url: (r: ReadyItem) => string, close: { href: string; label: string }): string {
  const ready = c.showcase.items.filter((i) => i.ready);
  const at = ready.findIndex((i) => i.id === c.showcase.items[c.index]!.id);
  const prev = ready[at - 1]?.ready;
  const next = ready[at + 1]?.ready;
  return (
    `<nav class="pager" aria-label="Pictures"><a class="close" data-nav="close" href="${esc(close.href)}">${esc(close.label)}</a>` +
    (prev ? `<a rel="prev" data-nav="prev" href="${esc(url(prev))}" aria-label="Previous picture">‹</a>` : '') +
    `<span class="count">${at + 1} / ${ready.length}</span>` +
    (next ? `<a rel="next" data-nav="next" href="${esc(url(next))}" aria-label="Next picture">›</a>` : '') +
    '</nav>'
  );
}

const tapScript = (c: ItemContext, r: ReadyItem): ('quick-look' | 'nav')[] =>
  c.platform === 'ios' && r.presentation?.banner.link_url ? ['nav', 'quick-look'] : ['nav'];

/**
 * The larger view of one item, at its own address: the picture as large as the screen allows, its title,
 * subtitle, price, buy link, frame and size, the AR and wall buttons; previous / next / close as links,
 * also on the arrow keys, Escape and a swipe (NAV_SCRIPT).
 */
export function itemPage(c: ItemContext): string {
  const s = c.showcase;
  const i = s.items[c.index]! as PageItem & { ready: ReadyItem };
  const r = i.ready;
  const b = r.presentation?.banner ?? {};
  const title = displayTitle(i);
  const { w, h } = outerInches(r);
  const framed = r.presentation?.framed;
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: s.pageUrl })}
${pager(c, (x) => x.itemUrl, { href: `${s.pageUrl}#item-${i.id}`, label: '✕ All pictures' })}
<main class="lightbox" data-item="${i.id}" style="--ar:${w / h}">
<div class="stage"><div class="media">${pictureImg(r, title, '(max-width: 800px) 100vw, 66vw', true)}</div></div>
<div class="details">
<h1 class="title">${esc(title)}</h1>
${b.price ? `<p class="price">${esc(b.price)}</p>` : ''}
${b.subtitle ? `<p class="sub">${esc(b.subtitle)}</p>` : ''}
${r.frameLabel ? `<p class="frame">${esc(r.frameLabel)}</p>` : ''}
<p class="size muted">${esc(sizeWithCm(r.widthInches, r.heightInches))}${framed ? `, ${esc(sizeWithCm(framed.widthInches, framed.heightInches))} framed` : ''}</p>
${b.link_url ? `<a class="buy" href="${esc(b.link_url)}" rel="noopener">${esc(b.call_to_action ?? 'View details')}</a>` : ''}
<div class="actions">${arButton(i, r, c.platform, false)}${wallButton(r, false)}</div>
</div>
</main>
</div>`;
  return htmlDocument({
    title: `${title} · ${s.tagline || 'AR showcase'}`,
    share: {
      title,
      description: b.subtitle ?? s.description,
      canonicalUrl: r.itemUrl,
      indexable: s.indexable,
      image: itemShareImage(i),
    },
    brand: s,
    bodyClass: 'page item-page',
    platform: c.platform,
    body,
    scripts: tapScript(c, r),
    extraStyle: ITEM_STYLE,
  });
}

/**
 * "See it on a wall": the item on a plain wall next to a sofa or a person drawn at the same scale, with
 * both sizes stated. On phones the AR launch sits next to it.
 */
export function wallPage(c: ItemContext): string {
  const s = c.showcase;
  const i = s.items[c.index]! as PageItem & { ready: ReadyItem };
  const r = i.ready;
  const title = displayTitle(i);
  const { w, h } = outerInches(r);
  const scene = wallScene(r.posterUrl, title, w, h, r.presentation?.placement ?? 'wall');
  const framed = r.presentation?.framed ? `, ${sizeWithCm(w, h)} framed` : '';
  const ar = c.platform === 'desktop' ? '' : `<div class="actions">${arButton(i, r, c.platform, false)}</div>`;
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: s.pageUrl })}
${pager(c, (x) => x.wallUrl, { href: r.itemUrl, label: '‹ Back' })}
<main>
<h1 class="title">${esc(title)} on a wall</h1>
<figure class="wall" data-item="${i.id}">${scene.svg}
<figcaption>Drawn to scale: the picture is ${esc(sizeWithCm(r.widthInches, r.heightInches))}${esc(framed)}; next to it, <span class="reference" data-inches="${scene.reference.inches}">${esc(scene.reference.label)}</span>.</figcaption>
</figure>
${ar}
</main>
</div>`;
  return htmlDocument({
    title: `${title} on a wall · ${s.tagline || 'AR showcase'}`,
    share: { title: `${title} on a wall`, description: s.description, canonicalUrl: r.wallUrl, indexable: false },
    brand: s,
    bodyClass: 'page wall-page',
    platform: c.platform,
    body,
    scripts: tapScript(c, r),
    extraStyle: ITEM_STYLE,
  });
}
