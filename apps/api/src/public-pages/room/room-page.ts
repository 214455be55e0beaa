import { t, type MessageKey } from '@app/catalogue';
import { esc } from '../../http/html';
import type { PageLocale } from '../page-locale';
import type { Platform } from '../platform';
import { brandHeader, htmlDocument } from '../showcase/page-shell';
import { homeUrl, localeOf, type PageShowcase } from '../showcase/showcase-page';
import type { SetPicture } from './homography';
import { roomScript } from './room-script';

/**
 * "On your wall, from a photo" (docs/api.md): the buyer's own photo of a wall, a reference of known size on it
 * (A4, US Letter or a custom rectangle) whose corners the buyer marks with four handles, and the picture (or a
 * visitor's set) drawn at its real outer size through the homography those corners give (room-client/room.ts).
 * The page is the markup the script brings to life: without a script it says what it needs.
 */

/** The longer side a photo keeps in the browser (larger ones are downscaled there before they are drawn). */
export const ROOM_MAX_SIDE = 3200;

export interface RoomPicture extends SetPicture {
  item: number;
  title: string;
  /** The poster (framed when the picture is): what hangs on the wall. */
  src: string;
}

export interface RoomView {
  showcase: PageShowcase;
  platform: Platform;
  heading: string;
  /** The page's own address (canonical), with the visitor's `?lang=`. */
  pageUrl: string;
  /** Where "Back" goes: the item page, the together page, or inside a frame the embed page. */
  back: string;
  pictures: RoomPicture[];
  /** The size as the pages state it (page-locale: the picture's, with its framed size labelled; a set's outer size). */
  size: string;
  /** `size` is a set's overall size: the label on the photo says so (together.size), as the together page does. */
  overall?: boolean;
  /** Inside an embed frame (the widget's, an oEmbed iframe): no brand band, frameable. */
  embed: boolean;
  /** The showcase counts engagement: the page sends one `room_view` per picture it shows (no image data). */
  beacon?: RoomBeacon;
}

/** What the page's script needs to count the view (docs/analytics.md): sent with navigator.sendBeacon, text/plain. */
export interface RoomBeacon {
  /** POST /api/events, absolute (the service's own origin: `connect-src 'self'`). */
  url: string;
  /** The showcase's public id. */
  site: string;
  /** `item` on the full page; `embed` inside a frame (`widget` when the frame is the widget's, named `frame`). */
  surface: 'item' | 'embed';
  frame: string;
  items: number[];
  variant?: string;
}

/** What the page's script reads from `#room-data`. */
export interface RoomData {
  pictures: (SetPicture & { item: number })[];
  units: 'cm' | 'in';
  maxSide: number;
  file: string;
  messages: { decodeError: string; badQuad: string; needSize: string; saveError: string; placed: string };
  beacon?: RoomBeacon;
}

