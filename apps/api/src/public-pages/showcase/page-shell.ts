import { createHash } from 'node:crypto';
import { htmlLang, t } from '@app/catalogue';
import { esc } from '../../http/html';
import { LABEL_STYLE } from '../artwork';
import { DEFAULT_PAGE_LOCALE, type PageLocale } from '../page-locale';
import { QUICK_LOOK_TAP_SCRIPT, QUICK_LOOK_TAP_SCRIPT_HASH } from '../platform';
import { shareTags, type ShareMeta } from './open-graph';
import { BASE_STYLE, LAYOUT_STYLE } from './showcase-layouts';
import { colour, themeVars } from './showcase-theme';

/**
 * Keyboard and swipe navigation of the item and wall pages: ArrowLeft / ArrowRight follow the page's
 * `data-nav="prev"` / `"next"` links, Escape its `data-nav="close"` link, a horizontal swipe the same.
 * The links work without it; the script never changes (it reads the links from the page), so its hash can
 * stand in the Content-Security-Policy.
 */
export const NAV_SCRIPT = `(function(){var d=document;function go(r){var a=d.querySelector('a[data-nav="'+r+'"]');if(a)window.location.assign(a.href)}
d.addEventListener('keydown',function(e){if(e.altKey||e.ctrlKey||e.metaKey||e.shiftKey||e.defaultPrevented)return;if(e.key==='ArrowRight')go('next');else if(e.key==='ArrowLeft')go('prev');else if(e.key==='Escape')go('close')});
var x=null,y=0;d.addEventListener('touchstart',function(e){if(e.touches.length===1){x=e.touches[0].clientX;y=e.touches[0].clientY}else x=null},{passive:true});
d.addEventListener('touchend',function(e){if(x===null)return;var t=e.changedTouches[0],dx=t.clientX-x,dy=t.clientY-y;x=null;if(Math.abs(dx)>60&&Math.abs(dx)>1.5*Math.abs(dy))go(dx<0?'next':'prev')},{passive:true})})();`;

const NAV_SCRIPT_HASH = `'sha256-${createHash('sha256').update(NAV_SCRIPT).digest('base64')}'`;

/**
 * No scripts on these pages but two constants, each allowed by its hash only (nothing injected can match
 * them): the Quick Look banner tap and the item pages' navigation. Images from anywhere (logos are the
 * customer's URLs); no fonts, no fetches, no frames: the pages make no third-party requests of their own.
 */
export const SHOWCASE_CSP = `default-src 'none'; script-src ${QUICK_LOOK_TAP_SCRIPT_HASH} ${NAV_SCRIPT_HASH}; img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`;

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
  /** Inline scripts: only the constants allowed by SHOWCASE_CSP. */
  scripts: ('quick-look' | 'nav')[];
  refresh?: boolean;
  extraStyle?: string;
  /** The page's language (`<html lang>`); English when absent. */
  loc?: PageLocale;
  /** More head elements, already safe HTML (the item page's JSON-LD block). */
  head?: string;
}

export function htmlDocument(d: DocumentInput): string {
  const scripts = d.scripts.map((s) => `\n<script>${s === 'nav' ? NAV_SCRIPT : QUICK_LOOK_TAP_SCRIPT}</script>`).join('');
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
<body class="${esc(d.bodyClass)} layout-${esc(d.brand.layout)}" data-platform="${esc(d.platform)}">
${d.body}${scripts}
</body>
</html>`;
}
