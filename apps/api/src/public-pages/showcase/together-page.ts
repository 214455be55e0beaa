import { t } from '@app/catalogue';
import { esc } from '../../http/html';
import { plainSizeBoth, withLang } from '../page-locale';
import { quickLookHref, sceneViewerIntent, type Platform } from '../platform';
import { roomLink } from '../room/room-link';
import { brandHeader, htmlDocument } from './page-shell';
import { homeUrl, localeOf, type PageShowcase } from './showcase-page';
import { type GroupPicture, groupScene } from './wall-preview';

/**
 * The pages of pictures hung together (docs/gallery-walls.md): a visitor's choice (`/showcase/{id}/together?items=…`,
 * its model built on request by VisitorWalls) and an owner's saved wall (`/showcase/{id}/walls/{wall_id}`, its
 * built files). Both show the set to scale on a wall with a sofa or a person (wall-preview.ts groupScene), the 3D
 * preview and a QR code on a desktop, the AR launch on a phone (Quick Look, Scene Viewer on a wall), the overall
 * size and the pictures' titles. No inline script at all: the desktop preview is model-viewer, from our assets.
 */

export const TOGETHER_STYLE = `
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:0 0 16px}
.pager a{display:inline-flex;align-items:center;justify-content:center;gap:.35em;min-width:44px;min-height:44px;padding:6px 12px;border-radius:8px;font-weight:600;text-decoration:none;border:2px solid rgba(127,127,127,.45)}
.together h1{margin:0 0 12px;font-size:clamp(22px,3vw,32px);line-height:1.2;overflow-wrap:anywhere}
.arrangements{display:flex;flex-wrap:wrap;align-items:center;gap:8px;margin:0 0 16px}
.arrangements .label{font-weight:600;margin-right:4px}
.arrangements a{display:inline-flex;align-items:center;min-height:40px;padding:6px 16px;border-radius:999px;border:2px solid rgba(127,127,127,.45);font-weight:600;text-decoration:none}
.arrangements a[aria-current="page"]{background:var(--primary);border-color:var(--primary);color:var(--primary-fg)}
.wall{margin:0}
.wall svg{display:block;width:100%;height:auto;max-height:70vh}
.wall figcaption{margin-top:10px;color:var(--muted);max-width:80ch}
.stage3d{display:grid;grid-template-columns:minmax(0,1fr) minmax(220px,300px);gap:24px;align-items:start;margin-top:24px}
.stage3d model-viewer{display:block;width:100%;height:min(60vh,520px);background:radial-gradient(ellipse 80% 70% at 50% 28%,#f7f4ef 0%,#ebe6df 55%,#ddd7cf 100%);border-radius:12px}
.stage3d .loading{display:flex;align-items:center;justify-content:center;width:100%;height:100%;color:#555}
.qr-code{display:flex;flex-direction:column;align-items:center;gap:8px;padding:16px;border-radius:12px;background:#fff;color:#1d1d1f;text-align:center}
.qr-code svg{width:100%;max-width:220px;height:auto}
.qr-code p{margin:0;font-size:14px}
.together .actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:16px}
.facts{margin-top:24px}
.facts .overall{font-weight:650;margin:0 0 12px}
.facts h2{margin:0 0 6px;font-size:18px}
.facts ol{margin:0;padding-left:1.4em}
.facts li{overflow-wrap:anywhere}
.facts .dims{color:var(--muted)}
.together-error p{max-width:60ch}
@media (max-width:800px){.stage3d{grid-template-columns:1fr}.stage3d .qr-code{display:none}}
`;

