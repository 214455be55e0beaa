/**
 * The room view's script (room-page.ts renders the page; `npm run build` bundles this file with esbuild into
 * dist/room/room.js, which the page inlines, allowed by its hash). The buyer's photo never leaves the browser:
 * it is read from the file input into a `blob:` URL (downscaled on a canvas when larger than the page's
 * `maxSide`), drawn, and composed into a JPEG download on "Save image"; nothing here makes a request.
 *
 * The contract (docs/api.md, "On your wall, from a photo"): `[data-room-photo]` is the photo (its natural size
 * is what "photo pixels" means), `[data-corner="tl|tr|br|bl"]` the reference's corner handles (a handle's centre
 * marks its corner; arrow keys move it 1 photo pixel, Shift 10), `[data-room-picture]` each placed picture with
 * `data-quad` = its outer corners (top-left, top-right, bottom-right, bottom-left) in photo pixels. Each handle
 * also says where it is (`data-point="x,y"`, photo pixels).
 */
import {
  affine,
  CM_PER_INCH,
  cssMatrix3d,
  invert,
  multiply,
  type Point,
  project,
  projectQuad,
  type Quad,
  quadAttr,
  rect,
  REFERENCES,
  scaling,
  translation,
  wallRects,
  wallToPhoto,
  type Mat3,
} from '../homography';
// The page's `#room-data` JSON (type only: nothing of the server's module is bundled).
import type { RoomData } from '../room-page';

const CORNERS = ['tl', 'tr', 'br', 'bl'] as const;
/** The element's own width in CSS pixels: the transform scales it onto the wall. */
const LOCAL = 1000;

