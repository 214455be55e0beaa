import { createHash } from 'node:crypto';
import { htmlLang, t } from '@app/catalogue';
import { esc } from '../../http/html';
import { LABEL_STYLE } from '../artwork';
import { BEACON_SCRIPT, beaconAttr, type BeaconConfig } from '../beacon';
import { DEFAULT_PAGE_LOCALE, type PageLocale } from '../page-locale';
import { QUICK_LOOK_TAP_SCRIPT, QUICK_LOOK_TAP_SCRIPT_HASH } from '../platform';
import { shareTags, type ShareMeta } from './open-graph';
import { BASE_STYLE, LAYOUT_STYLE } from './showcase-layouts';
import { colour, themeVars } from './showcase-theme';

/**
 * The item and wall pages' script. Navigation: ArrowLeft / ArrowRight follow the page's `data-nav="prev"` /
 * `"next"` links, Escape its `data-nav="close"` link, a horizontal swipe the same (arrow keys on a form control
 * are the control's: they move between a selector's radios). Variants (only on a page with a `#variants`
 * selector and its `#variant-data` JSON block, see page-variants.ts): choosing one shows its texts
 * (`data-v="dims|frame|price|availability|buy"`), picture (`data-v="img"` and its AVIF `<source>`, the box's
 * `--ar` on `[data-ratio]`), links (`data-v-href` names a key of its `links`; Quick Look's `data-link` and icon
 * follow), the elements kept for it (`data-for-variant`), and puts `?variant=<sku>` in the address. The links
 * work without it; the script never changes (it reads everything from the page), so its hash can stand in the
 * Content-Security-Policy. The showcase page's together form (`#together`, see showcase-page.ts): the bar shows
 * once two or more of its checkboxes are ticked, and sends the canonical `?items=12,15,19` address.
 */
export const NAV_SCRIPT = `(function(){var d=document;function go(r){var a=d.querySelector('a[data-nav="'+r+'"]');if(a)window.location.assign(a.href)}
d.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey||e.defaultPrevented)return;var t=e.target;if(t&&t.tagName==='INPUT'&&e.key!=='Escape')return;if(e.key==='ArrowRight')go('next');else if(e.key==='ArrowLeft')go('prev');else if(e.key==='Escape')go('close')});
var x=null,y=0;d.addEventListener('touchstart',function(e){if(e.touches.length===1){x=e.touches[0].clientX;y=e.touches[0].clientY}else x=null},{passive:true});
d.addEventListener('touchend',function(e){if(x===null)return;var t=e.changedTouches[0],dx=t.clientX-x,dy=t.clientY-y;x=null;if(Math.abs(dx)>60&&Math.abs(dx)>1.5*Math.abs(dy))go(dx<0?'next':'prev')},{passive:true})})();
(function(){var d=document,s=d.getElementById('variant-data'),f=d.getElementById('variants');if(!s||!f)return;
var V={},L=JSON.parse(s.textContent||'[]');for(var i=0;i<L.length;i++)V[L[i].sku]=L[i];
function all(q,fn){var l=d.querySelectorAll(q);for(var j=0;j<l.length;j++)fn(l[j])}
function put(n,t){all('[data-v="'+n+'"]',function(e){e.textContent=t;e.hidden=!t})}
function show(k){var v=V[k];if(!v)return;f.setAttribute('data-selected',k);put('dims',v.dims);put('frame',v.frame);put('price',v.price);
all('[data-v="availability"]',function(e){e.hidden=!v.availability;e.className='availability '+v.kind;e.setAttribute('data-availability',v.kind);var a=e.querySelector('.dot'),b=e.querySelector('.text');if(a)a.hidden=v.kind!=='sold';if(b)b.textContent=v.availability});
all('[data-v="buy"]',function(a){if(v.buy){a.href=v.buy.href;a.textContent=v.buy.text;a.hidden=false}else{a.removeAttribute('href');a.textContent='';a.hidden=true}});
all('[data-v-href]',function(a){var h=v.links[a.getAttribute('data-v-href')];if(h)a.href=h;if(a.hasAttribute('data-link'))a.setAttribute('data-link',v.link);var m=a.querySelector('img');if(m&&a.rel==='ar')m.src=v.icon});
all('[data-v="img"]',function(m){var p=m.parentNode,o=p.querySelector('source');if(v.img.avif){if(!o){o=d.createElement('source');o.type='image/avif';p.insertBefore(o,m)}o.sizes=m.sizes;o.srcset=v.img.avif}else if(o)p.removeChild(o);
if(v.img.srcset)m.srcset=v.img.srcset;else m.removeAttribute('srcset');m.width=v.img.w;m.height=v.img.h;m.src=v.img.src});
all('[data-ratio]',function(e){e.style.setProperty('--ar',String(v.ratio))});all('[data-for-variant]',function(e){e.hidden=e.getAttribute('data-for-variant')!==k});
try{var u=new URL(location.href);u.searchParams.set('variant',k);history.replaceState(history.state,'',u.href)}catch(e){}}
f.addEventListener('change',function(e){var t=e.target;if(t&&t.name==='variant'&&t.checked)show(t.value)});
var c=f.querySelector('input[name="variant"]:checked');if(c&&c.value!==f.getAttribute('data-selected'))show(c.value)})();
(function(){var d=document,f=d.getElementById('together');if(!f||f.tagName!=='FORM')return;
function ids(){var c=d.querySelectorAll('input[name="item"][form="together"]:checked'),v=[];for(var i=0;i<c.length;i++)v.push(encodeURIComponent(c[i].value));return v}
function upd(){var k=ids().length,n=f.querySelector('.n');f.hidden=k<2;if(n)n.textContent=String(k)}
d.addEventListener('change',function(e){var t=e.target;if(t&&t.name==='item')upd()});window.addEventListener('pageshow',upd);
f.addEventListener('submit',function(e){var v=ids();if(v.length<2)return;e.preventDefault();var l=f.querySelector('input[name="lang"]');
window.location.assign(f.action+'?items='+v.join(',')+(l?'&lang='+encodeURIComponent(l.value):''))});upd()})();`;

