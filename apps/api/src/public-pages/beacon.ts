import { createHash } from 'node:crypto';
import type { Surface } from '@app/analytics';
import { esc } from '../http/html';

/**
 * The pages' side of engagement analytics (docs/analytics.md, "What the pages send"): one constant script,
 * {@link BEACON_SCRIPT}, on every public page of a showcase with analytics on — the showcase, item and wall pages
 * (there first in their one script, page-shell.ts PAGE_SCRIPT), the embed pages of its pictures (a script of its
 * own), also inside the widget — reading what it needs from the page: the `data-beacon` JSON of `<body>`
 * ({@link BeaconConfig}), the pictures marked `data-view` (their item ids), the links and model-viewer it finds.
 * It never changes, so its hash stands in the pages' Content-Security-Policy.
 */
/** What a page tells the beacon script (the `data-beacon` attribute of its `<body>`). */
export interface BeaconConfig {
  /** POST /api/events, absolute (the service's public base). */
  url: string;
  /** The showcase's public id (shw_…) on its own pages, the picture's embed id (emb_…) on an embed page. */
  site: string;
  /** The page; an embed page inside the widget (its iframe is named {@link WIDGET_FRAME_NAME}) reports `widget`. */
  surface: Extract<Surface, 'showcase' | 'item' | 'wall' | 'embed'>;
  /** The item the page is about (item, wall and embed pages); a showcase page's come from its `data-view`s. */
  item_id?: number;
  /** The variant shown (an embed page's `?variant=`, or its default); the item and wall pages read their selector's. */
  variant?: string;
}

/** The `name` the widget gives its iframe: the embed page inside reports its events as surface `widget`. */
export const WIDGET_FRAME_NAME = 'ar-widget';

/** The query parameter of the desktop 3D page's QR code: the page a phone opens with it reports a `qr_open`. */
export const QR_MARKER = 'src=qr';

/**
 * The beacon script. Nothing at all when the visitor sends Do Not Track (`navigator.doNotTrack === '1'`) or
 * Global Privacy Control, when `navigator.sendBeacon` is missing, or without the page's `data-beacon`. Else it
 * queues events and sends them with `navigator.sendBeacon` (text/plain JSON: no preflight, no cookie, nothing
 * stored in the browser), at most 20 a beacon, a second after the first one queued, and at once when the page
 * is hidden or left; a failed beacon is dropped. Every part is in try/catch: the page never notices it.
 *
 * - `view`: a `[data-view]` picture at least half on screen (or filling half the screen), once per item per page load;
 * - `interact`: model-viewer's `camera-change` from a user's drag or zoom, once per page load;
 * - `ar_launch`: a click on `a[rel="ar"]` (quick_look) or a Scene Viewer intent link (scene_viewer), model-viewer's
 *   own AR button (quick_look where `<a rel="ar">` works, else scene_viewer unless WebXR is used), and
 *   model-viewer's `ar-status` `session-started` (webxr);
 * - `banner_tap`: a click on the page's buy link (`.buy`, a card's `.caption .link`, the embed banner's `.cta`),
 *   the Quick Look banner (the `message` event `_apple_ar_quicklook_button_tapped` on `a[rel="ar"]`, or
 *   model-viewer's `quick-look-button-tapped`); Scene Viewer's banner goes through GET /r/… (BannerRedirect);
 * - `qr_open`: the page was opened with `?src=qr` (the desktop 3D page's QR code); the marker is then taken
 *   out of the address, and the page's events are surface `qr`;
 * - `variant_select`: a choice in the `#variants` selector, once per variant per page load; on an embed page, the
 *   `ar-variant` event (its detail the SKU) that the page's variant switch dispatches when the widget switched it
 *   (embed-page.ts VARIANT_SWITCH_SCRIPT), which also makes that SKU the variant of the page's later events; sent
 *   at once (the shop's page may take the frame to another item's page a moment later).
 *
 * Item ids: the page's (`item_id`), else the nearest `[data-item]`'s; the variant: the page's, else the
 * selector's `data-selected`.
 */