function start(): void {
  const d = document;
  const dataEl = d.getElementById('room-data');
  const root = d.querySelector<HTMLElement>('[data-room]');
  if (!dataEl || !root) return;
  const data = JSON.parse(dataEl.textContent || '{}') as RoomData;
  count(data.beacon);
  const q = <T extends Element>(s: string) => root.querySelector<T>(s);
  const file = q<HTMLInputElement>('[data-room-file]')!;
  const stage = q<HTMLElement>('[data-room-stage]')!;
  const photo = q<HTMLImageElement>('[data-room-photo]')!;
  const layer = q<HTMLElement>('[data-room-layer]')!;
  const outline = q<SVGPolygonElement>('[data-room-outline]')!;
  const label = q<HTMLElement>('[data-room-label]')!;
  const status = q<HTMLElement>('[data-room-status]')!;
  const save = q<HTMLButtonElement>('[data-room-save]')!;
  const custom = q<HTMLElement>('[data-room-custom]')!;
  const handles = CORNERS.map((c) => q<HTMLElement>(`[data-corner="${c}"]`)!);
  const pictures = Array.from(root.querySelectorAll<HTMLElement>('[data-room-picture]'));
  const setList = data.pictures;

  let photoUrl = '';
  let corners: Point[] = [];
  /** The set's centre on the wall (inches from the reference's top-left corner); null: the reference's centre. */
  let centre: Point | null = null;
  /** The current wall → photo homography and the reference's oriented size. */
  let wall: { h: Mat3; width: number; height: number } | null = null;
  let drag: { kind: 'corner'; i: number } | { kind: 'set'; from: Point; centre: Point } | null = null;

  const say = (text: string) => {
    status.textContent = text;
  };

  function referenceSize(): { width: number; height: number } | null {
    const kind = (root!.querySelector<HTMLInputElement>('input[name="reference"]:checked')?.value ?? 'a4') as
      keyof typeof REFERENCES | 'custom';
    custom.hidden = kind !== 'custom';
    if (kind !== 'custom') return REFERENCES[kind] ?? REFERENCES.a4;
    const read = (name: string) => Number((root!.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? '').replace(',', '.'));
    const k = data.units === 'cm' ? 1 / CM_PER_INCH : 1;
    const w = read('ref-width') * k;
    const h = read('ref-height') * k;
    return w > 0 && h > 0 && Number.isFinite(w + h) ? { width: w, height: h } : null;
  }

  /** CSS pixels per photo pixel as the photo is shown now. */
  const shown = () => (photo.naturalWidth ? photo.getBoundingClientRect().width / photo.naturalWidth : 1);

  /** A pointer event's position in photo pixels. */
  function photoPoint(e: PointerEvent): Point {
    const r = photo.getBoundingClientRect();
    const s = shown();
    return [(e.clientX - r.left) / s, (e.clientY - r.top) / s];
  }

  function update(): void {
    if (!photo.naturalWidth || corners.length !== 4) return;
    const s = shown();
    corners.forEach((p, i) => {
      handles[i]!.style.left = `${p[0] * s}px`;
      handles[i]!.style.top = `${p[1] * s}px`;
      handles[i]!.setAttribute('data-point', `${Math.round(p[0] * 100) / 100},${Math.round(p[1] * 100) / 100}`);
    });
    outline.setAttribute('points', corners.map((p) => `${p[0] * s},${p[1] * s}`).join(' '));
    const size = referenceSize();
    wall = size ? wallToPhoto(corners as unknown as Quad, size) : null;
    const rects = wall ? wallRects((centre ??= [wall.width / 2, wall.height / 2]), setList) : [];
    // Every corner in front of the camera (a picture dragged past the horizon is not drawn).
    const ok = wall !== null && rects.every((r) => r.every((p) => inFront(wall!.h, p)));
    for (const el of pictures) el.hidden = !ok;
    label.hidden = !ok;
    save.disabled = !ok;
    if (!ok || !wall) {
      say(size ? data.messages.badQuad : data.messages.needSize);
      return;
    }
    const h = wall.h;
    rects.forEach((r, i) => {
      const el = pictures[i]!;
      const p = setList[i]!;
      const localH = (LOCAL * p.height) / p.width;
      const m = multiply(scaling(s), multiply(h, multiply(translation(r[0][0], r[0][1]), scaling(p.width / LOCAL))));
      el.style.width = `${LOCAL}px`;
      el.style.height = `${localH}px`;
      el.style.transform = cssMatrix3d(m);
      const k = LOCAL / p.width;
      // A soft shadow cast down and to the right, in wall inches (the element's own pixels are k per inch).
      el.style.boxShadow = `${(0.35 * k).toFixed(1)}px ${(0.8 * k).toFixed(1)}px ${(1.4 * k).toFixed(1)}px rgba(0,0,0,.38)`;
      el.setAttribute('data-quad', quadAttr(projectQuad(h, r)));
    });
    // The size label under the set, centred.
    const bottom = Math.max(...rects.map((r) => r[2][1]));
    const left = Math.min(...rects.map((r) => r[0][0]));
    const right = Math.max(...rects.map((r) => r[1][0]));
    const at = project(h, [(left + right) / 2, bottom + 1]);
    label.style.left = `${at[0] * s}px`;
    label.style.top = `${at[1] * s}px`;
    say(data.messages.placed);
  }

  function inFront(h: Mat3, p: Point): boolean {
    return h[6] * p[0] + h[7] * p[1] + h[8] > 0;
  }

  /** Photo pixels → wall inches through the current homography. */
  function wallPoint(p: Point): Point | null {
    const i = wall ? invert(wall.h) : null;
    return i ? project(i, p) : null;
  }

  const clamp = (p: Point): Point => [Math.min(Math.max(p[0], 0), photo.naturalWidth), Math.min(Math.max(p[1], 0), photo.naturalHeight)];

  handles.forEach((el, i) => {
    el.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      el.focus();
      drag = { kind: 'corner', i };
    });
    el.addEventListener('keydown', (e) => {
      const step = e.shiftKey ? 10 : 1;
      const by: Record<string, Point> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const v = by[e.key];
      if (!v) return;
      e.preventDefault();
      const c = corners[i]!;
      corners[i] = clamp([c[0] + v[0], c[1] + v[1]]);
      update();
    });
  });
  for (const el of pictures) {
    el.addEventListener('pointerdown', (e) => {
      const from = wallPoint(photoPoint(e));
      if (!from || !centre) return;
      e.preventDefault();
      el.setPointerCapture(e.pointerId);
      el.focus();
      drag = { kind: 'set', from, centre };
    });
    el.addEventListener('keydown', (e) => {
      // One centimetre or one inch a press in the showcase's units; ten with Shift.
      const step = (e.shiftKey ? 10 : 1) * (data.units === 'cm' ? 1 / CM_PER_INCH : 1);
      const by: Record<string, Point> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      const v = by[e.key];
      if (!v || !centre) return;
      e.preventDefault();
      centre = [centre[0] + v[0], centre[1] + v[1]];
      update();
    });
  }
  layer.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const p = photoPoint(e);
    if (drag.kind === 'corner') {
      corners[drag.i] = clamp(p);
    } else {
      const now = wallPoint(p);
      if (now) centre = [drag.centre[0] + now[0] - drag.from[0], drag.centre[1] + now[1] - drag.from[1]];
    }
    update();
  });
  const stop = () => {
    drag = null;
  };
  layer.addEventListener('pointerup', stop);
  layer.addEventListener('pointercancel', stop);
  root.addEventListener('change', (e) => {
    const t = e.target as HTMLInputElement | null;
    if (t && (t.name === 'reference' || t.name === 'ref-width' || t.name === 'ref-height')) update();
  });
  root.addEventListener('input', (e) => {
    const t = e.target as HTMLInputElement | null;
    if (t && (t.name === 'ref-width' || t.name === 'ref-height')) update();
  });
  window.addEventListener('resize', update);

  /** The chosen file as a `blob:` URL of at most `maxSide` pixels on its longer side, oriented as its EXIF says. */
  async function load(f: File): Promise<string> {
    const url = URL.createObjectURL(f);
    const img = new Image();
    img.src = url;
    await img.decode();
    const w = img.naturalWidth;
    const h = img.naturalHeight;
    const k = data.maxSide / Math.max(w, h);
    if (k >= 1) return url;
    const c = d.createElement('canvas');
    c.width = Math.round(w * k);
    c.height = Math.round(h * k);
    const ctx = c.getContext('2d')!;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, 0, 0, c.width, c.height);
    URL.revokeObjectURL(url);
    const blob = await new Promise<Blob | null>((r) => c.toBlob(r, 'image/jpeg', 0.92));
    if (!blob) throw new Error('toBlob');
    return URL.createObjectURL(blob);
  }

  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    if (!f) return;
    try {
      const url = await load(f);
      if (photoUrl) URL.revokeObjectURL(photoUrl);
      photoUrl = url;
      photo.src = url;
      await photo.decode();
    } catch {
      say(data.messages.decodeError);
      return;
    }
    stage.hidden = false;
    // A sheet-shaped quad in the middle of the photo, on whole pixels, for the buyer to drag onto the reference.
    const w = photo.naturalWidth;
    const h = photo.naturalHeight;
    const sh = Math.round(Math.min(w, h) * 0.3);
    const sw = Math.round(sh * 0.71);
    const x = Math.round((w - sw) / 2);
    const y = Math.round((h - sh) / 2);
    corners = rect(x, y, sw, sh).map((p) => [p[0], p[1]] as Point);
    centre = null;
    update();
  });

  save.addEventListener('click', () => {
    try {
      compose();
    } catch {
      say(data.messages.saveError);
    }
  });

  /** Photo + shadows + pictures (drawn through the homography as a mesh of triangles) → a JPEG download. */
  function compose(): void {
    if (!wall || !centre) return;
    const c = d.createElement('canvas');
    c.width = photo.naturalWidth;
    c.height = photo.naturalHeight;
    const ctx = c.getContext('2d')!;
    ctx.drawImage(photo, 0, 0);
    const h = wall.h;
    const rects = wallRects(centre, setList);
    rects.forEach((r) => {
      const sq = projectQuad(h, rect(r[0][0] + 0.35, r[0][1] + 0.8, r[1][0] - r[0][0], r[3][1] - r[0][1]));
      const quad = projectQuad(h, r);
      const scale = Math.hypot(quad[1][0] - quad[0][0], quad[1][1] - quad[0][1]) / (r[1][0] - r[0][0]);
      ctx.save();
      ctx.filter = `blur(${Math.max(1, 0.7 * scale).toFixed(1)}px)`;
      ctx.fillStyle = 'rgba(0,0,0,.38)';
      ctx.beginPath();
      sq.forEach((p, i) => (i ? ctx.lineTo(p[0], p[1]) : ctx.moveTo(p[0], p[1])));
      ctx.closePath();
      ctx.fill();
      ctx.restore();
    });
    rects.forEach((r, i) => {
      const img = pictures[i]!.querySelector('img');
      if (img) warp(ctx, img, h, r);
    });
    c.toBlob(
      (blob) => {
        if (!blob) return say(data.messages.saveError);
        const a = d.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = data.file;
        d.body.appendChild(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
      },
      'image/jpeg',
      0.9,
    );
  }

  /** Draws `img` onto the wall rectangle `r` through `h`: an n × n grid, each cell as two affine triangles. */
  function warp(ctx: CanvasRenderingContext2D, img: HTMLImageElement, h: Mat3, r: Quad): void {
    const n = 16;
    const iw = img.naturalWidth;
    const ih = img.naturalHeight;
    const [x0, y0] = r[0];
    const ww = r[1][0] - x0;
    const wh = r[3][1] - y0;
    const at = (i: number, j: number): { s: Point; d: Point } => ({
      s: [(i / n) * iw, (j / n) * ih],
      d: project(h, [x0 + (i / n) * ww, y0 + (j / n) * wh]),
    });
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) {
        const a = at(i, j);
        const b = at(i + 1, j);
        const c = at(i + 1, j + 1);
        const e = at(i, j + 1);
        for (const t of [
          [a, b, c],
          [a, c, e],
        ]) {
          const m = affine(
            t.map((v) => v.s),
            t.map((v) => v.d),
          );
          if (!m) continue;
          // The triangle grown by half a pixel around its centre, so neighbours overlap and no seam shows.
          const cx = (t[0]!.d[0] + t[1]!.d[0] + t[2]!.d[0]) / 3;
          const cy = (t[0]!.d[1] + t[1]!.d[1] + t[2]!.d[1]) / 3;
          ctx.save();
          ctx.beginPath();
          t.forEach((v, k) => {
            const dx = v.d[0] - cx;
            const dy = v.d[1] - cy;
            const len = Math.hypot(dx, dy) || 1;
            const px = v.d[0] + (dx / len) * 0.6;
            const py = v.d[1] + (dy / len) * 0.6;
            if (k) ctx.lineTo(px, py);
            else ctx.moveTo(px, py);
          });
          ctx.closePath();
          ctx.clip();
          ctx.setTransform(m[0], m[1], m[2], m[3], m[4], m[5]);
          ctx.drawImage(img, 0, 0);
          ctx.restore();
        }
      }
  }
}