const ROOM_STYLE = `
[hidden]{display:none!important}
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:0 0 16px}
.pager a{display:inline-flex;align-items:center;justify-content:center;gap:.35em;min-width:44px;min-height:44px;padding:6px 12px;border-radius:8px;font-weight:600;text-decoration:none;border:2px solid rgba(127,127,127,.45)}
.room h1{margin:0 0 8px;font-size:clamp(22px,3vw,32px);line-height:1.2;overflow-wrap:anywhere}
.room .intro,.room .steps{max-width:70ch;margin:0 0 12px}
.room .needs-js{padding:12px 16px;border-radius:10px;background:rgba(127,127,127,.14);font-weight:600}
.room .controls{display:flex;flex-wrap:wrap;gap:12px 32px;align-items:flex-start;margin:16px 0}
.room .controls>*{min-width:0;max-width:100%}
.room .choose{position:relative;display:inline-flex;align-items:center;min-height:44px;padding:8px 20px;border-radius:999px;background:var(--primary);color:var(--primary-fg);font-weight:650;cursor:pointer}
.room .choose input{position:absolute;inset:0;width:100%;height:100%;margin:0;opacity:0;cursor:pointer}
.room .choose:focus-within{outline:3px solid var(--primary);outline-offset:3px}
.room fieldset{margin:0;padding:0;border:0;min-width:0}
.room legend{padding:0;margin:0 0 6px;font-weight:650}
.room .options{display:flex;flex-direction:column;gap:4px}
.room .options label{display:flex;align-items:center;gap:8px;min-height:32px}
.room .options input[type=radio]{width:20px;height:20px;margin:0;accent-color:var(--primary)}
.room .custom{display:flex;flex-wrap:wrap;gap:8px 16px;margin:4px 0 0 28px}
.room .custom label{display:flex;flex-direction:column;font-size:14px}
.room .custom input{width:8em;font:inherit;padding:4px 6px}
.room .status{min-height:1.5em;margin:0 0 8px;color:var(--muted)}
.room-stage{position:relative;display:inline-block;max-width:100%;line-height:0;user-select:none;-webkit-user-select:none}
.room-stage img[data-room-photo]{display:block;max-width:100%;max-height:80vh;width:auto;height:auto}
.room-layer{position:absolute;inset:0;overflow:hidden}
.room-layer svg{position:absolute;inset:0;width:100%;height:100%;pointer-events:none;overflow:visible}
.room-layer polygon{fill:rgba(10,102,255,.12);stroke:#0a66ff;stroke-width:2;stroke-dasharray:6 4}
[data-room-picture]{position:absolute;left:0;top:0;margin:0;padding:0;border:0;background:#ddd;transform-origin:0 0;cursor:move;touch-action:none}
[data-room-picture] img{display:block;width:100%;height:100%;pointer-events:none}
[data-room-picture]:focus-visible{outline:12px solid #0a66ff}
.room-label{position:absolute;transform:translate(-50%,0);padding:3px 8px;border-radius:6px;background:rgba(0,0,0,.72);color:#fff;font-size:13px;line-height:1.3;white-space:nowrap;pointer-events:none}
.handle{position:absolute;width:44px;height:44px;margin:-22px 0 0 -22px;padding:0;border:0;border-radius:50%;background:transparent;cursor:grab;touch-action:none}
.handle::before{content:"";position:absolute;inset:11px;border-radius:50%;border:3px solid #fff;background:rgba(10,102,255,.85);box-shadow:0 0 0 1px rgba(0,0,0,.45)}
.handle::after{content:"";position:absolute;left:21px;top:21px;width:2px;height:2px;background:#fff}
.handle:focus-visible{outline:3px solid #ffbf00;outline-offset:0}
.room .actions{display:flex;flex-wrap:wrap;gap:8px;margin-top:16px}
.room .save{min-height:44px;padding:8px 20px;border:0;border-radius:999px;background:var(--primary);color:var(--primary-fg);font:inherit;font-weight:650;cursor:pointer}
.room .save:disabled{opacity:.5;cursor:default}
.room button:focus-visible,.room input:focus-visible{outline:3px solid var(--primary);outline-offset:2px}
body.embed .sc{padding:8px}
`;

const CORNERS: [string, MessageKey][] = [
  ['tl', 'room.cornerTl'],
  ['tr', 'room.cornerTr'],
  ['br', 'room.cornerBr'],
  ['bl', 'room.cornerBl'],
];

/** JSON for a `<script type="application/json">` block: nothing in it can close the element. */
const jsonBlock = (v: unknown): string =>
  JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The reference the page starts with: US Letter where sizes are in inches, A4 elsewhere. */
export const defaultReference = (loc: PageLocale): 'a4' | 'letter' => (loc.units === 'in' ? 'letter' : 'a4');

