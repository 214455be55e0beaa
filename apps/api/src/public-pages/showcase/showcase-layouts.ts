import { t } from '@app/catalogue';
import { esc } from '../../http/html';
import { DEFAULT_PAGE_LOCALE } from '../page-locale';
import { itemCard, type CardContext } from './showcase-card';
import { outerInches, type PageItem } from './showcase-items';

/** Shared by every layout and by the item and wall pages. */
export const BASE_STYLE = `
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
html:lang(ja) body{font-family:system-ui,-apple-system,"Hiragino Sans","Hiragino Kaku Gothic ProN","Yu Gothic UI",Meiryo,"Noto Sans CJK JP","Noto Sans JP",sans-serif}
a{color:inherit}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.sc{margin:0 auto;max-width:1920px;padding:0 clamp(12px,3vw,40px) 40px}
header.brand{display:flex;flex-wrap:wrap;align-items:center;gap:12px 20px;padding:18px clamp(12px,3vw,40px);margin:0 calc(-1 * clamp(12px,3vw,40px)) 20px;background:var(--band);color:var(--band-fg)}
header.brand img.logo{width:160px;height:56px;object-fit:contain;object-position:left center;background:#fff;border-radius:8px;padding:4px}
header.brand .tagline{margin:0;font-size:clamp(20px,2.4vw,28px);line-height:1.25;font-weight:650;overflow-wrap:anywhere}
header.brand a.home{text-decoration:none}
.description{white-space:pre-line;margin:0 0 16px;max-width:72ch;overflow-wrap:anywhere}
nav.links{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 24px}
nav.links a{display:inline-flex;align-items:center;min-height:36px;padding:6px 14px;border-radius:999px;background:var(--accent);color:var(--accent-fg);text-decoration:none;font-weight:600;overflow-wrap:anywhere}
.item{display:flex;flex-direction:column;min-width:0}
.media{display:block;aspect-ratio:var(--ar)}
.media picture{display:contents}.media img{display:block;width:100%;height:100%;object-fit:contain}
.media.placeholder{aspect-ratio:1;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:8px;padding:16px;text-align:center;background:rgba(127,127,127,.12);border-radius:8px}
.info{padding:10px 0 0}
.caption{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 10px;overflow-wrap:anywhere}
.caption .title{flex:1 1 auto;font-weight:650;min-width:0}
.caption .price{font-weight:650;white-space:nowrap}
.caption .sub,.caption .frame,.caption .sizes{flex-basis:100%;font-size:14px;color:var(--muted)}
.caption .link{flex-basis:100%;font-size:14px;font-weight:600}
.caption .headline{flex:1 1 auto;margin:0;font-weight:650;min-width:0}
.caption .medium,.caption .dims,.caption .edition,.caption .availability{flex-basis:100%;font-size:14px}
.caption .dims{color:var(--muted)}
.meta{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:8px;margin-top:8px}
.size{font-size:13px;color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:8px}
.ar,.wall-btn,.room-btn{display:inline-flex;align-items:center;gap:6px;min-height:40px;padding:8px 14px;border-radius:999px;font-size:14px;font-weight:600;text-decoration:none;white-space:nowrap}
.ar{background:var(--primary);color:var(--primary-fg)}
.ar img{width:20px;height:20px;border-radius:4px;object-fit:cover}
.wall-btn,.room-btn{border:2px solid currentColor;color:var(--fg);background:transparent}
a:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
progress{width:70%}
.empty{padding:32px;text-align:center;color:var(--muted)}
body.embed .sc{padding:0 8px 8px}
body.embed header.brand{padding:12px 8px;margin:0 -8px 12px}
`;

/**
 * Per layout. branded / dark / grid: a responsive grid using the full width, each picture at its own
 * aspect ratio (no bands). salon: a gallery wall, every picture at the same pixels per inch, rows hung on a
 * common centre line. minimal: one picture at a time, large, with scroll snapping and anchor steps.
 */
