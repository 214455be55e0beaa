import { createHash } from 'node:crypto';
import { esc } from './html';
import type { Platform } from './platform';
import { quickLookHref, sceneViewerIntent } from './platform';

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
}

const STYLE = `
*{box-sizing:border-box}html,body{margin:0;height:100%;font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1d1d1f;background:transparent}
.card{position:relative;width:100%;height:100%;min-height:160px;display:flex;align-items:center;justify-content:center;overflow:hidden;background:#f4f4f6;border-radius:12px}
.card>img.poster,.card model-viewer{width:100%;height:100%;object-fit:contain;display:block}
.badge{position:absolute;z-index:2;top:10px;left:10px;padding:3px 9px;border-radius:999px;background:rgba(0,0,0,.72);color:#fff;font-size:12px;font-weight:600;letter-spacing:.02em}
.badge.animated{animation:pulse 1.8s ease-in-out infinite}
@keyframes pulse{0%,100%{transform:scale(1);opacity:1}50%{transform:scale(1.08);opacity:.85}}
@media (prefers-reduced-motion:reduce){.badge.animated{animation:none}}
.ar-button{position:absolute;z-index:2;bottom:12px;left:50%;transform:translateX(-50%);display:inline-flex;align-items:center;gap:8px;padding:10px 16px;border:0;border-radius:999px;background:#0a66ff;color:#fff;font:600 15px system-ui,sans-serif;text-decoration:none;cursor:pointer;box-shadow:0 2px 8px rgba(0,0,0,.25)}
.ar-button img{width:20px;height:20px;border-radius:4px;object-fit:cover}
.qr{position:absolute;z-index:3;inset:0;display:none;flex-direction:column;align-items:center;justify-content:center;gap:8px;background:rgba(255,255,255,.96);text-align:center;padding:12px}
.qr.open{display:flex}.qr svg{width:min(60%,220px);height:auto}
.message{padding:24px;text-align:center;color:#444}
progress{width:60%;height:8px}
.size{position:absolute;top:10px;right:10px;font-size:12px;color:#555;background:rgba(255,255,255,.8);padding:2px 6px;border-radius:6px}
`;

const QR_SCRIPT = `(function(){var b=document.getElementById('ar-launch'),q=document.getElementById('qr');
b.addEventListener('click',function(){q.classList.add('open')});
document.getElementById('qr-close').addEventListener('click',function(){q.classList.remove('open')});})();`;

const QR_SCRIPT_HASH = `'sha256-${createHash('sha256').update(QR_SCRIPT).digest('base64')}'`;

/**
 * Content-Security-Policy of embed pages: scripts only from our asset origin plus the one inline
 * script (by hash); models, posters and textures from anywhere storage may serve them (S3 buckets,
 * CDNs). `frame-ancestors *` because embedding on customers' sites is the point of these pages.
 */
export function embedCsp(assetBase: string): string {
  const assets = new URL(assetBase).origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${assets} ${QR_SCRIPT_HASH}`,
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

/** Interactive embed: poster, animated badge, "View in your space" for the platform. */
export function interactivePage(m: ReadyModel, platform: Platform): string {
  const size = `${m.widthInches} × ${m.heightInches} in`;
  let viewer: string;
  let button: string;
  let head = '';
  if (platform === 'ios') {
    viewer = `<img class="poster" src="${esc(m.posterUrl)}" alt="Picture">`;
    // Quick Look needs an <img> child inside the rel="ar" anchor.
    button = `<a class="ar-button" id="ar-launch" rel="ar" href="${esc(quickLookHref(m.usdzUrl))}"><img src="${esc(m.posterUrl)}" alt="">View in your space</a>`;
  } else if (platform === 'android') {
    viewer = `<img class="poster" src="${esc(m.posterUrl)}" alt="Picture">`;
    // target=_top: Chrome launches intents from the top-level page, not from inside an iframe.
    button = `<a class="ar-button" id="ar-launch" target="_top" href="${esc(sceneViewerIntent(m.glbUrl, m.pageUrl, 'Picture'))}">View in your space</a>`;
  } else {
    head = `<script type="module" src="${esc(m.assetBase)}/assets/model-viewer.min.js"></script>`;
    viewer = `<model-viewer src="${esc(m.glbUrl)}" ios-src="${esc(m.usdzUrl)}" poster="${esc(m.posterUrl)}" alt="3D preview of the picture" camera-controls camera-orbit="0deg 90deg auto" interaction-prompt="none" shadow-intensity="0" exposure="1"${m.animated ? ' autoplay animation-name="flipbook"' : ''}></model-viewer>`;
    button = `<button class="ar-button" id="ar-launch" type="button" aria-controls="qr">View in your space</button>
<div class="qr" id="qr" role="dialog" aria-label="Open on your phone">${m.qrSvg}<div>Scan with your phone to place it in your space</div><button type="button" id="qr-close">Close</button></div>
<script>${QR_SCRIPT}</script>`;
  }
  return page('View in AR', `<div class="card" data-platform="${platform}" data-variant="interactive">
${viewer}
<span class="badge animated">AR</span>
<span class="size">${esc(size)}</span>
${button}
</div>`, head);
}

/** Static embed: the picture and a plain text badge. No animation, no button. */
export function staticPage(m: Pick<ReadyModel, 'posterUrl' | 'widthInches' | 'heightInches'>): string {
  return page('Picture', `<div class="card" data-variant="static">
<img class="poster" src="${esc(m.posterUrl)}" alt="Picture">
<span class="badge">AR model · ${esc(`${m.widthInches} × ${m.heightInches} in`)}</span>
</div>`);
}

/** Still converting: progress, refreshing itself. */
export function pendingPage(progress: number): string {
  const p = Math.round(progress);
  return page('Converting…', `<div class="card" data-state="converting"><div class="message"><div>Preparing the AR model…</div><progress max="100" value="${p}">${p}%</progress></div></div>`,
    '<meta http-equiv="refresh" content="2">');
}

export function failedPage(): string {
  return page('Not available', '<div class="card" data-state="failed"><div class="message">This AR model could not be created.</div></div>');
}