/** The room page. */
export function roomPage(v: RoomView): string {
  const s = v.showcase;
  const loc = localeOf(s);
  const m = (k: MessageKey, p?: Record<string, string | number>) => esc(t(loc.locale, k, p));
  const ref = defaultReference(loc);
  const option = (value: string, key: MessageKey) =>
    `<label><input type="radio" name="reference" value="${value}"${value === ref ? ' checked' : ''}> ${m(key)}</label>`;
  const data: RoomData = {
    pictures: v.pictures.map((p) => ({ item: p.item, dx: p.dx, dy: p.dy, width: p.width, height: p.height })),
    units: loc.units,
    maxSide: ROOM_MAX_SIDE,
    file: 'on-my-wall.jpg',
    messages: {
      decodeError: t(loc.locale, 'room.decodeError'),
      badQuad: t(loc.locale, 'room.badQuad'),
      needSize: t(loc.locale, 'room.needSize'),
      saveError: t(loc.locale, 'room.saveError'),
      // A set's size is its overall size, and the sentence says so (as the label on the photo and the together page do).
      placed: t(loc.locale, v.overall ? 'room.placedSet' : 'room.placed', { size: v.size }),
    },
    ...(v.beacon ? { beacon: v.beacon } : {}),
  };
  const pictures = v.pictures
    .map(
      (p) =>
        `<button type="button" data-room-picture data-item="${p.item}" data-width-inches="${p.width}" data-height-inches="${p.height}" aria-label="${m('room.move', { title: p.title })}" hidden><img src="${esc(p.src)}" alt="" crossorigin="anonymous" decoding="async"></button>`,
    )
    .join('');
  const handles = CORNERS.map(
    ([c, key]) => `<button type="button" class="handle" data-corner="${c}" aria-label="${m(key)}"></button>`,
  ).join('');
  const unit = loc.units;
  const body = `<div class="sc">
${v.embed ? '' : brandHeader(s, { heading: false, homeUrl: homeUrl(s), loc })}
<nav class="pager" aria-label="${m('page.picturesLabel')}"><a class="close" data-nav="close" href="${esc(v.back)}"><span aria-hidden="true">‹ </span>${m('nav.back')}</a></nav>
<main class="room" data-room>
<h1 class="title">${esc(v.heading)}</h1>
<p class="intro">${m('room.intro')}</p>
<noscript><p class="needs-js">${m('room.noScript')}</p></noscript>
<div class="controls">
<label class="choose"><span>${m('room.choose')}</span><input type="file" accept="image/*" data-room-file></label>
<fieldset class="reference"><legend>${m('room.reference')}</legend><div class="options">
${option('a4', 'room.a4')}
${option('letter', 'room.letter')}
${option('custom', 'room.custom')}
<div class="custom" data-room-custom hidden><label>${m('room.width', { unit })}<input type="text" inputmode="decimal" name="ref-width" autocomplete="off"></label><label>${m('room.height', { unit })}<input type="text" inputmode="decimal" name="ref-height" autocomplete="off"></label></div>
</div></fieldset>
</div>
<p class="steps">${m('room.steps')}</p>
<p class="status" role="status" data-room-status></p>
<div class="room-stage" data-room-stage hidden><img data-room-photo alt="${m('room.photoAlt')}"><div class="room-layer" data-room-layer><svg aria-hidden="true" focusable="false"><polygon data-room-outline points=""/></svg>${pictures}<span class="room-label" data-room-label hidden>${esc(v.overall ? t(loc.locale, 'together.size', { size: v.size }) : v.size)}</span>${handles}</div></div>
<div class="actions"><button type="button" class="save" data-room-save disabled>${m('room.save')}</button></div>
<script type="application/json" id="room-data">${jsonBlock(data)}</script>
</main>
</div>`;
  return htmlDocument({
    title: `${v.heading} · ${s.tagline || t(loc.locale, 'page.showcaseTitle')}`,
    share: { title: v.heading, description: s.description, canonicalUrl: v.pageUrl, indexable: false },
    brand: s,
    bodyClass: `page room-page${v.embed ? ' embed' : ''}`,
    platform: v.platform,
    body,
    scripts: [],
    extraStyle: ROOM_STYLE,
    loc,
    head: `<script>${roomScript().source}</script>`,
  });
}

/**
 * The room page's Content-Security-Policy: the showcase pages' (no script but this page's own, by its hash; no
 * fetches at all) with `blob:` images (the buyer's photo, drawn from the file it chose); with analytics on
 * (`beacon`), `connect-src 'self'` for its one beacon, as the item pages have. `embed`: inside a frame on any
 * site, as the embed pages are; otherwise only the service's own pages may frame it.
 */
export function roomCsp(embed: boolean, beacon = false): string {
  return [
    "default-src 'none'",
    `script-src ${roomScript().hash}`,
    ...(beacon ? ["connect-src 'self'"] : []),
    'img-src https: http: data: blob:',
    "style-src 'unsafe-inline'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${embed ? '*' : "'self'"}`,
  ].join('; ');
}
