import { createHash } from 'node:crypto';
import { htmlLang, t } from '@app/catalogue';
import { esc } from '../../http/html';
import { availabilityHtml, headlineHtml, LABEL_STYLE, type Artwork } from '../artwork';
import { BEACON_SCRIPT_HASH, beaconAttr, beaconScript, type BeaconConfig, tapLink } from '../beacon';
import { discoveryTag } from '../oembed/oembed-url';
import { roomLink } from '../room/room-link';
import { DEFAULT_PAGE_LOCALE, num, plainSize, type PageLocale } from '../page-locale';
import type { LaunchPresentation, Platform } from '../platform';
import {
  arBanner,
  forSale,
  QUICK_LOOK_TAP_SCRIPT,
  QUICK_LOOK_TAP_SCRIPT_HASH,
  quickLookHref,
  sceneViewerIntent,
  sceneViewerTitle,
  sizeLabel,
} from '../platform';

export interface ReadyModel {
  pageUrl: string;
  posterUrl: string;
  glbUrl: string;
  usdzUrl: string;
  widthInches: number;
  heightInches: number;
  qrSvg: string;
  assetBase: string;
  /** A flipbook (animated AR): the desktop preview plays its animation in a loop. */
  animated?: boolean;
  /**
   * Wall placement, locked size, banner, framed size (see launchPresentation). Absent for results made
   * before these existed: they keep exactly the old page (floor, real size in AR, no banner).
   */
  presentation?: LaunchPresentation;
  /** A showcase's catalogued work: its label in the banner, its language and units (see EmbedService). */
  artwork?: Artwork;
  /** The page's language and units; English and inches when absent. */
  loc?: PageLocale;
  /**
   * A showcase picture with analytics on: what the beacon script reads (beacon.ts; the picture is marked
   * `data-view`), and on an https service the base of the tap route its Scene Viewer banner link goes through.
   * Absent: the page sends nothing.
   */
  beacon?: BeaconConfig & { taps?: string };
  /**
   * An item sold in variants: the SKU shown and every SKU whose files are ready. The interactive page then
   * names them (`data-sku`, `data-skus`) and switches between them on its parent's message (VARIANT_SWITCH_SCRIPT).
   */
  variants?: { shown: string; ready: string[] };
  /** The oEmbed endpoint: the page names it in a discovery link for its own address (`pageUrl`). Absent: no link. */
  oembed?: string;
  /**
   * A showcase picture that hangs on a wall: its room view inside this frame ("On your wall, from a photo",
   * room/room-page.ts, with `?embed=1`, the shown variant and the page's `?lang=`). Absent: no link.
   */
  roomUrl?: string;
}