const NAV_SCRIPT_HASH = `'sha256-${createHash('sha256').update(NAV_SCRIPT).digest('base64')}'`;

/**
 * The pages' script where the showcase counts engagement: the beacon script (beacon.ts; it never throws), then
 * NAV_SCRIPT — one constant in place of NAV_SCRIPT, so such a page still allows two scripts only. The showcase
 * page carries it too (its navigation part finds nothing to do there).
 */
export const PAGE_SCRIPT = `${BEACON_SCRIPT}\n${NAV_SCRIPT}`;

const PAGE_SCRIPT_HASH = `'sha256-${createHash('sha256').update(PAGE_SCRIPT).digest('base64')}'`;

/**
 * No scripts on these pages but two constants, each allowed by its hash only (nothing injected can match them):
 * the Quick Look banner tap and the item pages' navigation and variant selector (NAV_SCRIPT; the variants' JSON
 * block is data, never executed), which on the pages of a showcase with analytics on is PAGE_SCRIPT, with the
 * beacon script (`beacon`: its hash instead, and `connect-src 'self'` for its beacons). Forms: only the
 * showcase page's own GET form to its together page. Images from anywhere
 * (logos are the customer's URLs); no fonts, no frames, no other fetches: the pages make no third-party requests
 * of their own.
 */
export function showcaseCsp(beacon: boolean): string {
  const scripts = `${QUICK_LOOK_TAP_SCRIPT_HASH} ${beacon ? PAGE_SCRIPT_HASH : NAV_SCRIPT_HASH}`;
  return `default-src 'none'; script-src ${scripts};${beacon ? " connect-src 'self';" : ''} img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'`;
}

/** The CSP of a page that sends no beacons. */
export const SHOWCASE_CSP = showcaseCsp(false);

export interface BrandInput {
  layout: string;
  logoUrl: string | null;
  tagline: string | null;
  primary: string | null;
  secondary: string | null;
}

/** The brand band: logo and tagline (the page's heading when `heading`), linking home when `homeUrl` is given. */
export function brandHeader(s: BrandInput, opts: { heading: boolean; homeUrl?: string; loc?: PageLocale }): string {
  const locale = (opts.loc ?? DEFAULT_PAGE_LOCALE).locale;
  const hidden = `<h1 class="sr-only">${esc(t(locale, 'page.showcaseTitle'))}</h1>`;
  if (!s.logoUrl && !s.tagline) return opts.heading ? hidden : '';
  const logo = s.logoUrl
    ? `<img class="logo" src="${esc(s.logoUrl)}" alt="${esc(t(locale, 'page.logoAlt'))}" width="160" height="56" referrerpolicy="no-referrer">`
    : '';
  const tag = opts.heading ? 'h1' : 'p';
  // Without a logo the tagline is the link home: an empty link would have no name (axe: link-name).
  const home = (inner: string) => `<a class="home" href="${esc(opts.homeUrl!)}">${inner}</a>`;
  const taglineText = s.tagline && opts.homeUrl && !logo ? home(esc(s.tagline)) : esc(s.tagline ?? '');
  const tagline = s.tagline ? `<${tag} class="tagline">${taglineText}</${tag}>` : opts.heading ? hidden : '';
  const inner = opts.homeUrl && logo ? `${home(logo)}${tagline}` : `${logo}${tagline}`;
  return `<header class="brand">${inner}</header>`;
}

export interface DocumentInput {
  title: string;
  share: ShareMeta;
  brand: BrandInput;
  bodyClass: string;
  platform: string;
  body: string;
  /** Inline scripts: only the constants allowed by showcaseCsp (`nav` is PAGE_SCRIPT on a page with `beacon`). */
  scripts: ('quick-look' | 'nav')[];
  refresh?: boolean;
  extraStyle?: string;
  /** The page's language (`<html lang>`); English when absent. */
  loc?: PageLocale;
  /** More head elements, already safe HTML (the item page's JSON-LD block). */
  head?: string;
  /** The page's analytics (beacon.ts): the beacon script and its data; none when absent. */
  beacon?: BeaconConfig;
}

export function htmlDocument(d: DocumentInput): string {
  // With analytics, every page has the page script (the beacon script in it), after the Quick Look tap script.
  const list = d.beacon && !d.scripts.includes('nav') ? [...d.scripts, 'nav' as const] : d.scripts;
  const nav = d.beacon ? PAGE_SCRIPT : NAV_SCRIPT;
  const scripts = list.map((s) => `\n<script>${s === 'nav' ? nav : QUICK_LOOK_TAP_SCRIPT}</script>`).join('');
  return `<!doctype html>
<html lang="${htmlLang((d.loc ?? DEFAULT_PAGE_LOCALE).locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
${shareTags(d.share)}
${d.refresh ? '<meta http-equiv="refresh" content="4">' : ''}
<meta name="theme-color" content="${colour(d.brand.primary, '#0a66ff')}">
<title>${esc(d.title)}</title>
<style>${themeVars(d.brand)}${BASE_STYLE}${LAYOUT_STYLE}${LABEL_STYLE}${d.extraStyle ?? ''}</style>${d.head ? `\n${d.head}` : ''}
</head>
<body class="${esc(d.bodyClass)} layout-${esc(d.brand.layout)}" data-platform="${esc(d.platform)}"${beaconAttr(d.beacon)}>
${d.body}${scripts}
</body>
</html>`;
}