/**
 * The view's one `room_view` event per picture, as the pages' beacon script sends its events (docs/analytics.md):
 * navigator.sendBeacon with text/plain JSON (no preflight, no cookie), nothing when the visitor sends Do Not Track
 * or Global Privacy Control, never anything of the photo. Inside the widget's frame the surface is `widget`.
 */
function count(b: RoomData['beacon']): void {
  try {
    const n = navigator as Navigator & { globalPrivacyControl?: boolean };
    const w = window as Window & { doNotTrack?: string };
    if (!b || typeof n.sendBeacon !== 'function' || n.doNotTrack === '1' || w.doNotTrack === '1' || n.globalPrivacyControl === true) return;
    const surface = b.surface === 'embed' && w.name === b.frame ? 'widget' : b.surface;
    const id = () => {
      const a = new Uint8Array(12);
      crypto.getRandomValues(a);
      return Array.from(a, (x) => (x < 16 ? '0' : '') + x.toString(16)).join('');
    };
    const events = b.items
      .slice(0, 20)
      .map((item) => ({ id: id(), kind: 'room_view', surface, item_id: item, ...(b.variant ? { variant: b.variant } : {}) }));
    n.sendBeacon(b.url, JSON.stringify({ site: b.site, events }));
  } catch {
    /* never in the page's way */
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