const STYLE = `
*{box-sizing:border-box}html,body{margin:0;height:100%;font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d1d1f;background:transparent}
.card{position:relative;width:100%;height:100%;min-height:160px;display:flex;align-items:center;justify-content:center;overflow:hidden;background:#f4f4f6;border-radius:12px}
.card>img.poster,.card model-viewer{width:100%;height:100%;object-fit:contain;display:block}
.badge{position:absolute;z-index:2;top:10px;left:10px;padding:3px 9px;border-radius:999px;background:rgba(0,0,0,.72);color:#fff;font-size:12px;font-weight:600;letter-spacing:.02em}
.badge.animated{animation:pulse 1.8s ease-in-out infinite}
@keyframes pulse{0%,100%{transform:scale(1);opacity:1}50%{transform:scale(1.08);opacity:.85}}
@media (prefers-reduced-motion:reduce){.badge.animated{animation:none}}
.ar-button{position:absolute;z-index:2;bottom:12px;left:50%;transform:translateX(-50%);display:inline-flex;align-items:center;gap:8px;padding:10px 16px;border:0;border-radius:999px;background:#0a66ff;color:#fff;font:600 15px system-ui,sans-serif;white-space:nowrap;text-decoration:none;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25)}
.ar-button img{width:20px;height:20px;border-radius:4px;object-fit:cover}
.qr{position:absolute;z-index:3;inset:0;display:none;flex-direction:column;align-items:center;justify-content:center;gap:8px;background:rgba(255,255,255,.96);text-align:center;padding:12px}
.qr.open{display:flex}.qr svg{width:min(60%,220px);height:auto}
.message{padding:24px;text-align:center;color:#444}
progress{width:60%;height:8px}
.room-link{position:absolute;z-index:2;top:40px;left:10px;padding:3px 10px;border-radius:999px;background:rgba(255,255,255,.92);color:#1d1d1f;font-size:12px;font-weight:600;text-decoration:none;box-shadow:0 1px 4px rgba(0,0,0,.2)}
.room-link:focus-visible{outline:3px solid #0a66ff;outline-offset:2px}
.size{position:absolute;top:10px;right:10px;font-size:12px;color:#555;background:rgba(255,255,255,.8);padding:2px 6px;border-radius:6px}
.card.wall{background:radial-gradient(ellipse 80% 70% at 50% 28%,#f7f4ef 0%,#ebe6df 55%,#ddd7cf 100%)}
.card.wall::after{content:"";position:absolute;left:0;right:0;bottom:0;height:9%;background:linear-gradient(#d3ccc2,#c9c1b6);box-shadow:0 -1px 0 #bfb6aa;pointer-events:none}
.card.wall model-viewer{position:relative;z-index:1;background:transparent}
.card.has-banner>model-viewer,.card.has-banner>img.poster{height:calc(100% - 64px);margin-bottom:64px}
.card.has-banner .ar-button{bottom:72px}
.banner{position:absolute;z-index:2;left:10px;right:10px;bottom:10px;display:flex;align-items:center;gap:12px;padding:8px 10px 8px 14px;border-radius:12px;background:rgba(255,255,255,.94);box-shadow:0 1px 6px rgba(0,0,0,.15);min-width:0}
.banner .text{flex:1;min-width:0;line-height:1.25}
.banner .title{display:block;font-weight:650;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.banner .sub{display:block;font-size:12px;color:#555;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.banner .price{font-weight:650;white-space:nowrap}
.banner .cta{flex:none;padding:7px 14px;border-radius:999px;background:#1d1d1f;color:#fff;font-weight:600;text-decoration:none;white-space:nowrap}
.banner .headline{display:block;font-weight:650;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.banner .headline .title{display:inline;font-weight:inherit}
.banner .availability{flex:none;white-space:nowrap}
html:lang(ja) body{font-family:system-ui,-apple-system,"Hiragino Sans","Hiragino Kaku Gothic ProN","Yu Gothic UI",Meiryo,"Noto Sans CJK JP","Noto Sans JP",sans-serif}
${LABEL_STYLE}`;

const QR_SCRIPT = `(function(){var b=document.getElementById('ar-launch'),q=document.getElementById('qr');
b.addEventListener('click',function(){q.classList.add('open')});
document.getElementById('qr-close').addEventListener('click',function(){q.classList.remove('open')});})();`;

const QR_SCRIPT_HASH = `'sha256-${createHash('sha256').update(QR_SCRIPT).digest('base64')}'`;

/** The message a page embedding the viewer (the widget) sends to switch an item's variant without a reload. */
export const VARIANT_MESSAGE = 'ar-widget:variant';

/**
 * An item sold in variants, inside the widget: the shop's page (any origin) posts `{type: VARIANT_MESSAGE, sku}`
 * when the buyer picks another size or frame, and this page shows that variant without reloading itself or
 * model-viewer. Accepted only from the frame's own parent, in exactly that shape, and only for a SKU of this
 * item whose files are ready (`data-skus`, written by the server): a stranger's page can at most switch its own
 * frame between this item's variants. The new variant's page (this address with `?variant=`, same origin, from
 * the HTTP cache after the first time) is fetched and its parts taken over: model-viewer's or the poster's
 * attributes (src, ios-src, poster, placement), the AR link, the size, the banner, the QR code, the title; the
 * address becomes `?variant=`. The latest choice wins when several overlap. Each switch dispatches `ar-variant`
 * (the beacon script counts a `variant_select` and names the new SKU on later events), as does a page the
 * widget opened with `#ar-select` (a switch to another item: its page loaded in the frame).
 */