/** A set of pictures as its page shows it. */
export interface TogetherView {
  showcase: PageShowcase;
  platform: Platform;
  /** The page's heading: the saved wall's name, or "Your pictures together". */
  heading: string;
  /** The page's own address (canonical; the QR code's target), with the visitor's `?lang=`. */
  pageUrl: string;
  pictures: (GroupPicture & { size: string })[];
  /** Absolute URLs of the set's model files. */
  glbUrl: string;
  usdzUrl: string;
  /** The Quick Look button's icon: the first picture's thumbnail. */
  iconUrl: string;
  /** A visitor's set: the arrangement shown and the page's address for each one. */
  arrangements?: { current: string; links: { name: 'row' | 'grid' | 'salon'; url: string }[] };
  /** The desktop page's QR code (SVG) of {@link TogetherView.pageUrl}. */
  qrSvg: string;
  /** PUBLIC_BASE_URL: where model-viewer is served from. */
  assetBase: string;
  /** A visitor's set: its room view ("On your wall, from a photo", room/room-page.ts); absent for a saved wall. */
  roomUrl?: string;
  /** Data attributes of `<main>` (the chosen items, the wall's id). */
  data: Record<string, string>;
}

/**
 * Content-Security-Policy of these pages: model-viewer from our assets (it compiles its WebAssembly decoder:
 * `'wasm-unsafe-eval'`, no JavaScript eval) and no inline script; models and pictures from wherever storage
 * serves them; not frameable by other sites.
 */
