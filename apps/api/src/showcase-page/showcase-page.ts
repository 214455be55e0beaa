import { isFinal, type JobStatus } from '@app/pipeline';
import { esc } from '../embed/html';
import type { LaunchPresentation, Platform } from '../embed/platform';
import { QUICK_LOOK_TAP_SCRIPT, QUICK_LOOK_TAP_SCRIPT_HASH, quickLookHref, sceneViewerIntent, sizeLabel } from '../embed/platform';


export interface PageItem {
  id: number;
  status: string;
  progress: number;
  title: string;
  /** Present once completed. */
  ready?: {
    posterUrl: string; glbUrl: string; usdzUrl: string; embedUrl: string; widthInches: number; heightInches: number;
    /** The item's own wall placement / locked size / banner; absent for items made before these existed (old launch links). */
    presentation?: LaunchPresentation;
  };
}

export interface PageShowcase {
  layout: string;
  logoUrl: string | null;
  description: string | null;
  links: { title: string; url: string }[];
  tagline: string | null;
  /** Validated hex colours (#rgb / #rrggbb) or null for the layout's default. */
  primary: string | null;
  secondary: string | null;
  pageUrl: string;
  items: PageItem[];
}

/** Whether any item is still converting (the page then refreshes itself and is not cached). */
export const hasPending = (items: readonly { status: string }[]): boolean => items.some((i) => !isFinal(i.status as JobStatus));

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
// Colours were validated on the way in; checked again because they are written into CSS.
const colour = (v: string | null, fallback: string) => (v && HEX.test(v) ? v : fallback);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:var(--bg);color:var(--fg)}
.sc{max-width:1200px;margin:0 auto;padding:0 16px 32px}
header.brand{display:flex;flex-wrap:wrap;align-items:center;gap:16px;padding:24px 16px;margin:0 -16px 20px;background:var(--band);color:var(--band-fg)}
header.brand img.logo{max-height:64px;max-width:200px;object-fit:contain;background:#fff;border-radius:8px;padding:4px}
header.brand .tagline{margin:0;font-size:22px;font-weight:650;overflow-wrap:anywhere}
.description{white-space:pre-line;margin:0 0 16px;overflow-wrap:anywhere}
nav.links{display:flex;flex-wrap:wrap;gap:8px;margin:0 0 20px}
nav.links a{padding:6px 12px;border-radius:999px;background:var(--accent);color:var(--accent-fg);text-decoration:none;font-weight:600;overflow-wrap:anywhere}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:16px}
.item{position:relative;border-radius:12px;overflow:hidden;background:var(--card);box-shadow:0 1px 4px rgba(0,0,0,.12);display:flex;flex-direction:column}
.item .media{display:block;aspect-ratio:1/1;background:var(--media)}
.item .media img{width:100%;height:100%;object-fit:contain;display:block}
.item .meta{display:flex;justify-content:space-between;align-items:center;gap:8px;padding:10px 12px}
.ar{display:inline-flex;align-items:center;gap:6px;padding:8px 14px;border-radius:999px;background:var(--primary);color:var(--primary-fg);font-weight:600;text-decoration:none;white-space:nowrap}
.ar img{width:20px;height:20px;border-radius:4px;object-fit:cover}
.size{font-size:12px;opacity:.75}
.caption{display:flex;flex-wrap:wrap;align-items:baseline;gap:2px 10px;padding:10px 12px 0;overflow-wrap:anywhere}
.caption .title{flex:1 1 auto;font-weight:650;min-width:0}
.caption .price{font-weight:650;white-space:nowrap}
.caption .sub{flex-basis:100%;font-size:13px;opacity:.75}
.caption .link{flex-basis:100%;font-size:13px;font-weight:600;color:inherit}
.pending .media,.failed .media{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:8px;padding:16px;text-align:center}
progress{width:70%}
.empty{padding:32px;text-align:center;opacity:.7}
body.embed .sc{padding:0 8px 8px}body.embed header.brand{padding:12px 8px;margin:0 -8px 12px}
`;

function theme(s: PageShowcase): string {
  const primary = colour(s.primary, '#0a66ff');
  const secondary = colour(s.secondary, s.layout === 'dark' ? '#2a2a2e' : '#1d1d1f');
  const base = s.layout === 'dark'
    ? { bg: '#111114', fg: '#f2f2f5', card: '#1c1c21', media: '#26262c' }
    : { bg: '#ffffff', fg: '#1d1d1f', card: '#ffffff', media: '#f4f4f6' };
  const band = s.layout === 'branded' ? primary : 'transparent';
  const bandFg = s.layout === 'branded' ? readableOn(primary) : base.fg;
  return `:root{--bg:${base.bg};--fg:${base.fg};--card:${base.card};--media:${base.media};--band:${band};--band-fg:${bandFg};`
    + `--primary:${primary};--primary-fg:${readableOn(primary)};--accent:${secondary};--accent-fg:${readableOn(secondary)}}`;
}

/** Black or white text, whichever reads better on a background colour (WCAG relative luminance). */
export function readableOn(hex: string): string {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.179 ? '#000000' : '#ffffff';
}

/** One item's AR launch, as on the embed pages (iOS Quick Look, Android Scene Viewer, desktop 3D page). */
function itemCard(i: PageItem, platform: Platform, embed: boolean): string {
  if (!i.ready) {
    if (i.status === 'failed') {
      return `<article class="item failed" data-item="${i.id}" data-status="failed"><div class="media">This picture could not be converted.</div><div class="meta"><span>${esc(i.title)}</span></div></article>`;
    }
    const p = Math.round(i.progress);
    return `<article class="item pending" data-item="${i.id}" data-status="${esc(i.status)}"><div class="media"><span>Preparing the AR model…</span><progress max="100" value="${p}">${p}%</progress></div><div class="meta"><span>${esc(i.title)}</span></div></article>`;
  }
  const r = i.ready;
  const p = r.presentation;
  const b = p?.banner ?? {};
  const size = sizeLabel(r.widthInches, r.heightInches, p);
  const poster = `<img src="${esc(r.posterUrl)}" alt="${esc(b.title ?? i.title)}" loading="lazy">`;
  let media: string;
  let button: string;
  if (platform === 'ios') {
    // Quick Look needs the <img> child inside the rel="ar" anchor; a tap on its banner comes back as a
    // message event on the anchor, and QUICK_LOOK_TAP_SCRIPT opens data-link.
    const href = esc(quickLookHref(r.usdzUrl, { allowScaling: p?.allowScaling ?? false, banner: b }));
    const link = b.link_url ? ` data-link="${esc(b.link_url)}"` : '';
    media = `<a class="media" rel="ar" href="${href}"${link}>${poster}</a>`;
    button = `<a class="ar" rel="ar" href="${href}"${link}><img src="${esc(r.posterUrl)}" alt="">View in your space</a>`;
  } else if (platform === 'android') {
    const intent = esc(sceneViewerIntent(r.glbUrl, r.embedUrl, p
      ? { title: b.title ?? i.title, link: b.link_url, placement: p.placement, allowScaling: p.allowScaling }
      : { title: i.title, placement: 'floor', allowScaling: false }));
    media = `<a class="media" target="_top" href="${intent}">${poster}</a>`;
    button = `<a class="ar" target="_top" href="${intent}">View in your space</a>`;
  } else {
    const target = embed ? '_blank' : '_self';
    media = `<a class="media" target="${target}" rel="noopener" href="${esc(r.embedUrl)}">${poster}</a>`;
    button = `<a class="ar" target="${target}" rel="noopener" href="${esc(r.embedUrl)}">View in 3D / AR</a>`;
  }
  const caption = b.title || b.subtitle || b.price || b.link_url
    ? `<div class="caption">${b.title ? `<span class="title">${esc(b.title)}</span>` : ''}${b.price ? `<span class="price">${esc(b.price)}</span>` : ''}`
      + `${b.subtitle ? `<span class="sub">${esc(b.subtitle)}</span>` : ''}`
      + `${b.link_url ? `<a class="link" href="${esc(b.link_url)}" target="_top" rel="noopener">${esc(b.call_to_action ?? 'View details')}</a>` : ''}</div>`
    : '';
  const placement = p ? ` data-placement="${p.placement}"` : '';
  return `<article class="item" data-item="${i.id}" data-status="completed"${placement}>${media}${caption}<div class="meta"><span class="size">${esc(size)}</span>${button}</div></article>`;
}

/**
 * The public showcase page (and, with `embed`, its iframe variant): logo, tagline, colours,
 * description, custom links and the grid of items. It refreshes itself while pictures are converting
 * (no script for that), and the answer carries a strict Content-Security-Policy on top of the escaping.
 * The one script: on iOS, when an item has a link, {@link QUICK_LOOK_TAP_SCRIPT} opens it from a tap
 * on the Quick Look banner (only a script can: Quick Look reports the tap as a DOM message event).
 */
export function showcasePage(s: PageShowcase, platform: Platform, embed: boolean): string {
  const pending = hasPending(s.items);
  const title = s.tagline || 'AR showcase';
  const header = s.logoUrl || s.tagline
    ? `<header class="brand">${s.logoUrl ? `<img class="logo" src="${esc(s.logoUrl)}" alt="Logo" referrerpolicy="no-referrer">` : ''}${s.tagline ? `<p class="tagline">${esc(s.tagline)}</p>` : ''}</header>`
    : '';
  const links = s.links.length
    ? `<nav class="links">${s.links.map((l) => `<a href="${esc(l.url)}" target="_blank" rel="noopener noreferrer nofollow ugc">${esc(l.title)}</a>`).join('')}</nav>`
    : '';
  const tapScript = platform === 'ios' && s.items.some((i) => i.ready?.presentation?.banner.link_url)
    ? `\n<script>${QUICK_LOOK_TAP_SCRIPT}</script>` : '';
  const grid = s.items.length
    ? `<section class="grid">${s.items.map((i) => itemCard(i, platform, embed)).join('\n')}</section>`
    : '<div class="empty">No pictures yet.</div>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
${pending ? '<meta http-equiv="refresh" content="4">' : ''}
<title>${esc(title)}</title>
<style>${theme(s)}${STYLE}</style>
</head>
<body class="${embed ? 'embed' : 'page'} layout-${esc(s.layout)}" data-platform="${platform}">
<main class="sc">
${header}
${s.description ? `<p class="description">${esc(s.description)}</p>` : ''}
${links}
${grid}
</main>${tapScript}
</body>
</html>`;
}

/**
 * No scripts on these pages but the constant Quick Look banner-tap script, allowed by its hash only
 * (nothing injected can match it); images from anywhere (logos are the customer's URLs).
 */
export const SHOWCASE_CSP = `default-src 'none'; script-src ${QUICK_LOOK_TAP_SCRIPT_HASH}; img-src https: http: data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`;
