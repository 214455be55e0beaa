import { createHash } from 'node:crypto';
import { esc } from '../../http/html';
import type { LaunchPresentation, Platform } from '../platform';
import { QUICK_LOOK_TAP_SCRIPT, QUICK_LOOK_TAP_SCRIPT_HASH, quickLookHref, sceneViewerIntent, sizeLabel } from '../platform';

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
`;

const QR_SCRIPT = `(function(){var b=document.getElementById('ar-launch'),q=document.getElementById('qr');
b.addEventListener('click',function(){q.classList.add('open')});
document.getElementById('qr-close').addEventListener('click',function(){q.classList.remove('open')});})();`;

const QR_SCRIPT_HASH = `'sha256-${createHash('sha256').update(QR_SCRIPT).digest('base64')}'`;

/**
 * Content-Security-Policy of embed pages: scripts only from our asset origin plus the one inline
 * script (by hash); models, posters and textures from anywhere storage may serve them (S3 buckets,
 * CDNs). `frame-ancestors *` because embedding on customers' sites is the point of these pages.
 * `'wasm-unsafe-eval'`: model-viewer compiles its WebAssembly decoder (meshopt) as it loads; this allows
 * that and no JavaScript eval. Without it every desktop page reports a CSP violation.
 */
export function embedCsp(assetBase: string): string {
  const assets = new URL(assetBase).origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${assets} ${QR_SCRIPT_HASH} ${QUICK_LOOK_TAP_SCRIPT_HASH} 'wasm-unsafe-eval'`,
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

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>${STYLE}</style>
${head}
</head>
<body>
${body}
</body>
</html>`;
}

/** The banner on the page itself (every platform): title, subtitle, price and the call to action. User text: escaped. */
function bannerHtml(p: LaunchPresentation | undefined): string {
  const b = p?.banner;
  if (!b || !(b.title || b.subtitle || b.price || b.link_url)) return '';
  const text = `${b.title ? `<span class="title">${esc(b.title)}</span>` : ''}${b.subtitle ? `<span class="sub">${esc(b.subtitle)}</span>` : ''}`;
  const cta = b.link_url
    ? `<a class="cta" href="${esc(b.link_url)}" target="_top" rel="noopener">${esc(b.call_to_action ?? 'View details')}</a>`
    : '';
  return `<div class="banner" data-banner><span class="text">${text}</span>${b.price ? `<span class="price">${esc(b.price)}</span>` : ''}${cta}</div>`;
}

/** Desktop 3D preview. New results: on a neutral wall (or the floor) with soft light and shadow, AR placement and scale as in the phones' viewers. */
function modelViewer(m: ReadyModel): string {
  const p = m.presentation;
  const anim = m.animated ? ' autoplay animation-name="flipbook"' : '';
  if (!p) {
    return `<model-viewer src="${esc(m.glbUrl)}" ios-src="${esc(m.usdzUrl)}" poster="${esc(m.posterUrl)}" alt="3D preview of the picture" camera-controls camera-orbit="0deg 90deg auto" interaction-prompt="none" shadow-intensity="0" exposure="1"${anim}></model-viewer>`;
  }
  const alt = p.banner.title ? `3D preview of ${p.banner.title}` : '3D preview of the picture';
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
  const p = m.presentation;
  const size = sizeLabel(m.widthInches, m.heightInches, p);
  const banner = bannerHtml(p);
  const link = p?.banner.link_url;
  let viewer: string;
  let button: string;
  let head = '';
  if (platform === 'ios') {
    viewer = `<img class="poster" src="${esc(m.posterUrl)}" alt="Picture">`;
    const href = quickLookHref(m.usdzUrl, { allowScaling: p?.allowScaling ?? false, banner: p?.banner });
    // Quick Look needs an <img> child inside the rel="ar" anchor. A tap on its banner comes back as a
    // message event on this anchor: the script (allowed by its hash in embedCsp) opens data-link.
    button = `<a class="ar-button" id="ar-launch" rel="ar" href="${esc(href)}"${link ? ` data-link="${esc(link)}"` : ''}><img src="${esc(m.posterUrl)}" alt="">View in your space</a>`;
    if (link) button += `\n<script>${QUICK_LOOK_TAP_SCRIPT}</script>`;
  } else if (platform === 'android') {
    viewer = `<img class="poster" src="${esc(m.posterUrl)}" alt="Picture">`;
    const intent = sceneViewerIntent(
      m.glbUrl,
      m.pageUrl,
      p
        ? { title: p.banner.title ?? 'Picture', link, placement: p.placement, allowScaling: p.allowScaling }
        : { title: 'Picture', placement: 'floor', allowScaling: false },
    );
    // target=_top: Chrome launches intents from the top-level page, not from inside an iframe.
    button = `<a class="ar-button" id="ar-launch" target="_top" href="${esc(intent)}">View in your space</a>`;
  } else {
    head = `<script type="module" src="${esc(m.assetBase)}/assets/model-viewer.min.js"></script>`;
    viewer = modelViewer(m);
    button = `<button class="ar-button" id="ar-launch" type="button" aria-controls="qr">View in your space</button>
<div class="qr" id="qr" role="dialog" aria-label="Open on your phone">${m.qrSvg}<div>Scan with your phone to place it in your space</div><button type="button" id="qr-close">Close</button></div>
<script>${QR_SCRIPT}</script>`;
  }
  const classes = ['card', ...(platform === 'desktop' && p?.placement === 'wall' ? ['wall'] : []), ...(banner ? ['has-banner'] : [])].join(
    ' ',
  );
  const attrs = p ? ` data-placement="${p.placement}"` : '';
  return page(
    p?.banner.title ? `${p.banner.title} · View in AR` : 'View in AR',
    `<div class="${classes}" data-platform="${platform}" data-variant="interactive"${attrs}>
${viewer}
<span class="badge animated">AR</span>
<span class="size">${esc(size)}</span>
${banner}${banner ? '\n' : ''}${button}
</div>`,
    head,
  );
}

/** Static embed: the picture and a plain text badge. No animation, no button. */
export function staticPage(m: Pick<ReadyModel, 'posterUrl' | 'widthInches' | 'heightInches'>): string {
  return page(
    'Picture',
    `<div class="card" data-variant="static">
<img class="poster" src="${esc(m.posterUrl)}" alt="Picture">
<span class="badge">AR model · ${esc(`${m.widthInches} × ${m.heightInches} in`)}</span>
</div>`,
  );
}

/** Still converting: progress, refreshing itself. */
export function pendingPage(progress: number): string {
  const p = Math.round(progress);
  return page(
    'Converting…',
    `<div class="card" data-state="converting"><div class="message"><div>Preparing the AR model…</div><progress max="100" value="${p}">${p}%</progress></div></div>`,
    '<meta http-equiv="refresh" content="2">',
  );
}

export function failedPage(): string {
  return page(
    'Not available',
    '<div class="card" data-state="failed"><div class="message">This AR model could not be created.</div></div>',
  );
}