export function togetherCsp(assetBase: string): string {
  const assets = new URL(assetBase).origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${assets} 'wasm-unsafe-eval'`,
    'connect-src https: http: blob: data:',
    'img-src https: http: blob: data:',
    "style-src 'unsafe-inline'",
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

function back(s: PageShowcase): string {
  const locale = localeOf(s).locale;
  return `<nav class="pager" aria-label="${esc(t(locale, 'page.picturesLabel'))}"><a class="close" data-nav="close" href="${esc(homeUrl(s))}"><span aria-hidden="true">‹ </span>${esc(t(locale, 'nav.allPictures'))}</a></nav>`;
}

/** The 3D preview and QR code (desktop) or the AR launch (phones: Quick Look on iOS, Scene Viewer on a wall on Android). */
function launch(v: TogetherView): string {
  const loc = localeOf(v.showcase);
  const text = esc(t(loc.locale, 'ar.viewOnYourWall'));
  if (v.platform === 'ios') {
    // Quick Look needs an <img> child inside the rel="ar" anchor; the set stays at its real size.
    const href = quickLookHref(v.usdzUrl, { allowScaling: false });
    return `<div class="actions"><a class="ar" rel="ar" href="${esc(href)}"><img src="${esc(v.iconUrl)}" alt="" width="20" height="20">${text}</a></div>`;
  }
  if (v.platform === 'android') {
    const intent = sceneViewerIntent(v.glbUrl, v.pageUrl, { title: v.heading, placement: 'wall', allowScaling: false });
    return `<div class="actions"><a class="ar" href="${esc(intent)}">${text}</a></div>`;
  }
  // Facing the wall, the orbit kept in front of it, as the embed page shows a wall picture. Loaded at once (below
  // the fold model-viewer would wait for a scroll): a visitor's model is built on this first request.
  const viewer =
    `<model-viewer src="${esc(v.glbUrl)}" ios-src="${esc(v.usdzUrl)}" alt="${esc(t(loc.locale, 'together.modelAlt'))}" camera-controls camera-orbit="0deg 90deg auto"` +
    ` min-camera-orbit="-60deg 35deg auto" max-camera-orbit="60deg 145deg auto" interaction-prompt="none" loading="eager" ar ar-modes="webxr scene-viewer quick-look" ar-placement="wall" ar-scale="fixed"` +
    ` environment-image="neutral" shadow-intensity="0.8" shadow-softness="1" exposure="1"><div class="loading" slot="poster">${esc(t(loc.locale, 'viewer.loading'))}</div></model-viewer>`;
  const qr = `<div class="qr-code" role="group" aria-label="${esc(t(loc.locale, 'ar.openOnPhone'))}">${v.qrSvg}<p>${esc(t(loc.locale, 'together.scan'))}</p></div>`;
  return `<div class="stage3d">${viewer}${qr}</div>`;
}

/** The page of a set of pictures hung together. */
export function togetherPage(v: TogetherView): string {
  const s = v.showcase;
  const loc = localeOf(s);
  const titles = v.pictures.map((p) => p.title).join(', ');
  const scene = groupScene(v.pictures, loc, (reference, size) => t(loc.locale, 'together.sceneLabel', { titles, size, reference }));
  const size = plainSizeBoth(scene.width, scene.height, loc);
  // The reference keeps its own element (and its inches for tests and tools) inside the translated sentence.
  const REF = '\u0000reference\u0000';
  const caption = esc(t(loc.locale, 'together.caption', { size, reference: REF })).replace(
    REF,
    `<span class="reference" data-inches="${scene.reference.inches}">${esc(scene.referenceLabel)}</span>`,
  );
  const arrangements = v.arrangements
    ? `<nav class="arrangements" aria-label="${esc(t(loc.locale, 'together.arrangement'))}">` +
      v.arrangements.links
        .map(
          (a) =>
            `<a href="${esc(a.url)}" data-arrangement="${a.name}"${a.name === v.arrangements!.current ? ' aria-current="page"' : ''}>${esc(t(loc.locale, `together.${a.name}`))}</a>`,
        )
        .join('') +
      '</nav>'
    : '';
  const list = v.pictures
    .map((p) => `<li data-item="${p.itemId}"><span class="title">${esc(p.title)}</span> <span class="dims">${esc(p.size)}</span></li>`)
    .join('');
  const data = Object.entries(v.data)
    .map(([k, x]) => ` data-${k}="${esc(x)}"`)
    .join('');
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${back(s)}
<main class="together"${data}>
<h1 class="title">${esc(v.heading)}</h1>
${arrangements}
<figure class="wall together-wall">${scene.svg}
<figcaption>${caption}</figcaption>
</figure>
${launch(v)}
${v.roomUrl ? `<div class="actions">${roomLink(v.roomUrl, loc)}</div>` : ''}
<section class="facts">
<p class="overall">${esc(t(loc.locale, 'together.size', { size }))}</p>
<h2>${esc(t(loc.locale, 'together.pictures'))}</h2>
<ol class="chosen-list">${list}</ol>
</section>
</main>
</div>`;
  const head = v.platform === 'desktop' ? `<script type="module" src="${esc(v.assetBase)}/assets/model-viewer.min.js"></script>` : '';
  return htmlDocument({
    title: `${v.heading} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    // A saved wall has an embed page for oEmbed to frame; a visitor's choice has none.
    share: {
      title: v.heading,
      description: s.description,
      canonicalUrl: v.pageUrl,
      indexable: false,
      oembed: v.data.wall ? s.oembed : undefined,
    },
    brand: s,
    bodyClass: 'page together-page',
    platform: v.platform,
    body,
    scripts: [],
    extraStyle: TOGETHER_STYLE,
    loc,
    head,
  });
}

/** The friendly page for a choice that cannot be hung together (400: not 2-12 wall pictures of this showcase; 409: not ready). */
export function togetherErrorPage(s: PageShowcase, platform: Platform, status: 400 | 409): string {
  const loc = localeOf(s);
  const title = t(loc.locale, 'together.errorTitle');
  const body = `<div class="sc">
${brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
${back(s)}
<main class="together together-error" data-status="${status}">
<h1 class="title">${esc(title)}</h1>
<p>${esc(t(loc.locale, status === 409 ? 'together.errorNotReady' : 'together.errorInvalid'))}</p>
</main>
</div>`;
  return htmlDocument({
    title: `${title} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: { title, description: s.description, canonicalUrl: withLang(s.pageUrl, loc.lang), indexable: false },
    brand: s,
    bodyClass: 'page together-page',
    platform,
    body,
    scripts: [],
    extraStyle: TOGETHER_STYLE,
    loc,
  });
}