export const VARIANT_SWITCH_SCRIPT = `(function(){var d=document,w=window,c=d.querySelector('.card[data-skus]');if(!c)return;var K=JSON.parse(c.getAttribute('data-skus')),n=0;
function one(r,s){return r&&r.querySelector(s)}
function at(a,b){if(!a||!b)return;for(var i=a.attributes.length-1;i>=0;i--){var x=a.attributes[i].name;if(!b.hasAttribute(x))a.removeAttribute(x)}for(var j=0;j<b.attributes.length;j++){var y=b.attributes[j];if(a.getAttribute(y.name)!==y.value)a.setAttribute(y.name,y.value)}}
function picked(k){try{d.dispatchEvent(new CustomEvent('ar-variant',{detail:k}))}catch(e){}}
function show(k){var m=++n,u=new URL(w.location.href);u.searchParams.set('variant',k);u.hash='';
fetch(u.href,{credentials:'same-origin'}).then(function(r){if(!r.ok)throw new Error('HTTP '+r.status);return r.text()}).then(function(h){if(m!==n)return;
var x=new DOMParser().parseFromString(h,'text/html'),e=one(x,'.card[data-skus]');if(!e||e.getAttribute('data-sku')!==k)return;
var b=one(c,'#ar-launch'),nb=one(e,'#ar-launch');at(c,e);at(one(c,'model-viewer'),one(e,'model-viewer'));at(one(c,'img.poster'),one(e,'img.poster'));at(b,nb);at(one(b,'img'),one(nb,'img'));
['.size','[data-banner]','.room-link'].forEach(function(s){var o=one(c,s),p=one(e,s);if(o&&p)c.replaceChild(d.importNode(p,true),o);else if(o)c.removeChild(o);else if(p)c.insertBefore(d.importNode(p,true),b)});
var q=one(c,'#qr svg'),nq=one(e,'#qr svg');if(q&&nq)q.parentNode.replaceChild(d.importNode(nq,true),q);
d.title=x.title;try{history.replaceState(history.state,'',u.href)}catch(z){}picked(k)}).catch(function(){})}
w.addEventListener('message',function(e){var v=e.data;if(e.source!==w.parent||w.parent===w||!v||typeof v!=='object'||v.type!=='${VARIANT_MESSAGE}'||typeof v.sku!=='string'||K.indexOf(v.sku)<0)return;
if(v.sku!==c.getAttribute('data-sku')||n)show(v.sku)});
if(w.location.hash==='#ar-select'){try{history.replaceState(history.state,'',w.location.href.split('#')[0])}catch(z){}d.addEventListener('DOMContentLoaded',function(){picked(c.getAttribute('data-sku'))})}})();`;

const VARIANT_SWITCH_SCRIPT_HASH = `'sha256-${createHash('sha256').update(VARIANT_SWITCH_SCRIPT).digest('base64')}'`;

/**
 * Content-Security-Policy of embed pages: scripts only from our asset origin plus the constant inline
 * scripts (by hash: the QR dialog, the Quick Look banner tap, the beacon script); models, posters and textures from anywhere storage may serve them (S3 buckets,
 * CDNs). `frame-ancestors *` because embedding on customers' sites is the point of these pages.
 * `'wasm-unsafe-eval'`: model-viewer compiles its WebAssembly decoder (meshopt) as it loads; this allows
 * that and no JavaScript eval. Without it every desktop page reports a CSP violation.
 */