export const BEACON_SCRIPT = `(function(){try{var d=document,w=window,n=navigator,c=JSON.parse(d.body.getAttribute('data-beacon')||'null');
if(!c||!c.site||!c.url||typeof n.sendBeacon!=='function'||n.doNotTrack==='1'||w.doNotTrack==='1'||n.globalPrivacyControl===true)return;
var S=c.surface,Q=[],T=0,O={},qr=false;
try{var u=new URL(w.location.href);if(u.searchParams.get('src')==='qr'){qr=true;u.searchParams.delete('src');history.replaceState(history.state,'',u.href)}}catch(e){}
if(qr)S='qr';else if(S==='embed'&&w.name==='${WIDGET_FRAME_NAME}')S='widget';
function rid(){var s='',a;try{a=new Uint8Array(12);w.crypto.getRandomValues(a)}catch(e){a=[];for(var j=0;j<12;j++)a.push(Math.floor(Math.random()*256))}for(var i=0;i<a.length;i++)s+=(a[i]<16?'0':'')+a[i].toString(16);return s}
function send(){try{if(T){clearTimeout(T);T=0}while(Q.length){var b={site:c.site,events:Q.splice(0,20)};if(d.referrer)b.referrer=d.referrer.slice(0,2048);try{n.sendBeacon(c.url,JSON.stringify(b))}catch(e){}}}catch(e){}}
function item(el){var e=el&&el.closest?el.closest('[data-item]'):null,v=e?parseInt(e.getAttribute('data-item'),10):0;return c.item_id||(v>0?v:undefined)}
function sku(){var f=d.getElementById('variants');return c.variant||(f&&f.getAttribute('data-selected'))||undefined}
function add(kind,el,x,once){try{if(once){if(O[once])return;O[once]=1}var e={id:rid(),kind:kind,surface:S},i=item(el),v=sku();if(i)e.item_id=i;if(v)e.variant=v;if(x)for(var k in x)e[k]=x[k];Q.push(e);if(Q.length>=20)send();else if(!T)T=setTimeout(send,1000)}catch(e){}}
if(qr)add('qr_open',null,null,'qr');
try{var V=d.querySelectorAll('[data-view]');if(V.length&&'IntersectionObserver' in w){var io=new IntersectionObserver(function(es){for(var i=0;i<es.length;i++){var t=es[i],r=t.rootBounds,a=t.intersectionRect;
if(t.isIntersecting&&(t.intersectionRatio>=0.5||(r&&a.width*a.height>=0.5*r.width*r.height))){var el=t.target;add('view',el,null,'view:'+(item(el)||''));io.unobserve(el)}}},{threshold:[0,0.25,0.5,0.75,1]});
for(var i=0;i<V.length;i++)io.observe(V[i])}}catch(e){}
var QL=false;try{QL=d.createElement('a').relList.supports('ar')}catch(e){}
d.addEventListener('click',function(e){try{var t=e.target,a=t&&t.closest?t.closest('a'):null;if(!a)return;var h=a.getAttribute('href')||'';
if(a.getAttribute('rel')==='ar')add('ar_launch',a,{platform:'quick_look'});else if(/^intent:\\/\\/arvr\\.google\\.com\\/scene-viewer/.test(h))add('ar_launch',a,{platform:'scene_viewer'});
else if(h&&a.matches('.buy,.caption .link,.banner .cta'))add('banner_tap',a)}catch(x){}},true);
var A=d.querySelectorAll('a[rel="ar"]');for(var i=0;i<A.length;i++)(function(a){a.addEventListener('message',function(e){if(e.data==='_apple_ar_quicklook_button_tapped')add('banner_tap',a)},false)})(A[i]);
var F=d.getElementById('variants');if(F)F.addEventListener('change',function(e){var t=e.target;if(t&&t.name==='variant'&&t.checked)add('variant_select',F,{variant:t.value},'vs:'+t.value)});
d.addEventListener('ar-variant',function(e){var v=e.detail;if(typeof v==='string'&&v){c.variant=v;add('variant_select',null,{variant:v},'vs:'+v);send()}});
var M=d.querySelectorAll('model-viewer');for(var i=0;i<M.length;i++)(function(m){
m.addEventListener('camera-change',function(e){if(e.detail&&e.detail.source==='user-interaction')add('interact',m,null,'interact')});
m.addEventListener('ar-status',function(e){if(e.detail&&e.detail.status==='session-started')add('ar_launch',m,{platform:'webxr'})});
m.addEventListener('quick-look-button-tapped',function(){add('banner_tap',m)});
m.addEventListener('click',function(e){try{var p=e.composedPath?e.composedPath():[];for(var j=0;j<p.length&&p[j]!==m;j++){if(p[j].classList&&p[j].classList.contains('ar-button')){
if(QL)add('ar_launch',m,{platform:'quick_look'});else if(!(n.xr&&/webxr/.test(m.getAttribute('ar-modes')||'')))add('ar_launch',m,{platform:'scene_viewer'});return}}}catch(x){}})})(M[i]);
d.addEventListener('visibilitychange',function(){if(d.visibilityState==='hidden')send()});w.addEventListener('pagehide',send)}catch(e){}})();`;

/** CSP source expression (`'sha256-…'`) allowing exactly {@link BEACON_SCRIPT}. */
export const BEACON_SCRIPT_HASH = `'sha256-${createHash('sha256').update(BEACON_SCRIPT).digest('base64')}'`;

/** The `<body>` attribute carrying the page's {@link BeaconConfig} (' data-beacon="…"'), or '' for a page that sends nothing. */
export function beaconAttr(c: BeaconConfig | undefined): string {
  return c ? ` data-beacon="${esc(JSON.stringify(c))}"` : '';
}

/** The script element, or '' for a page that sends nothing. */
export const beaconScript = (c: BeaconConfig | undefined): string => (c ? `\n<script>${BEACON_SCRIPT}</script>` : '');

/**
 * Where a page's Scene Viewer banner link goes when its taps are counted: GET /r/{site}/{item}, which counts a
 * `banner_tap` and redirects to the item's own link (BannerRedirectController). Only on an https service: Scene
 * Viewer's `link` must be https (sceneViewerIntent leaves out anything else), so on http the link stays direct.
 */
export interface TapRoute {
  /** `${PUBLIC_BASE_URL}/r/{site}` (https). */
  base: string;
  surface: Surface;
}

/** The base of a site's tap route (`${publicBase}/r/${site}`), or undefined on an http service. */
export function tapBase(publicBase: string, site: string): string | undefined {
  return publicBase.startsWith('https://') ? `${publicBase}/r/${site}` : undefined;
}

/**
 * The banner link as a Scene Viewer intent carries it: through the tap route when there is one.
 *
 * @example
 * tapLink('https://shop.example/p/1', 12, { base: 'https://ar.example/r/shw_abc', surface: 'item' }, 'A3')
 * // 'https://ar.example/r/shw_abc/12?to=https%3A%2F%2Fshop.example%2Fp%2F1&s=item&v=A3'
 */
export function tapLink(link: string | undefined, itemId: number, route: TapRoute | undefined, variant?: string): string | undefined {
  if (!link || !route) return link;
  return `${route.base}/${itemId}?to=${encodeURIComponent(link)}&s=${route.surface}${variant ? `&v=${encodeURIComponent(variant)}` : ''}`;
}