export const LAYOUT_STYLE = `
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:28px 24px;align-items:start}
.layout-branded .grid .item,.layout-dark .grid .item{background:var(--card);border-radius:12px;overflow:hidden;box-shadow:0 1px 4px rgba(0,0,0,.16)}
.layout-branded .grid .info,.layout-dark .grid .info{padding:12px 14px 14px}
.layout-grid .grid .media img{border-radius:4px}
.salon{--in:min(8px,calc((100vw - 64px) / var(--maxw)));display:flex;flex-wrap:wrap;justify-content:center;align-items:center;gap:230px 64px;padding:32px 0 230px}
.salon:not(:has(>.salon-end)){visibility:hidden}
.salon .item{position:relative;flex:none;width:calc(var(--w) * var(--in))}
.salon .media{width:100%;box-shadow:0 8px 20px rgba(0,0,0,.28)}
.salon .info{position:absolute;top:100%;left:50%;transform:translateX(-50%);width:max(100%,250px);padding-top:14px;text-align:center}
.salon .caption,.salon .meta,.salon .actions{justify-content:center}
.salon .caption .title{flex:0 1 auto}
.salon .caption .sub,.salon .caption .frame,.salon .caption .medium,.salon .caption .edition{display:none}
.slides{display:flex;align-items:flex-start;overflow-x:auto;scroll-snap-type:x mandatory;overscroll-behavior-x:contain}
.slides .item{flex:0 0 100%;scroll-snap-align:center;align-items:center;padding:8px 0 16px}
.slides .media{width:min(100%,calc(72vh * var(--ar)))}
.slides .info{width:min(100%,760px)}
.steps{display:flex;justify-content:space-between;align-items:center;gap:8px;margin-top:12px}
.steps .step{min-width:96px;padding:8px 0;font-weight:600}
.steps .step:last-child{text-align:right}
.steps .count{font-weight:500;color:var(--muted)}
@media (max-width:600px){.grid{grid-template-columns:1fr}}
@media (max-width:700px){
.salon{flex-direction:column;flex-wrap:nowrap;gap:48px;padding-bottom:32px}
.salon .item{align-items:center}
.salon .info{position:static;transform:none;width:min(calc(100vw - 32px),340px)}
}
`;

/** The items in the layout's container. */
export function layoutBody(
  layout: string,
  items: PageItem[],
  base: Omit<CardContext, 'index' | 'count' | 'layout' | 'prevId' | 'nextId'>,
): string {
  const locale = (base.loc ?? DEFAULT_PAGE_LOCALE).locale;
  const label = esc(t(locale, 'page.picturesLabel'));
  if (!items.length) return `<div class="empty">${esc(t(locale, 'page.empty'))}</div>`;
  const cards = items
    .map((i, n) =>
      itemCard(i, {
        ...base,
        layout,
        index: n,
        count: items.length,
        prevId: items[n - 1]?.id,
        nextId: items[n + 1]?.id,
      }),
    )
    .join('\n');
  if (layout === 'salon') {
    // --maxw: the widest piece (inches) fits the screen; every piece shares the same pixels per inch.
    const maxw = Math.max(24, ...items.map((i) => (i.ready ? outerInches(i.ready).w : 24)));
    // The rows are centred, so each card the parser adds moves the ones before it (and a card half parsed grows):
    // a browser that paints a half-parsed page (a slow phone, a slow connection; seen on a loaded 2-core machine
    // as CLS 0.056) would show the wall jumping. The wall stays invisible until its last child, the end mark, is
    // parsed (:has(); a browser without it shows the wall at once, as before).
    return `<section class="salon" aria-label="${label}" style="--maxw:${maxw}">${cards}<i class="salon-end" hidden></i></section>`;
  }
  if (layout === 'minimal') return `<section class="slides" aria-label="${label}" tabindex="0">${cards}</section>`;
  return `<section class="grid" aria-label="${label}">${cards}</section>`;
}