export function embedCsp(assetBase: string): string {
  const assets = new URL(assetBase).origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${assets} ${QR_SCRIPT_HASH} ${QUICK_LOOK_TAP_SCRIPT_HASH} ${BEACON_SCRIPT_HASH} ${VARIANT_SWITCH_SCRIPT_HASH} 'wasm-unsafe-eval'`,
    'connect-src https: http: blob: data:',
    'img-src https: http: blob: data:',
    'media-src https: http: blob: data:',
    "style-src 'unsafe-inline'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    'frame-ancestors *',
  ].join('; ');
}

/** What the beacon script reads, without the server's own fields. */
function beaconOf(m: Pick<ReadyModel, 'beacon'>): BeaconConfig | undefined {
  if (!m.beacon) return undefined;
  const { taps: _taps, ...c } = m.beacon;
  return c;
}

function page(title: string, body: string, head = '', loc: PageLocale = DEFAULT_PAGE_LOCALE, beacon?: BeaconConfig): string {
  return `<!doctype html>
<html lang="${htmlLang(loc.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>${STYLE}</style>
${head}
</head>
<body${beaconAttr(beacon)}>
${body}${beaconScript(beacon)}
</body>
</html>`;
}

/**
 * The banner on the page itself (every platform): title, subtitle, price and the call to action. User
 * text: escaped. A catalogued work's banner is its label: the headline (Artist, *Title*, year), medium
 * and size, the price while for sale, the availability (a red dot when sold), and no call to action once
 * sold or not for sale.
 */
function bannerHtml(p: LaunchPresentation | undefined, art: Artwork | undefined, loc: PageLocale): string {
  const b = p?.banner ?? {};
  const viewDetails = t(loc.locale, 'item.viewDetails');
  if (art) {
    const l = art.label;
    const sale = forSale(l);
    const head = l.headline.length
      ? `<span class="headline">${headlineHtml(l)}</span>`
      : b.title
        ? `<span class="title">${esc(b.title)}</span>`
        : '';
    const sub = [l.medium, art.size ?? '', b.subtitle].filter(Boolean).join(' · ');
    const cta =
      sale && b.link_url
        ? `<a class="cta" href="${esc(b.link_url)}" target="_top" rel="noopener">${esc(b.call_to_action ?? viewDetails)}</a>`
        : '';
    return (
      `<div class="banner label" data-banner data-availability="${l.availability.kind}"><span class="text">${head}${sub ? `<span class="sub">${esc(sub)}</span>` : ''}</span>` +
      `${l.price ? `<span class="price">${esc(l.price)}</span>` : ''}${availabilityHtml(l)}${cta}</div>`
    );
  }
  if (!p || !(b.title || b.subtitle || b.price || b.link_url)) return '';
  const text = `${b.title ? `<span class="title">${esc(b.title)}</span>` : ''}${b.subtitle ? `<span class="sub">${esc(b.subtitle)}</span>` : ''}`;
  const cta = b.link_url
    ? `<a class="cta" href="${esc(b.link_url)}" target="_top" rel="noopener">${esc(b.call_to_action ?? viewDetails)}</a>`
    : '';
  return `<div class="banner" data-banner><span class="text">${text}</span>${b.price ? `<span class="price">${esc(b.price)}</span>` : ''}${cta}</div>`;
}

/** Desktop 3D preview. New results: on a neutral wall (or the floor) with soft light and shadow, AR placement and scale as in the phones' viewers. */
function modelViewer(m: ReadyModel, loc: PageLocale): string {
  const p = m.presentation;
  const anim = m.animated ? ' autoplay animation-name="flipbook"' : '';
  const plainAlt = t(loc.locale, 'viewer.previewAlt');
  if (!p) {
    return `<model-viewer src="${esc(m.glbUrl)}" ios-src="${esc(m.usdzUrl)}" poster="${esc(m.posterUrl)}" alt="${esc(plainAlt)}" camera-controls camera-orbit="0deg 90deg auto" interaction-prompt="none" shadow-intensity="0" exposure="1"${anim}></model-viewer>`;
  }
  const title = p.banner.title ?? m.artwork?.label.title;
  const alt = title ? t(loc.locale, 'viewer.previewAltTitled', { title }) : plainAlt;
  // Facing the front; on a wall the orbit stays in front of it. With ar-placement="wall" model-viewer casts
  // the shadow onto the plane behind the model (the wall), not under it. The `ar` attributes only matter
  // where model-viewer can launch AR itself (an iPad reporting as a Mac, Android in desktop mode).
  const orbit = p.placement === 'wall' ? ' min-camera-orbit="-60deg 35deg auto" max-camera-orbit="60deg 145deg auto"' : '';
  return (
    `<model-viewer src="${esc(m.glbUrl)}" ios-src="${esc(m.usdzUrl)}" poster="${esc(m.posterUrl)}" alt="${esc(alt)}" camera-controls camera-orbit="0deg 90deg auto"${orbit} interaction-prompt="none"` +
    ` ar ar-modes="webxr scene-viewer quick-look" ar-placement="${p.placement}"${p.allowScaling ? '' : ' ar-scale="fixed"'}` +
    ` environment-image="neutral" shadow-intensity="0.8" shadow-softness="1" exposure="1"${anim}></model-viewer>`
  );
}

/** Interactive embed: poster, animated badge, "View in your space" for the platform, and the banner when there is one. */
export function interactivePage(m: ReadyModel, platform: Platform): string {
  const loc = m.loc ?? DEFAULT_PAGE_LOCALE;
  const { locale } = loc;
  const p = m.presentation;
  const art = m.artwork;
  // A work that states its real size in the banner needs no size badge.
  const size = art?.size ? '' : sizeLabel(m.widthInches, m.heightInches, p, loc);
  const banner = bannerHtml(p, art, loc);
  // The AR viewers' banner: the label for a catalogued work, nothing to buy once it is sold.
  const arB = arBanner(p?.banner ?? {}, art, locale);
  const link = arB.link_url;
  const pictureAlt = esc(t(locale, 'item.picture'));
  const launch = esc(t(locale, 'ar.viewInYourSpace'));
  let viewer: string;
  let button: string;
  let head = '';
  if (platform === 'ios') {
    viewer = `<img class="poster" src="${esc(m.posterUrl)}" alt="${pictureAlt}">`;
    const href = quickLookHref(m.usdzUrl, { allowScaling: p?.allowScaling ?? false, banner: p || art ? arB : undefined });
    // Quick Look needs an <img> child inside the rel="ar" anchor. A tap on its banner comes back as a
    // message event on this anchor: the script (allowed by its hash in embedCsp) opens data-link.
    button = `<a class="ar-button" id="ar-launch" rel="ar" href="${esc(href)}"${link ? ` data-link="${esc(link)}"` : ''}><img src="${esc(m.posterUrl)}" alt="">${launch}</a>`;
    if (link) button += `\n<script>${QUICK_LOOK_TAP_SCRIPT}</script>`;
  } else if (platform === 'android') {
    viewer = `<img class="poster" src="${esc(m.posterUrl)}" alt="${pictureAlt}">`;
    const picture = t(locale, 'item.picture');
    const title = sceneViewerTitle(p ? (arB.title ?? picture) : picture, art);
    // With analytics on an https service, the banner link goes through the tap route (a counted banner_tap).
    const b = m.beacon;
    // A v1 conversion's page (no item) goes through the same route as its item 0.
    const taps = b?.taps ? { base: b.taps, surface: 'embed' as const } : undefined;
    const counted = tapLink(link, b?.item_id ?? 0, taps, b?.variant);
    const intent = sceneViewerIntent(
      m.glbUrl,
      m.pageUrl,
      p
        ? { title, link: counted, placement: p.placement, allowScaling: p.allowScaling }
        : { title, placement: 'floor', allowScaling: false },
    );
    // target=_top: Chrome launches intents from the top-level page, not from inside an iframe.
    button = `<a class="ar-button" id="ar-launch" target="_top" href="${esc(intent)}">${launch}</a>`;
  } else {
    head = `<script type="module" src="${esc(m.assetBase)}/assets/model-viewer.min.js"></script>`;
    viewer = modelViewer(m, loc);
    button = `<button class="ar-button" id="ar-launch" type="button" aria-controls="qr">${launch}</button>
<div class="qr" id="qr" role="dialog" aria-label="${esc(t(locale, 'ar.openOnPhone'))}">${m.qrSvg}<div>${esc(t(locale, 'ar.scanToPlace'))}</div><button type="button" id="qr-close">${esc(t(locale, 'nav.close'))}</button></div>
<script>${QR_SCRIPT}</script>`;
  }
  const classes = ['card', ...(platform === 'desktop' && p?.placement === 'wall' ? ['wall'] : []), ...(banner ? ['has-banner'] : [])].join(
    ' ',
  );
  const v = m.variants;
  const attrs =
    `${p ? ` data-placement="${p.placement}"` : ''}${m.beacon ? ` data-view="${m.beacon.item_id ?? ''}"` : ''}` +
    (v ? ` data-sku="${esc(v.shown)}" data-skus="${esc(JSON.stringify(v.ready))}"` : '');
  const title = p?.banner.title ?? art?.label.title;
  const pageTitle = title ? t(locale, 'ar.titleViewInAr', { title }) : t(locale, 'ar.viewInAr');
  if (m.oembed) head = `${discoveryTag(m.oembed, m.pageUrl, pageTitle)}${head ? `\n${head}` : ''}`;
  return page(
    pageTitle,
    `<div class="${classes}" data-platform="${platform}" data-variant="interactive"${attrs}>
${viewer}
<span class="badge animated">${esc(t(locale, 'ar.badge'))}</span>
${m.roomUrl && p?.placement !== 'floor' ? `${roomLink(m.roomUrl, loc, { className: 'room-link' })}\n` : ''}${size ? `<span class="size">${esc(size)}</span>\n` : ''}${banner}${banner ? '\n' : ''}${button}
</div>${v ? `\n<script>${VARIANT_SWITCH_SCRIPT}</script>` : ''}`,
    head,
    loc,
    beaconOf(m),
  );
}

/** Static embed: the picture and a plain text badge. No animation, no button. */
export function staticPage(
  m: Pick<ReadyModel, 'posterUrl' | 'widthInches' | 'heightInches' | 'loc' | 'beacon'> & Partial<Pick<ReadyModel, 'pageUrl' | 'oembed'>>,
): string {
  const loc = m.loc ?? DEFAULT_PAGE_LOCALE;
  const picture = esc(t(loc.locale, 'item.picture'));
  const view = m.beacon ? ` data-view="${m.beacon.item_id ?? ''}"` : '';
  return page(
    t(loc.locale, 'item.picture'),
    `<div class="card" data-variant="static"${view}>
<img class="poster" src="${esc(m.posterUrl)}" alt="${picture}">
<span class="badge">${esc(t(loc.locale, 'ar.modelBadge', { size: plainSize(m.widthInches, m.heightInches, loc) }))}</span>
</div>`,
    m.oembed && m.pageUrl ? discoveryTag(m.oembed, m.pageUrl, t(loc.locale, 'item.picture')) : '',
    loc,
    beaconOf(m),
  );
}

/** Still converting: progress, refreshing itself. */
export function pendingPage(progress: number, loc: PageLocale = DEFAULT_PAGE_LOCALE): string {
  const p = Math.round(progress);
  return page(
    t(loc.locale, 'status.converting'),
    `<div class="card" data-state="converting"><div class="message"><div>${esc(t(loc.locale, 'item.preparing'))}</div><progress max="100" value="${p}">${num(loc.locale, p, 0)}%</progress></div></div>`,
    '<meta http-equiv="refresh" content="2">',
    loc,
  );
}

export function failedPage(loc: PageLocale = DEFAULT_PAGE_LOCALE): string {
  return page(
    t(loc.locale, 'status.notAvailable'),
    `<div class="card" data-state="failed"><div class="message">${esc(t(loc.locale, 'status.failed'))}</div></div>`,
    '',
    loc,
  );
}
